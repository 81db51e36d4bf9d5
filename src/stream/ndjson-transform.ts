import { Transform } from "node:stream";
import { Reporter } from "../diagnostics.js";
import { JsonReader } from "../input/json-reader.js";
import { LineSplitter } from "../input/line-splitter.js";
import { describeIoError } from "../input/byte-source.js";
import { gunzip } from "../input/gunzip.js";
import { LineError } from "../input/line-error.js";
import { isProblem, type InputItem, type Problem } from "../input/record.js";
import { refuseOtherAgents } from "./refuse-other-agents.js";
import type { Stage } from "./stage.js";
import pc from "picocolors";

export interface NdjsonTransformOptions {
  /** Name used in diagnostics (default `<stream>`). */
  file?: string;
  /** Skip lines that are not JSON objects instead of failing (default false). */
  lenient?: boolean;
  /** Receives each diagnostic line (default: discarded). */
  onDiagnostic?: (line: string) => void;
}

/**
 * For use from code: a Transform from raw log bytes (cursor-agent stream-json) to a command's
 * output text, e.g. `ndjsonTransform((r) => toResultJson({pretty: false, allowIncomplete: false}, r))`.
 * A malformed line errors the stream (unless `lenient`); `exitCode` tells what the CLI would exit with.
 * It writes bytes, as the CLI does: a line a stage keeps as it was (filter's) comes out as its own
 * bytes, invalid UTF-8 included.
 *
 * gzip is read as the CLI reads it: input that starts with the gzip magic bytes (1f 8b) is
 * decompressed member by member (src/input/gunzip.ts). Bytes after the last member that are not
 * one are gzip's warning ("decompression OK, trailing garbage ignored", exit code 2) after all
 * that came before; a cut or corrupt gzip stream errors the stream with `FILE: cannot read:
 * corrupt gzip data (…)` or `… truncated gzip data (…)` after the output of what was whole.
 */
export function ndjsonTransform(makeStage: (reporter: Reporter) => Stage, opts: NdjsonTransformOptions = {}): Transform & { exitCode(): number } {
  const file = opts.file ?? "<stream>";
  const reporter = new Reporter((s) => opts.onDiagnostic?.(s), pc.createColors(false), opts.lenient === true);
  // Another agent's log (Claude Code, Codex, Gemini CLI) is refused with one diagnostic, exit code 2.
  const stage = refuseOtherAgents(makeStage(reporter), reporter);
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER, stage.skip, stage.keys);
  const reader = new JsonReader(file, Number.MAX_SAFE_INTEGER);
  const problem = (p: Problem, out: Output): void => {
    if (stage.problem) out.add(stage.problem(p));
    else {
      reporter.problem(p);
      if (!opts.lenient && p.kind === "malformed") throw new Error(`${p.file}:${p.line ?? 0}: ${p.message}`);
    }
  };
  const run = (items: InputItem[], out: Output): void => {
    for (const item of items) {
      if (isProblem(item)) {
        if (item.kind === "said") out.add(stage.said ? stage.said(item) : reporter.said(item));
        else problem(item, out);
        continue;
      }
      try {
        out.add(stage.record(item));
      } catch (err) {
        if (!(err instanceof LineError)) throw err;
        problem({ kind: "malformed", file: item.file, line: item.line, message: err.message }, out);
      }
    }
  };
  /** The records in `bytes` (lines complete so far) through the stage. */
  const consume = (bytes: Buffer, out: Output): void => {
    const items: InputItem[] = [];
    reader.read(splitter.push(bytes), items);
    run(items, out);
  };
  /** The last line, the file's end and the stage's end. */
  const end = (out: Output, unreadable: boolean): void => {
    const items: InputItem[] = [];
    reader.read(splitter.end(), items);
    reader.end(items);
    run(items, out);
    out.add(stage.fileEnd?.(file, splitter.lastLine, unreadable));
    out.add(stage.finish?.());
  };

  /** The first bytes, until there are two to tell gzip by; undefined once the input is known plain. */
  let head: Buffer | undefined = Buffer.alloc(0);
  let gz: GunzipFeed | undefined;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (gz) return gz.give(chunk, done);
      try {
        if (head !== undefined) {
          head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
          if (head.length < 2) return done();
          chunk = head;
          head = undefined;
          if (chunk[0] === 0x1f && chunk[1] === 0x8b) {
            gz = new GunzipFeed(chunk, done, file, consume, end, problem, (out) => t.push(out));
            return;
          }
        }
        const out = new Output();
        consume(chunk, out);
        done(null, out.take());
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      if (gz) return gz.end(done);
      try {
        const out = new Output();
        if (head !== undefined && head.length > 0) consume(head, out); // one byte in all
        end(out, false);
        done(null, out.take());
      } catch (err) {
        done(err as Error);
      }
    },
    destroy(err, done) {
      gz?.abandon();
      done(err);
    },
  });
  return Object.assign(t, { exitCode: () => reporter.code });
}

