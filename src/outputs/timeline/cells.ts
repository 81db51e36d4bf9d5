import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";
import type { CallTiming } from "../../model/time.js";
import type { IsoTime } from "../shared/iso-time.js";
import type { TimelineCell } from "./columns.js";

/**
 * The cells of one row, indexed like ALL_TIMELINE_COLUMNS: every fact from the run model. A call's
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
    statusCell(call),
    call.exitStatus,
    call.responseId,
    run.file,
    call.startLine,
    call.endLine,
    isoOf(end?.at?.ms),
    end?.durationMs,
    timeSource(timing),
    call.parentId,
  ];
}

/**
 * The `status` cell: the agent's word for the outcome, as written (Call.arm); for an agent that
 * writes none (Claude Code's calls that ran), the model's status (`ok`, `failed`); empty for a
 * completion without an outcome (no-result); `incomplete` for a call its run left open.
 */
export function statusCell(call: Call): string | undefined {
  const status = call.status;
  if (status === "open") return "incomplete";
  return call.arm ?? (status === "no-result" ? undefined : status);
}

/**
 * Where the row's times (started_at, completed_at, duration_ms) come from (model/time.ts
 * TimeSource): `call`, the call's own clock; `event`, the times stamped on the lines that started
 * and completed it; `call/event` (or `event/call`) when its start and its end come from different
 * clocks (then there is no duration); `event/batch` when its end was stamped as its whole batch
 * ended (Gemini CLI: the duration is the batch's, not the call's own); empty when the log gives the
 * call no time at all.
 */
export function timeSource(timing: CallTiming): string | undefined {
  const start = timing.start?.from;
  const end = timing.end?.from;
  if (start === undefined) return end;
  return end === undefined || end === start ? start : `${start}/${end}`;
}
