import type { Reporter } from "../../diagnostics.js";
import { FIELDS_READ } from "../../events/action.js";
import { SessionTracker, type Session } from "../../events/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls } from "../../input/raw-skip.js";
import type { JsonRecord } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { incompleteMessage } from "./incomplete.js";
import { RunCollector, type RunRecord } from "./run-record.js";
import { thinkingTimes } from "./thinking-times.js";

export interface RunStageOptions {
  /** A run without a result is not an error (it is still exported, marked as such). */
  allowIncomplete: boolean;
  /** The stage reads tool arguments and results in full (else long strings other than those read may be shortened). */
  content: boolean;
  /** Keep the agent's messages in each RunRecord. */
  messages: boolean;
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
      reporter.report({ severity: "error", file: s.file, line: s.lastLine, message: incompleteMessage(s), code: ExitCode.INCOMPLETE });
    }
    return out;
  }

  const stage: Stage = {
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      let out = step.ended ? ended(step.ended) : undefined;
      if (acc === undefined) acc = new RunCollector(step.session, opts.messages);
      acc.observe(step, rec);
      if (step.session.result === rec) {
        if (rec.value.is_error === true) reporter.raise(ExitCode.NEGATIVE);
        const text = close(step.session);
        if (text !== undefined) out = (out ?? "") + text;
      }
      return out;
    },
    fileEnd(_file: string, lastLine: number) {
      return ended(tracker.endFile(lastLine));
    },
  };
  if (finish !== undefined) stage.finish = finish;
  // Thinking lines give their time only; without content, a tool call's long strings that nothing
  // here reads are parsed shortened.
  stage.skip = opts.content ? thinkingTimes() : shortenToolCalls(thinkingTimes(), TRACE_FIELDS);
  return stage;
}
