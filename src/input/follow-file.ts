import { open, stat, type FileHandle } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { describeIoError } from "./byte-source.js";

/**
 * `--follow` (`-f`, tail's `--follow=descriptor`) keeps the file it opened; `-F` (`--follow=name`)
 * follows the name: a file renamed, deleted or replaced (logrotate's `create`) is read to its end,
 * then the file that has the name next is read from its start.
 */
export type FollowMode = "descriptor" | "name";

/** Why the bytes start again from a file's beginning. */
export type RestartReason = "truncated" | "replaced" | "appeared";

/** What the follower yields besides bytes, in order with them. */
export type FollowSignal =
  /** Every byte the file holds now has been given: the reader may decide that the run is over. */
  | { kind: "idle" }
  /** The bytes that come next are a file's from its start (the old content's last line, if cut, is gone). */
  | { kind: "restart"; reason: RestartReason }
  /** Something the user should know (the file went away, cannot be opened yet). */
  | { kind: "warning"; message: string };

export interface FollowOptions {
  mode: FollowMode;
  /** How long to wait at the end of the file before looking again. */
  pollMs?: number;
  /** Told the size of every chunk read, before decompression (the progress line). */
  onBytes?: (n: number) => void;
}

const IDLE: FollowSignal = Object.freeze({ kind: "idle" });
const CHUNK = 1 << 20;

/**
 * The bytes of a file that is still being written, decompressed when it starts with the gzip magic
 * bytes, as `tail -f` / `tail -F` reads them. At the end of what is there it yields `idle`, waits
 * and looks again, forever: the caller decides from the parsed events when the run is over and
 * stops iterating (which closes the file). A file that shrank was truncated (`: > f`, logrotate's
 * `copytruncate`): it is read again from its start, after a `restart`. A FIFO, a pipe (`<(…)`) or a
 * terminal cannot be re-read or positioned: it is read as a stream, to its end, and not followed.
 */
export async function* followFile(path: string, opts: FollowOptions): AsyncGenerator<Buffer | FollowSignal> {
  const pollMs = opts.pollMs ?? 150;
  let fh: FileHandle | undefined;
  try {
    let missing = "";
    while (fh === undefined) {
      try {
        fh = await open(path, "r");
      } catch (err) {
        if (opts.mode !== "name") throw err;
        // tail -F: a name that is not there yet (or cannot be opened yet) is waited for.
        const why = describeIoError(err);
        if (why !== missing) yield { kind: "warning", message: `cannot open: ${why}; waiting for it to appear` };
        missing = why;
        yield IDLE;
        await sleep(pollMs);
      }
    }
    if (missing !== "") yield { kind: "warning", message: "has appeared; following it" };
    let st = await fh.stat();
    if (!st.isFile()) {
      // A pipe has no position and no size: read it as a stream, to the end its writer gives it.
      yield* readStream(fh, opts.onBytes);
      return;
    }
    let pos = 0;
    let decoder = new Decoder();
    let gone = ""; // --follow=name: why the name no longer leads to the file being read
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        opts.onBytes?.(bytesRead);
        for (const out of await decoder.push(buf.subarray(0, bytesRead))) yield out;
        continue;
      }
      // At the end of what is there.
      st = await fh.stat();
      if (st.size < pos) {
        pos = 0;
        decoder.close();
        decoder = new Decoder();
        yield { kind: "restart", reason: "truncated" };
        continue;
      }
      if (opts.mode === "name") {
        let now: Awaited<ReturnType<typeof stat>> | undefined;
        let why = "";
        try {
          now = await stat(path);
        } catch (err) {
          why = describeIoError(err);
        }
        if (now === undefined) {
          if (why !== gone) yield { kind: "warning", message: `has become inaccessible: ${why}; reading on what is written to the file it was, and waiting for the name to come back` };
          gone = why;
        } else if (now.ino !== st.ino || now.dev !== st.dev) {
          // Another file has the name. What the old one got since the read above is read first.
          let next: FileHandle | undefined;
          try {
            next = await open(path, "r");
          } catch {
            // Gone again between stat and open: looked at next time round.
          }
          if (next !== undefined) {
            for (;;) {
              const { bytesRead: n } = await fh.read(buf, 0, CHUNK, pos);
              if (n === 0) break;
              pos += n;
              opts.onBytes?.(n);
              for (const out of await decoder.push(buf.subarray(0, n))) yield out;
            }
            await fh.close();
            fh = next;
            pos = 0;
            decoder.close();
            decoder = new Decoder();
            yield { kind: "restart", reason: gone !== "" ? "appeared" : "replaced" };
            gone = "";
            st = await fh.stat();
            if (!st.isFile()) {
              yield* readStream(fh, opts.onBytes);
              return;
            }
            continue;
          }
        } else if (gone !== "") {
          // The same file has the name again (renamed back).
          gone = "";
          yield { kind: "warning", message: "is back; following it" };
        }
      }
      yield IDLE;
      await sleep(pollMs);
    }
  } finally {
    await fh?.close();
  }
}

