import { writevSync } from "node:fs";
import { Transform, type Writable } from "node:stream";
import type { Reporter } from "../diagnostics.js";
import type { InputBatch } from "../input/read-inputs.js";
import { isProblem, type Problem } from "../input/record.js";
import { LineError } from "../input/line-error.js";
import { isTooDeep, TOO_DEEP } from "../input/too-deep.js";
import type { Stage } from "./stage.js";

/**
 * The one adapter from a Stage to a Node Transform: batches of parsed events in (object mode),
 * text out. Problems in the input go to the reporter, in order with the events around them.
 * A line the stage cannot process (too deep for its recursion, a LineError) is such a problem too.
 * After a fatal problem (a malformed line without --lenient) nothing more is processed.
 */
export function toTransform(stage: Stage, reporter: Reporter, lenient: boolean, direct?: DirectOut): Transform {
  let stopped = false;
  const writev = direct?.writev ?? writevSync;
  /**
   * The kept lines `parts` (views of the read buffers) written to the output's descriptor with one
   * writev, without copying them, when nothing pushed before is still on its way there; false
   * when that cannot be (the caller then pushes a copy). Written in part (a descriptor that takes
   * no more for now), the rest is pushed as a copy. A failure is the output's error.
   */
  const writeDirect = (parts: Buffer[]): boolean => {
    const d = direct!;
    if (t.readableLength !== 0 || d.out.writableLength !== 0 || d.out.destroyed) return false;
    let written: number;
    try {
      written = writev(d.fd, parts);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EAGAIN") return false;
      // The output's own handlers decide (a closed pipe ends the run quietly, a full disk is status 2).
      stopped = true;
      d.out.destroy(err as Error);
      return true;
    }
    let k = 0;
    while (k < parts.length && written >= parts[k]!.length) written -= parts[k++]!.length;
    if (k < parts.length) t.push(Buffer.concat([parts[k]!.subarray(written), ...parts.slice(k + 1)]));
    return true;
  };
  let flushed = false;
  const t = new Transform({
    writableObjectMode: true,
    writableHighWaterMark: 1, // one batch waiting at most (see run-stage.ts)
    readableObjectMode: false,
    transform(batch: InputBatch, _enc, done) {
      if (stopped) {
        batch.release?.();
        return done();
      }
      let at = 0;
      let fileEnded = false;
      /** The event whose Stage.ready promise was waited for: it goes to `record` now. */
      let readied: unknown;
      // Runs the batch from item `at`; text that comes as pieces is written (with pauses) before
      // the rest of the batch, which then runs on from where it was.
      const run = (): void => {
        let out = "";
        let parts: Buffer[] | undefined;
        const emit = (): void => {
          if (parts !== undefined) {
            if (out !== "") parts.push(Buffer.from(out));
            if (direct === undefined || !writeDirect(parts)) this.push(Buffer.concat(parts));
          } else if (out !== "") this.push(out);
          out = "";
          parts = undefined;
        };
        const later = (pieces: Iterable<string>): void => {
          emit();
          pushPieces(this, pieces).then(run, done);
        };
        try {
          for (; at < batch.items.length; at++) {
            const item = batch.items[at]!;
            if (isProblem(item)) {
              if (item.kind === "said") {
                const text = stage.said ? stage.said(item) : reporter.said(item);
                if (text !== undefined) out += text;
                continue;
              }
              if (stage.problem) {
                const text = stage.problem(item);
                if (text !== undefined) out += text;
                continue;
              }
              reporter.problem(item);
              if (item.kind === "malformed" && !lenient) {
                stopped = true;
                break;
              }
              continue;
            }
            if (stage.ready !== undefined && readied !== item) {
              const wait = stage.ready(item);
              if (wait !== undefined) {
                // The stage waits (its schemas load): what came before is written, the batch goes on from this event after.
                readied = item;
                emit();
                wait.then(run, done);
                return;
              }
            }
            let text: ReturnType<Stage["record"]>;
            try {
              text = stage.record(item);
            } catch (err) {
              if (!isTooDeep(err) && !(err instanceof LineError)) throw err;
              const message = err instanceof LineError ? err.message : TOO_DEEP;
              const p: Problem = { kind: "malformed", file: item.file, line: item.line, message };
              if (stage.problem) text = stage.problem(p);
              else {
                reporter.problem(p);
                if (!lenient) {
                  stopped = true;
                  break;
                }
                continue;
              }
            }
            if (text === undefined) continue;
            if (typeof text === "string") out += text;
            else if (Buffer.isBuffer(text)) {
              parts ??= [];
              if (out !== "") parts.push(Buffer.from(out));
              out = "";
              // A line that follows the one before in the same read buffer widens it: runs of
              // kept lines are one piece.
              const last = parts.length > 0 ? parts[parts.length - 1]! : undefined;
              if (last !== undefined && last.buffer === text.buffer && last.byteOffset + last.length === text.byteOffset) {
                parts[parts.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + text.length);
              } else parts.push(text);
            } else {
              at++;
              return later(text);
            }
          }
          if (batch.fileEnd && !stopped && stage.fileEnd && !fileEnded) {
            fileEnded = true;
            const text = stage.fileEnd(batch.file, batch.lastLine, batch.items.some((it) => isProblem(it) && it.kind === "io"));
            if (text !== undefined && typeof text !== "string") return later(text);
            if (text !== undefined) out += text;
          }
        } catch (err) {
          return done(err as Error);
        }
        emit();
        // The raw lines are written or copied out: their read buffer can be read into again.
        batch.release?.();
        done();
      };
      run();
    },
    flush(done) {
      flushed = true;
      if (stopped || !stage.finish) return done();
      let text: ReturnType<NonNullable<Stage["finish"]>>;
      try {
        text = stage.finish();
      } catch (err) {
        return done(err as Error);
      }
      if (text === undefined || typeof text === "string") {
        if (text !== undefined && text !== "") this.push(text);
        return done();
      }
      pushPieces(this, text).then(() => done(), done);
    },
  });
  // A stage that writes between events (show's live line) writes after all it returned so far.
  stage.attach?.((text) => {
    if (!t.destroyed && !flushed && !stopped) t.push(text);
  });
  return t;
}

/**
 * The output is a descriptor written synchronously (the process's stdout on a file or a pipe): the
 * raw lines a stage keeps (filter's, as bytes) go there with writev straight from the read
 * buffers, without a copy, whenever nothing pushed before is still on its way through `out`.
 */
export interface DirectOut {
  fd: number;
  /** The stream that writes to `fd`: what it holds is written first, and a failure is its error. */
  out: Writable;
  /** fs.writevSync, or a stand-in (tests). */
  writev?: (fd: number, buffers: Buffer[]) => number;
}

/** Work done between two turns of the event loop while a stage's pieces are written. */
const PAUSE_EVERY_MS = 25;

/**
 * Pushes a stage's final pieces, letting the event loop run at least every PAUSE_EVERY_MS of work
 * (signals are handled in its poll phase, which a synchronous run of work never reaches) and
 * while the reader has not taken what was pushed (a piece at a time is held, not the page).
 */
async function pushPieces(t: Transform, pieces: Iterable<string>): Promise<void> {
  let since = performance.now();
  for (const piece of pieces) {
    if (t.destroyed) return;
    const room = piece === "" || t.push(piece);
    if (!room) {
      while (!t.destroyed && t.readableLength >= t.readableHighWaterMark) await new Promise((r) => setTimeout(r, 1));
      since = performance.now();
    } else if (performance.now() - since >= PAUSE_EVERY_MS) {
      await new Promise((r) => setImmediate(r));
      since = performance.now();
    }
  }
}
