import type { Reporter } from "../../diagnostics.js";
import { SUBAGENT_FIELDS_READ } from "../../dialects/cursor/call.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import { forcedDialect } from "../../dialects/index.js";
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
 * A stage that hands each run to `emit` when it ends (its result, the next run, the end of its
 * file) and writes what `emit` returns. Memory: the current run's RunRecord only. The driver
 * reports a run without result (exit status 4) unless allowIncomplete; a failed run makes the exit
 * status 1, with no message, as with `timeline`.
 */
export function runStage(opts: RunStageOptions, reporter: Reporter, emit: (run: RunRecord) => string | undefined, finish?: () => string | undefined): Stage {
  let acc: RunCollector | undefined;
  const sink: RunSink = {
    runStart(run: Run) {
      acc = new RunCollector(run, opts.messages, opts.content);
      return undefined;
    },
    callStarted: (call) => void acc?.started(call),
    callDone: (call) => void acc?.done(call),
    backgroundEnd: (end) => void acc?.backgroundEnd(end),
    runEnd(run: Run) {
      if (run.outcome === "failed") reporter.raise(ExitCode.NEGATIVE);
      const a = acc;
      acc = undefined;
      return a === undefined || a.run !== run ? undefined : emit(a.finish());
    },
  };
  if (opts.messages) sink.line = (rec, step) => void acc?.line(rec, step);
  if (finish !== undefined) sink.finish = finish;
  return drive(sink, reporter, {
    dialect: forcedDialect(opts.agent),
    reader: opts.times === undefined ? { numberUnstarted: true } : { numberUnstarted: true, acceptTime: keepTimes(opts.times, reporter) },
    cutOff: opts.allowIncomplete ? "quiet" : "error",
    failed: false,
    noRun: "quiet",
    // Thinking lines give their time only; without content, a tool call's long strings that nothing
    // here reads are parsed shortened.
    skip: (d) => (d !== cursorDialect ? d.skipUnread({ thinking: true, user: true, text: true }) : opts.content ? thinkingTimes() : shortenToolCalls(thinkingTimes(), TRACE_FIELDS)),
  });
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