/** A pipe's bytes until its writer closes it, decompressed if they are gzip. */
async function* readStream(fh: FileHandle, onBytes: ((n: number) => void) | undefined): AsyncGenerator<Buffer> {
  const decoder = new Decoder();
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      onBytes?.(bytesRead);
      yield* await decoder.push(buf.subarray(0, bytesRead));
    }
    yield* await decoder.end();
  } finally {
    decoder.close();
  }
}

/**
 * Raw bytes in, log bytes out: as they are, or inflated when the first two bytes are gzip's magic.
 * Each push returns everything its bytes decode to (a sync flush), so when the file has been read
 * to its end, every event it holds so far has been given to the reader: the end of a run can be
 * decided then, for gzip as for plain text.
 */
class Decoder {
  private head: Buffer | undefined = Buffer.alloc(0);
  private gunzip: import("node:zlib").Gunzip | undefined;
  private out: Buffer[] = [];
  private error: Error | undefined;

  async push(chunk: Buffer): Promise<Buffer[]> {
    if (this.head !== undefined) {
      // The first two bytes decide; until there are two, hold them.
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) return [];
      chunk = this.head;
      this.head = undefined;
      if (chunk[0] === 0x1f && chunk[1] === 0x8b) {
        // zlib is loaded for gzip input only (start-up).
        const zlib = await import("node:zlib");
        this.gunzip = zlib.createGunzip();
        this.gunzip.on("data", (c: Buffer) => this.out.push(c));
        this.gunzip.on("error", (err) => (this.error ??= err));
      }
    } else if (this.gunzip === undefined) {
      // Copied: the caller reads into the same buffer again.
      return [Buffer.from(chunk)];
    }
    if (this.gunzip === undefined) return [chunk];
    const gunzip = this.gunzip;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        gunzip.off("error", done);
        resolve();
      };
      gunzip.once("error", done);
      gunzip.write(chunk);
      gunzip.flush(done);
    });
    // The flush callback can run before the last 'data' event of its output: one turn more.
    await new Promise((r) => setImmediate(r));
    if (this.error) throw this.error;
    const out = this.out;
    this.out = [];
    return out;
  }

  /** The end of a stream: what is held, and a cut gzip stream's error. */
  async end(): Promise<Buffer[]> {
    if (this.head !== undefined) return this.head.length > 0 ? [this.head] : [];
    const gunzip = this.gunzip;
    if (gunzip === undefined) return [];
    await new Promise<void>((resolve) => {
      gunzip.once("error", () => resolve());
      gunzip.once("end", () => resolve());
      gunzip.end();
      gunzip.resume();
    });
    if (this.error) throw this.error;
    const out = this.out;
    this.out = [];
    return out;
  }

  close(): void {
    this.gunzip?.destroy();
  }
}