type Callback = (err?: Error | null, out?: Buffer) => void;

/**
 * gzip input through gunzip.ts, which pulls its compressed bytes: the Transform's chunks are
 * handed to it one at a time, and a chunk's callback, with the output its bytes gave, runs when
 * gunzip asks for the next one. So the output of a chunk comes out with it (backpressure holds)
 * and what is held is one chunk's output. After trailing garbage gunzip reads no more: the chunks
 * after it are passed over, as the CLI stops reading there.
 */
class GunzipFeed {
  /** The callback of the chunk gunzip is reading (or of the flush); it gets the output. */
  private pending: Callback | undefined;
  private out = new Output();
  /** gunzip waits here for its next chunk. */
  private waiting: ((r: IteratorResult<Buffer>) => void) | undefined;
  private trailingGarbage = false;
  /** gunzip is done (the end, or trailing garbage) or failed. */
  private stopped = false;
  /** The input ended: the flush's callback is pending, for end() to settle. */
  private ending = false;
  private abandoned = false;
  private readonly done: Promise<void>;

  constructor(
    first: Buffer,
    firstDone: Callback,
    private readonly file: string,
    consume: (bytes: Buffer, out: Output) => void,
    private readonly finish: (out: Output, unreadable: boolean) => void,
    private readonly problem: (p: Problem, out: Output) => void,
    private readonly push: (out: Buffer) => void,
  ) {
    this.pending = firstDone;
    const chunks: AsyncIterator<Buffer> = {
      next: () =>
        new Promise((resolve) => {
          this.waiting = resolve;
          this.settle(null); // the chunk before is used up
        }),
    };
    this.done = (async () => {
      for await (const piece of gunzip(chunks, first, () => (this.trailingGarbage = true))) consume(piece, this.out);
    })();
    this.done.then(
      () => {
        this.stopped = true;
        if (!this.ending) this.settle(null); // trailing garbage: the chunk it was in
      },
      (err: unknown) => {
        this.stopped = true;
        if (!this.abandoned) this.settle(this.failure(err));
      },
    );
  }

  give(chunk: Buffer, done: Callback): void {
    if (this.stopped) return done(); // after trailing garbage (or a failure): not read
    this.pending = done;
    this.resume({ done: false, value: chunk });
  }

  end(done: Callback): void {
    this.ending = true;
    this.pending = done;
    this.resume({ done: true, value: undefined });
    this.done.then(
      () => {
        try {
          if (this.trailingGarbage) this.problem({ kind: "io", file: this.file, message: "decompression OK, trailing garbage ignored", warning: true }, this.out);
          this.finish(this.out, this.trailingGarbage);
          this.settle(null);
        } catch (err) {
          this.settle(err as Error);
        }
      },
      () => {}, // the flush's callback had the failure
    );
  }

  /** The stream was destroyed: gunzip stops at its next read, silently. */
  abandon(): void {
    this.abandoned = true;
    this.pending = undefined;
    this.resume({ done: true, value: undefined });
  }

  private resume(r: IteratorResult<Buffer>): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.(r);
  }

  /** Hands the output so far to the pending callback; on a failure the output first, then `err`. */
  private settle(err: Error | null): void {
    const cb = this.pending;
    this.pending = undefined;
    if (cb === undefined) return;
    const out = this.out.take();
    this.out = new Output();
    if (err === null) return cb(null, out);
    if (out !== undefined) this.push(out);
    cb(err);
  }

  /** A gzip failure as the CLI reports it (`cannot read: corrupt gzip data (…)`), also to onDiagnostic; other errors as they are. */
  private failure(err: unknown): Error {
    if (!isZlibError(err)) return err as Error;
    const message = `cannot read: ${describeIoError(err)}`;
    this.problem({ kind: "io", file: this.file, message }, this.out);
    return new Error(`${this.file}: ${message}`);
  }
}

function isZlibError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && code.startsWith("Z_");
}

/**
 * What a chunk of input gave, as bytes: text as UTF-8, and a line the stage keeps as its own bytes
 * (filter's) as those bytes, never decoded, so invalid UTF-8 comes out as it came in, as the CLI
 * writes it (decoding it would write U+FFFD instead).
 */
class Output {
  private readonly parts: Buffer[] = [];
  private text = "";

  add(out: string | Buffer | Iterable<string> | undefined): void {
    if (out === undefined) return;
    if (typeof out === "string") this.text += out;
    else if (Buffer.isBuffer(out)) {
      this.flushText();
      this.parts.push(out);
    } else for (const piece of out) this.text += piece;
  }

  private flushText(): void {
    if (this.text === "") return;
    this.parts.push(Buffer.from(this.text));
    this.text = "";
  }

  /** The bytes, or undefined for none. */
  take(): Buffer | undefined {
    this.flushText();
    if (this.parts.length === 0) return undefined;
    // A copy even of one part: a kept line is a view of the caller's chunk.
    return Buffer.concat(this.parts);
  }
}
