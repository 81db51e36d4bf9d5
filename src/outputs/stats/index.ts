import type { Reporter } from "../../diagnostics.js";
import { SessionTracker, type Session } from "../../dialects/cursor/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import { reportFileEnd } from "../shared/incomplete.js";
import type { Stage } from "../../stream/stage.js";
import { collectStats, finishStats, startStats, type StatsAcc, type StatsLimits } from "./collect.js";
import { StatsTotalAcc } from "./total.js";
import type { StatsRenderer } from "./types.js";

export interface StatsOptions {
  limits: StatsLimits;
  render: StatsRenderer;
  /** `-e`: exit 1 for a result with is_error:true, 4 for a session cut off. Otherwise the report is the answer (exit 0). */
  exitStatus: boolean;
  /** Keep strings whole (json): the prompt, targets, commands and notes are not cut. */
  whole?: boolean;
}

/**
 * `cursorlog stats`: a summary per session, written as soon as the session ends (its result, the
 * next init, the end of its file), so a live pipe shows each block without waiting for the input
 * to end; the total comes last. Memory: the current session's counters and capped lists.
 */
export function toStats(opts: StatsOptions, reporter: Reporter): Stage {
  const tracker = new SessionTracker();
  const total = new StatsTotalAcc();
  let acc: StatsAcc | undefined;
  let accIndex = 0;

  function end(s: Session): string {
    const report = finishStats(acc ?? startStats(opts.limits, opts.whole === true), s);
    acc = undefined;
    total.add(report);
    if (opts.exitStatus && report.outcome === "error") reporter.raise(ExitCode.NEGATIVE);
    if (opts.exitStatus && report.outcome === "cut_off") reporter.raise(ExitCode.INCOMPLETE);
    return opts.render.session(report);
  }

  return {
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      let out = "";
      // A session that ended with its result was written then; one cut off by an init is written now.
      if (step.ended !== undefined && step.ended.result === undefined) out += end(step.ended);
      if (acc === undefined || accIndex !== step.session.index) {
        acc = startStats(opts.limits, opts.whole === true);
        accIndex = step.session.index;
      }
      collectStats(acc, step, rec);
      if (step.session.result === rec) out += end(step.session);
      return out === "" ? undefined : out;
    },
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      return undefined;
    },
    fileEnd(file: string, _lastLine: number, unreadable?: boolean) {
      const s = tracker.endFile();
      const out = s === undefined || s.result !== undefined ? undefined : end(s);
      reportFileEnd(reporter, file, s, tracker.unclaimed(), unreadable);
      return out;
    },
    finish() {
      return opts.render.total(total.report());
    },
  };
}
