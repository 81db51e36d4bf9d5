import { Transform } from "node:stream";
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
export function toTransform(stage: Stage, reporter: Reporter, lenient: boolean): Transform {
  let stopped = false;
  return new Transform({
    writableObjectMode: true,
    writableHighWaterMark: 1, // one batch waiting at most (see run-stage.ts)
    readableObjectMode: false,
    transform(batch: InputBatch, _enc, done) {
      if (stopped) {
        batch.release?.();
        return done();
      }
      let out = "";
      let parts: Buffer[] | undefined;
      try {
        for (const item of batch.items) {
          if (isProblem(item)) {
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
          else {
            parts ??= [];
            if (out !== "") parts.push(Buffer.from(out));
            out = "";
            parts.push(text);
          }
        }
        if (batch.fileEnd && !stopped && stage.fileEnd) {
          const text = stage.fileEnd(batch.file, batch.lastLine);
          if (text !== undefined) out += text;
        }
      } catch (err) {
        return done(err as Error);
      }
      if (parts !== undefined) {
        if (out !== "") parts.push(Buffer.from(out));
        this.push(Buffer.concat(parts));
      } else if (out !== "") this.push(out);
      // The raw lines are copied out: their read buffer can be read into again.
      batch.release?.();
      done();
    },
    flush(done) {
      if (!stopped && stage.finish) {
        try {
          const text = stage.finish();
          if (text !== undefined && text !== "") this.push(text);
        } catch (err) {
          return done(err as Error);
        }
      }
      done();
    },
  });
}
