import type { Reporter } from "../../diagnostics.js";
import { FIELDS_READ } from "../../dialects/cursor/action.js";
import { SessionTracker, type Session } from "../../dialects/cursor/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls } from "../../input/raw-skip.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { incompleteMessage, saidText } from "./incomplete.js";
import { RunCollector, type RunRecord } from "./run-record.js";
import { thinkingTimes } from "./thinking-times.js";

export interface RunStageOptions {
  /** A run without a result is not an error (it is still exported, marked as such). */
  allowIncomplete: boolean;
  /** The stage reads tool arguments and results in full (else long strings other than those read may be shortened). */
  content: boolean;
  /** Keep the agent's messages in each RunRecord. */
  messages: boolean;
  /**
   * The times this output can hold (the OTLP exports: see otlp/spans.ts); any other is taken as
   * absent, with a warning at its line, once per run. Default: every finite time.
   */
  times?: { accept: (ms: number) => boolean; range: string };
}

/** Members of a call that the trace exports read beyond what action.ts reads (kept whole when long). */
const TRACE_FIELDS = new Set([...FIELDS_READ, "shellId", "agentId", "model", "durationMs", "isBackground", "status"]);

/**
 * A stage that hands each run (session) to `emit` when it ends (its result, the next run, the end
 * of its file) and writes what `emit` returns. Memory: the current run's RunRecord only. A run
 * without result is reported (exit status 4) unless allowIncomplete; a result with is_error makes
 * the exit status 1, as with `timeline`.
 */
export function runStage(opts: RunStageOptions, reporter: Reporter, emit: (run: RunRecord) => string | undefined, finish?: () => string | undefined): Stage {
  const tracker = new SessionTracker();
  let acc: RunCollector | undefined;

  function close(s: Session): string | undefined {
    if (acc === undefined || acc.session !== s) return undefined;
    const run = acc.finish();
    acc = undefined;
    return emit(run);
  }

  function ended(s: Session | undefined): string | undefined {
    if (s === undefined) return undefined;
    const out = close(s);
    if (s.result === undefined && !opts.allowIncomplete) {
      // The message quotes what the agent CLI said, if it said something.
      reporter.report({ severity: "error", file: s.file, line: s.lastLine, message: incompleteMessage(s), code: ExitCode.INCOMPLETE });
    } else if (s.result === undefined) {
      said(s);
    }
    return out;
  }

  /** The agent CLI's text lines in a run (its stderr merged into the log): one warning, as json and timeline give. */
  function said(s: Session): void {
    if (s.said !== undefined) reporter.report({ severity: "warning", file: s.file, line: s.said.line, message: saidText(s.said), code: ExitCode.OK });
  }

  const stage: Stage = {
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      let out = step.ended ? ended(step.ended) : undefined;
      if (acc === undefined) acc = new RunCollector(step.session, opts.messages, opts.times && keepTimes(opts.times, reporter, step.session.file));
      acc.observe(step, rec);
      if (step.session.result === rec) {
        if (rec.value.is_error === true) reporter.raise(ExitCode.NEGATIVE);
        said(step.session);
        const text = close(step.session);
        if (text !== undefined) out = (out ?? "") + text;
      }
      return out;
    },
    // Each line of the agent CLI's own text joins its run and is told once with it, not a warning a line.
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      return undefined;
    },
    fileEnd(file: string, lastLine: number) {
      const out = ended(tracker.endFile(lastLine));
      // Text no run took (a file of text alone, text after the last result): one warning.
      const unclaimed = tracker.unclaimed();
      if (unclaimed !== undefined) reporter.report({ severity: "warning", file, line: unclaimed.line, message: saidText(unclaimed), code: ExitCode.OK });
      return out;
    },
  };
  if (finish !== undefined) stage.finish = finish;
  // Thinking lines give their time only; without content, a tool call's long strings that nothing
  // here reads are parsed shortened.
  stage.skip = opts.content ? thinkingTimes() : shortenToolCalls(thinkingTimes(), TRACE_FIELDS);
  return stage;
}

/** A run's filter of times: what `times` refuses is absent, and said once (the first such time). */
function keepTimes(times: NonNullable<RunStageOptions["times"]>, reporter: Reporter, file: string): (ms: number, field: string, line: number) => boolean {
  let warned = false;
  return (ms, field, line) => {
    if (times.accept(ms)) return true;
    if (!warned) {
      warned = true;
      const message = `${field} ${String(ms)} is not a time ${times.range}: taken as absent, as is any other such time in this run`;
      reporter.report({ severity: "warning", file, line, message, code: ExitCode.OK });
    }
    return false;
  };
}
