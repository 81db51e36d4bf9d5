import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { readInputs, type InputOptions } from "../input/read-inputs.js";
import type { Stage } from "./stage.js";
import { toTransform, type DirectOut } from "./to-transform.js";

/**
 * inputs → parsed batches → stage → out, with backpressure. Resolves when everything is written;
 * an EPIPE on `out` (a reader like `head` went away) resolves quietly and stops reading. `outFd`:
 * the descriptor `out` writes to synchronously, for the lines a stage keeps as bytes (DirectOut).
 */
export async function runStage(input: InputOptions, stage: Stage, out: Writable, reporter: Reporter, outFd?: number): Promise<void> {
  const lenient = !input.stopAtMalformed;
  try {
    const direct: DirectOut | undefined = outFd === undefined ? undefined : { fd: outFd, out };
    const opts: InputOptions = stage.skip ? { ...input, skip: stage.skip } : { ...input };
    if (stage.keys) opts.keys = true;
    // --follow's news about a file (truncated, replaced, gone) is a warning; the status stays.
    opts.onWarning ??= (file, message) => reporter.report({ severity: "warning", file, message, code: ExitCode.OK });
    // One batch of read-ahead, not object mode's default 16: a batch is a read chunk's worth of
    // lines (1 MiB from a file) and its parsed events, all held while a slow reader blocks stdout.
    await pipeline(Readable.from(readInputs(opts), { objectMode: true, highWaterMark: 1 }), toTransform(stage, reporter, lenient, direct), out, {
      end: false,
    });
  } catch (err) {
    if (isBrokenPipe(err)) return;
    throw err;
  }
}

export function isBrokenPipe(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || code === "ERR_STREAM_PREMATURE_CLOSE";
}
