import { constants, open as openFd } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import type { ChunkPool } from "./chunk-pool.js";
import { lazy } from "../lazy.js";

const gunzipModule = lazy(() => import("./gunzip.js"));
const netModule = lazy(() => import("node:net"));

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
      const { gunzip } = await gunzipModule();
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
  if (await isFifo(path)) {
    yield* fifoChunks(path);
    return;
  }
  const fh = await open(path, "r");
  try {
    for (;;) {
      const buf = pool?.take() ?? Buffer.allocUnsafeSlow(1 << 20);
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) {
        // Given back: a 1 MiB buffer per file left to the garbage collector outside V8's heap made
        // it collect ever more often as files went by (20,000 tiny logs: 4.7× the CPU of 10,000).
        pool?.give(buf);
        return;
      }
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

async function isFifo(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFIFO();
  } catch {
    return false; // open reports the error
  }
}

/**
 * A FIFO (`mkfifo`, `<(…)`, /dev/stdin on a pipe) read as a stream, as stdin is: opened without
 * blocking and read when epoll says so. A blocking open or read would wait in libuv's thread pool
 * for a writer, and process.exit joins that pool: Ctrl-C on `cursorlog json fifo` with no writer
 * hung. Without O_NONBLOCK the open waits for a writer; with it, the read end waits in epoll
 * (Linux reports no hang-up before a writer has come), so the input ends when the last writer
 * closes, as with a blocking read.
 */
async function* fifoChunks(path: string): AsyncGenerator<Buffer> {
  const fd = await promisify(openFd)(path, constants.O_RDONLY | constants.O_NONBLOCK);
  // node:net for FIFOs only: loading it took ~1.3 ms of every start (and of every --jobs worker's).
  const { Socket } = await netModule();
  const pipe = new Socket({ fd, readable: true, writable: false });
  try {
    for await (const chunk of pipe) yield chunk as Buffer;
  } finally {
    pipe.destroy();
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
