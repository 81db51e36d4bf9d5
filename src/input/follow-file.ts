import { open, stat, type FileHandle } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { describeIoError } from "./byte-source.js";
import { lazy } from "../lazy.js";

const gunzipModule = lazy(() => import("./gunzip.js"));

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
  /** Told when a gzip member is followed by bytes that are not one (gzip's "trailing garbage"): what follows them is not read. */
  onTrailingGarbage?: () => void;
}

const IDLE: FollowSignal = Object.freeze({ kind: "idle" });
const CHUNK = 1 << 20;
/** How many of a file's first bytes are compared at each look, to see it written again. */
const HEAD = 256;
const EMPTY = Buffer.alloc(0);

/**
 * The bytes of a file that is still being written, decompressed when it starts with the gzip magic
 * bytes, as `tail -f` / `tail -F` reads them. At the end of what is there it yields `idle`, waits
 * and looks again, forever: the caller decides from the parsed events when the run is over and
 * stops iterating (which closes the file). A file that shrank, or whose first bytes changed, was
 * truncated (`: > f`, logrotate's `copytruncate`) and maybe written again: it is read again from
 * its start, after a `restart`. A FIFO, a pipe (`<(…)`) or a
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
      yield* readStream(fh, opts);
      return;
    }
    const onGarbage = opts.onTrailingGarbage ?? ((): void => {});
    let pos = 0;
    let decoder = new Decoder(onGarbage);
    // The file's first bytes as read: a file truncated and written again past `pos` between two
    // looks (tail does not see that) has other bytes there.
    let head = EMPTY;
    const probe = Buffer.allocUnsafe(HEAD);
    let gone = ""; // --follow=name: why the name no longer leads to the file being read
    const buf = Buffer.allocUnsafe(CHUNK);
    /** Bytes read at `pos` from the file being followed, given on. */
    const took = (bytes: Buffer): AsyncGenerator<Buffer> => {
      if (pos < HEAD) head = Buffer.concat([head, bytes.subarray(0, HEAD - pos)]);
      pos += bytes.length;
      opts.onBytes?.(bytes.length);
      return decoder.decode(bytes);
    };
    /** The next bytes are another file's, or this one's again, from its start. */
    const restart = (): void => {
      pos = 0;
      head = EMPTY;
      decoder.close();
      decoder = new Decoder(onGarbage);
    };
    /** The file shrank, or was written again from its start. */
    const truncated = async (file: FileHandle): Promise<boolean> => {
      st = await file.stat();
      if (st.size < pos) return true;
      if (head.length === 0) return false;
      const { bytesRead } = await file.read(probe, 0, head.length, 0);
      return bytesRead < head.length || !head.equals(probe.subarray(0, head.length));
    };
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead > 0) {
        // Looked at after the read: bytes a rewrite put at `pos` before it are not taken for more.
        if (pos > 0 && (await truncated(fh))) {
          restart();
          yield { kind: "restart", reason: "truncated" };
          continue;
        }
        yield* took(buf.subarray(0, bytesRead));
        continue;
      }
      // At the end of what is there.
      if (await truncated(fh)) {
        restart();
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
              yield* took(buf.subarray(0, n));
            }
            await fh.close();
            fh = next;
            restart();
            yield { kind: "restart", reason: gone !== "" ? "appeared" : "replaced" };
            gone = "";
            st = await fh.stat();
            if (!st.isFile()) {
              yield* readStream(fh, opts);
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
async function* readStream(fh: FileHandle, opts: FollowOptions): AsyncGenerator<Buffer> {
  const decoder = new Decoder(opts.onTrailingGarbage ?? ((): void => {}));
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      opts.onBytes?.(bytesRead);
      yield* decoder.decode(buf.subarray(0, bytesRead));
    }
    yield* decoder.decode(undefined);
  } finally {
    decoder.close();
  }
}

/**
 * Raw bytes in, log bytes out: as they are, or inflated when the first two bytes are gzip's magic,
 * by gunzip.ts (member by member, as for a file that is not followed: trailing garbage after a
 * member is reported, not fatal). Each push returns everything its bytes decode to: gunzip.ts is
 * driven until it asks for bytes that have not come yet, so when the file has been read to its
 * end every event it holds so far has been given to the reader, and the end of a run can be
 * decided then, for gzip as for plain text.
 */
