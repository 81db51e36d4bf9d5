import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";
import type { IsoTime } from "../shared/iso-time.js";
import type { TimelineCell } from "./columns.js";

/**
 * The cells of one row, indexed like TIMELINE_COLUMNS: every fact from the run model. A call's
 * times and duration are model/time.ts's rule (a duration from one clock, never negative), a
 * background task's end and its duration BackgroundEnd's. Unknown is empty, never guessed.
 * `seq`: the row's number (the call's place in start order). `end`: the background task's end,
 * when its call's row waited for it.
 */
export function timelineCells(call: Call, run: Run, seq: number, isoOf: IsoTime, end?: BackgroundEnd): TimelineCell[] {
  const { timing } = call;
  const target = call.target;
  return [
    run.sessionId,
    call.id,
    seq,
    call.kind,
    call.tool,
    call.label,
    target === "" ? undefined : target,
    isoOf(timing.start?.ms),
    isoOf(timing.end?.ms),
    timing.durationMs,
    // The agent's word for the outcome, as written (empty without one); a call its run left open: incomplete.
    call.status === "open" ? "incomplete" : call.arm,
    call.exitCode,
    call.modelCallId,
    run.file,
    call.startLine,
    call.endLine,
    isoOf(end?.at?.ms),
    end?.durationMs,
  ];
}
