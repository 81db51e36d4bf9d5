import { actionLabel, actionTarget } from "../../dialects/cursor/action.js";
import type { BackgroundEnd } from "../../dialects/cursor/background.js";
import type { ToolCall } from "../../dialects/cursor/tool-call.js";
import type { JsonRecord } from "../../input/record.js";
import type { OpenCall } from "../../dialects/cursor/sessions.js";
import type { IsoTime } from "../shared/iso-time.js";
import type { TimelineCell } from "./columns.js";

/** What one timeline row is made of: a call and the events that started and completed it. */
export interface TimelineCall {
  sessionId: string | undefined;
  callId: string;
  seq: number;
  /** The call, merged with its start when both were seen (SessionTracker does the merge). */
  call: ToolCall;
  /** The file of the session. */
  file: string;
  /** What was kept of the started event; undefined for a completion without a start. */
  start: OpenCall | undefined;
  /** The completed event; undefined for a call still open when its session ended. */
  end: JsonRecord | undefined;
  /** A background shell's end (its task_notification), when it came before its session ended. */
  background?: BackgroundEnd;
}

/**
 * The cells of one row, indexed like TIMELINE_COLUMNS. Times and durations come only from the
 * log: `startedAtMs`/`completedAtMs` siblings first, the events' `timestamp_ms` otherwise, and a
 * duration only from two values of the same clock. Unknown is empty, never guessed.
 */
export function timelineCells(c: TimelineCall, isoOf: IsoTime): TimelineCell[] {
  const { call, start, end } = c;
  const startTs = start?.timestampMs;
  const endTs = end === undefined ? undefined : timestampOf(end);
  const startedMs = call.startedAtMs ?? startTs;
  const completedMs = end === undefined ? undefined : (call.completedAtMs ?? endTs);
  let duration: number | undefined;
  if (end !== undefined) {
    if (call.startedAtMs !== undefined && call.completedAtMs !== undefined) duration = call.completedAtMs - call.startedAtMs;
    else if (startTs !== undefined && endTs !== undefined) duration = endTs - startTs;
  }
  const exitCode = end !== undefined && call.kind === "shell" ? call.outcome?.exitCode : undefined;
  const target = actionTarget(call);
  return [
    c.sessionId,
    c.callId,
    c.seq,
    call.kind,
    call.tool,
    actionLabel(call),
    target === "" ? undefined : target,
    isoOf(startedMs),
    isoOf(completedMs),
    duration,
    end === undefined ? "incomplete" : call.status,
    typeof exitCode === "number" && Number.isFinite(exitCode) ? exitCode : undefined,
    start?.modelCallId ?? modelCallIdOf(end),
    c.file,
    start?.line,
    end?.line,
    isoOf(c.background?.endMs),
    c.background?.durationMs,
  ];
}

function timestampOf(rec: JsonRecord): number | undefined {
  const ts = rec.value.timestamp_ms;
  return typeof ts === "number" && Number.isFinite(ts) ? ts : undefined;
}

function modelCallIdOf(rec: JsonRecord | undefined): string | undefined {
  const id = rec?.value.model_call_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}
