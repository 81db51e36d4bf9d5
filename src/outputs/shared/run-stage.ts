import type { Reporter } from "../../diagnostics.js";
import { SUBAGENT_FIELDS_READ } from "../../dialects/cursor/call.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import { dialectOf, forcedDialect } from "../../dialects/index.js";
import { drive, type RunSink } from "../../driver/driver.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls } from "../../input/raw-skip.js";
import type { Run } from "../../model/run.js";
import type { Stage } from "../../stream/stage.js";
import { RunCollector, type RunRecord } from "./run-record.js";
import { thinkingTimes } from "../../dialects/cursor/thinking-times.js";

export interface RunStageOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  /** A run without a result is not an error (it is still exported, marked as such). */
  allowIncomplete: boolean;
  /** The stage reads tool arguments and results in full (else long strings other than those read may be shortened). */
  content: boolean;
  /** Keep the agent's messages in each RunRecord. */
  messages: boolean;
  /**
   * The times this output can hold (the OTLP exports: see otlp/spans.ts); any other is taken as
   * absent by the run model (ReaderOptions.acceptTime), with a warning at its line, once per run.
   * Default: every finite time.
   */
  times?: { accept: (ms: number) => boolean; range: string };
}

/** Members of a call the trace exports read beyond what labels and targets read (kept whole when long). */
const TRACE_FIELDS = new Set([...cursorDialect.fieldsRead, ...SUBAGENT_FIELDS_READ]);

/**
 * A stage that hands each run to `emit` when it is over and writes what `emit` returns. A run is
 * over when it ends, but for a dialect whose runs go on after their result (Dialect.linesAfterResult,
 * Claude Code's: the end of a background task, a subagent's calls): such a run that ended with its
 * result is held until the next run of the input begins or its file ends, and its record takes them in.
 * A run cut off is over when it ends. Memory: the RunRecord of the run being read, and of the one
 * held. The driver reports a run without result (exit status 4) unless allowIncomplete; a failed
 * run makes the exit status 1, with no message, as with `timeline`.
 */
export function runStage(opts: RunStageOptions, reporter: Reporter, emit: (run: RunRecord) => string | undefined, finish?: () => string | undefined): Stage {
  let acc: RunCollector | undefined;
  /** The run that ended with its result, until the next run begins or its file ends. */
  let held: RunCollector | undefined;
  const flush = (): string | undefined => {
    const h = held;
    held = undefined;
    return h === undefined ? undefined : emit(h.finish());
  };
  /** The record a line of `run` goes to: the run being read, or the one held after its result. */
  const of = (run: Run): RunCollector | undefined => (acc?.run === run ? acc : held?.run === run ? held : undefined);
  const sink: RunSink = {
    runStart(run: Run) {
      const out = flush();
      acc = new RunCollector(run, opts.messages, opts.content);
      return out;
    },
    callStarted: (call, run) => void of(run)?.started(call),
    callDone: (call, run) => void of(run)?.done(call),
    backgroundEnd: (end, run) => void of(run)?.backgroundEnd(end),
    runEnd(run: Run) {
      if (run.outcome === "failed") reporter.raise(ExitCode.NEGATIVE);
      const a = acc;
      acc = undefined;
      if (a === undefined || a.run !== run) return undefined;
      // A dialect whose runs end with their result (cursor-agent's) is written at once (live use).
      if (run.result === undefined || dialectOf(run.agent)?.linesAfterResult !== true) return join(flush(), emit(a.finish()));
      const out = flush();
      held = a;
      return out;
    },
    fileEnd: () => flush(),
    finish: () => join(flush(), finish?.()),
  };
  if (opts.messages) sink.line = (rec, step) => void of(step.run)?.line(rec, step);
  return drive(sink, reporter, {
    dialect: forcedDialect(opts.agent),
    reader: opts.times === undefined ? { numberUnstarted: true } : { numberUnstarted: true, acceptTime: keepTimes(opts.times, reporter) },
    cutOff: opts.allowIncomplete ? "quiet" : "error",
    failed: false,
    noRun: "quiet",
    warnings: true,
    // Thinking lines give their time only; without content, a tool call's long strings that nothing
    // here reads are parsed shortened.
    skip: (d) => (d !== cursorDialect ? d.skipUnread({ thinking: true, user: true, text: true }) : opts.content ? thinkingTimes() : shortenToolCalls(thinkingTimes(), TRACE_FIELDS)),
  });
}

/** `a` then `b`, either absent. */
function join(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

/** The filter of times: what `times` refuses is absent, and said once a run (the first such time). */
function keepTimes(times: NonNullable<RunStageOptions["times"]>, reporter: Reporter): (ms: number, field: string, line: number, run: Run) => boolean {
  let warned: Run | undefined;
  return (ms, field, line, run) => {
    if (times.accept(ms)) return true;
    if (warned !== run) {
      warned = run;
      const message = `${field} ${String(ms)} is not a time ${times.range}: taken as absent, as is any other such time in this run`;
      reporter.report({ severity: "warning", file: run.file, line, message, code: ExitCode.OK });
    }
    return false;
  };
}
