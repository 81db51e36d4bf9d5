import { closeSync, openSync, writeSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import pc from "picocolors";
import { Reporter } from "../diagnostics.js";
import type { ExitCode } from "../exit-codes.js";
import { runStage } from "../stream/run-stage.js";
import { describeWriteError } from "../stream/write-error.js";
import { buildFileStage, type StageSpec } from "./stages.js";

/** Given to each worker once: what to build and how to read. Plain data (it crosses threads). */
export interface JobData {
  spec: StageSpec;
  /** --lenient: a malformed line is reported and skipped instead of ending the run. */
  lenient: boolean;
  maxLineBytes: number;
  /** Colour in diagnostics (stderr). */
  stderrColor: boolean;
}

/**
 * A run of consecutive files (one, or several small ones: the cost of a task is paid once for
 * them): the place of the first in the run, their names, where their output goes.
 */
export interface JobTask {
  index: number;
  files: readonly string[];
  outPath: string;
}

/** What a task's files gave, sent back to the coordinator (their output is in the task's outPath). */
export interface JobResult {
  code: ExitCode;
  /** The files' diagnostics, in order, as the sequential run writes them. */
  stderr: string;
  /** See buildFileStage. */
  tally: number;
  /** A malformed line ended the reading (no --lenient): a sequential run reads no further file either. */
  halted: boolean;
  /** The output could not be written (its temporary file), or the run failed: the message. */
  failure?: string;
}

/**
 * Runs the command's stage on the task's files, in this thread, into `task.outPath`: one stage for
 * them all, as the sequential run does (every stage with --jobs keeps nothing across files but
 * what buildFileStage and finishFiles account for). Written with
 * synchronous writes to a descriptor we own: a failed write (a full temporary folder) is kept and
 * reported as such, never mistaken for a reader that went away.
 */
export async function runJobFile(data: JobData, task: JobTask, stopped?: () => boolean): Promise<JobResult> {
  let stderr = "";
  let halted = false;
  const reporter = new Reporter((s) => (stderr += s), pc.createColors(data.stderrColor), data.lenient);
  const problem = reporter.problem.bind(reporter);
  reporter.problem = (p) => {
    if (p.kind === "malformed" && !data.lenient) halted = true;
    problem(p);
  };
  let fd: number;
  try {
    fd = openSync(task.outPath, "w");
  } catch (err) {
    return { code: reporter.code, stderr, tally: 0, halted, failure: `cannot create temporary file ${task.outPath}: ${describeWriteError(err)}` };
  }
  let built: Awaited<ReturnType<typeof buildFileStage>>;
  try {
    built = await buildFileStage(data.spec, task.index, reporter);
  } catch (err) {
    closeSync(fd);
    return { code: reporter.code, stderr, tally: 0, halted, failure: err instanceof Error ? err.message : String(err) };
  }
  const { stage, tally, sink } = built;
  let writeError: unknown;
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      try {
        for (let off = 0; off < chunk.length; ) off += writeSync(fd, chunk, off, chunk.length - off);
        cb();
      } catch (err) {
        writeError ??= err;
        cb(err as Error);
      }
    },
  });
  let failure: string | undefined;
  try {
    await runStage(
      {
        files: task.files,
        stdin: Readable.from([]),
        maxLineBytes: data.maxLineBytes,
        stopAtMalformed: !data.lenient,
        ...(stopped !== undefined && { stop: stopped }),
      },
      stage,
      sink?.out ?? out,
      reporter,
    );
  } catch (err) {
    if (writeError === undefined) failure = err instanceof Error ? err.message : String(err);
  } finally {
    if (sink !== undefined) {
      // What the stage sent, or the first failure to send it.
      try {
        await sink.end();
      } catch (err) {
        failure ??= err instanceof Error ? err.message : String(err);
      }
    }
    try {
      closeSync(fd);
    } catch (err) {
      writeError ??= err;
    }
  }
  if (writeError !== undefined) failure = `cannot write temporary file ${task.outPath}: ${describeWriteError(writeError)}`;
  return { code: reporter.code, stderr, tally: tally(), halted, ...(failure !== undefined && { failure }) };
}