class Decoder {
  private head: Buffer | undefined = Buffer.alloc(0);
  private gz: GzipFeed | undefined;

  constructor(private readonly onTrailingGarbage: () => void) {}

  /**
   * What `chunk` decodes to, or (undefined) what the end of the stream gives; then a damaged gzip
   * stream's error, after all that was decoded before the damage (as for a file not followed).
   */
  async *decode(chunk: Buffer | undefined): AsyncGenerator<Buffer> {
    yield* chunk === undefined ? await this.end() : await this.push(chunk);
    if (this.gz?.error !== undefined) throw this.gz.error;
  }

  private async push(chunk: Buffer): Promise<Buffer[]> {
    if (this.head !== undefined) {
      // The first two bytes decide; until there are two, hold them.
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) return [];
      chunk = this.head;
      this.head = undefined;
      if (chunk[0] === 0x1f && chunk[1] === 0x8b) {
        // gunzip.ts (and zlib) is loaded for gzip input only (start-up).
        const { gunzip } = await gunzipModule();
        this.gz = new GzipFeed(gunzip, this.onTrailingGarbage);
      }
    } else if (this.gz === undefined) {
      // Copied: the caller reads into the same buffer again.
      return [Buffer.from(chunk)];
    }
    if (this.gz === undefined) return [chunk];
    this.gz.feed(Buffer.from(chunk));
    return this.gz.drain();
  }

  /** The end of a stream: what is held, and what gzip gives at its end. */
  private async end(): Promise<Buffer[]> {
    if (this.head !== undefined) return this.head.length > 0 ? [this.head] : [];
    if (this.gz === undefined) return [];
    this.gz.feed(undefined);
    return this.gz.drain();
  }

  close(): void {
    void this.gz?.close();
  }
}

type Gunzip = (chunks: AsyncIterator<Buffer>, first: Buffer, onTrailingGarbage: () => void) => AsyncGenerator<Buffer>;

/**
 * gunzip.ts pulls its input; a followed file pushes it. The bytes given so far are queued for
 * gunzip's pulls, and `drain` takes its output until it pulls with the queue empty (starved: all
 * that these bytes decode to is out) or it is done (after trailing garbage, or at the end).
 */
class GzipFeed {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private finished = false;
  /** gunzip waits for bytes that have not come yet. */
  private waiting: ((r: IteratorResult<Buffer>) => void) | undefined;
  private starved: (() => void) | undefined;
  private readonly gen: AsyncGenerator<Buffer>;
  /** A pull of gunzip's output that has not answered yet (it waits for bytes). */
  private pending: Promise<IteratorResult<Buffer>> | undefined;
  /** Damaged or cut gzip data: nothing more is decoded. */
  error: Error | undefined;

  constructor(gunzip: Gunzip, onTrailingGarbage: () => void) {
    const input: AsyncIterator<Buffer> = {
      next: () => {
        const value = this.queue.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
          this.starved?.();
        });
      },
    };
    this.gen = gunzip(input, Buffer.alloc(0), onTrailingGarbage);
  }

  /** More bytes, or (undefined) the end of them. */
  feed(chunk: Buffer | undefined): void {
    if (chunk === undefined) this.ended = true;
    else this.queue.push(chunk);
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    const value = this.queue.shift();
    waiting(value !== undefined ? { value, done: false } : { value: undefined, done: true });
  }

  async drain(): Promise<Buffer[]> {
    const out: Buffer[] = [];
    while (!this.finished) {
      // Set before gunzip runs again: it can only pull while a pull of its output is pending.
      const starved = new Promise<"starved">((resolve) => (this.starved = () => resolve("starved")));
      this.pending ??= this.gen.next();
      let r: IteratorResult<Buffer> | "starved";
      try {
        r = await Promise.race([this.pending, starved]);
      } catch (err) {
        // What was decoded before the damage is given first; decode() throws after it.
        this.error = err instanceof Error ? err : new Error(String(err));
        this.finished = true;
        break;
      }
      if (r === "starved") break;
      this.pending = undefined;
      if (r.done === true) this.finished = true;
      else out.push(r.value);
    }
    this.starved = undefined;
    return out;
  }

  async close(): Promise<void> {
    // A generator waiting for bytes is ended by the end of them; one that is not can be returned.
    this.feed(undefined);
    this.pending?.catch(() => {});
    if (this.pending === undefined) await this.gen.return(undefined).catch(() => {});
  }
}
