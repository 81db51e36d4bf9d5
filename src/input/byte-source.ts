import { open } from "node:fs/promises";
import type { ChunkPool } from "./chunk-pool.js";
import { Readable } from "node:stream";

/**
 * The chunks of one input, decompressed when it starts with the gzip magic bytes (1f 8b).
 * Bytes after the last gzip member that are not one (and not zero padding) end the input after
 * everything before them was yielded, and `onTrailingGarbage` is called (gzip's warning).
 */
export async function* byteSource(stream: Readable, chunks: AsyncIterable<Buffer> = stream, onTrailingGarbage: () => void = () => {}): AsyncGenerator<Buffer> {
  const it = chunks[Symbol.asyncIterator]();
  try {
    let head: Buffer = Buffer.alloc(0);
    while (head.length < 2) {
      const next = await it.next();
      if (next.done) {
        if (head.length > 0) yield head;
        return;
      }
      head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
    }
    async function* rest(): AsyncGenerator<Buffer> {
      yield head;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    }
    if (head[0] === 0x1f && head[1] === 0x8b) {
      // gunzip.ts (and zlib) is loaded for gzip input only (start-up).
      const { gunzip } = await import("./gunzip.js");
      yield* gunzip(it, head, onTrailingGarbage);
    } else {
      yield* rest();
    }
  } finally {
    await it.return?.();
    stream.destroy();
  }
}

/** A named file's bytes, 1 MiB at a time, read into `pool`'s buffers when one is given. */
export function openFile(path: string, pool?: ChunkPool): Readable {
  return Readable.from(fileChunks(path, pool), { objectMode: false });
}

async function* fileChunks(path: string, pool: ChunkPool | undefined): AsyncGenerator<Buffer> {
  const fh = await open(path, "r");
  try {
    for (;;) {
      const buf = pool?.take() ?? Buffer.allocUnsafeSlow(1 << 20);
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** A file-system error as a short human phrase ("no such file or directory"). */
export function describeIoError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "Z_BUF_ERROR" && e.message === "unexpected end of file") return "truncated gzip data (unexpected end of file)";
  switch (e?.code) {
    case "ENOENT":
      return "no such file or directory";
    case "EISDIR":
      return "is a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "Z_DATA_ERROR":
    case "Z_BUF_ERROR":
      return `corrupt gzip data (${e.message})`;
    default:
      return e?.message ?? String(err);
  }
}
