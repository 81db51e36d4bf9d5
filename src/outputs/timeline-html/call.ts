import { actionLabel, actionTarget } from "../../dialects/cursor/action.js";
import type { ToolCall } from "../../dialects/cursor/tool-call.js";
import type { JsonRecord } from "../../input/record.js";
import type { OpenCall } from "../../dialects/cursor/sessions.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import { shownPath } from "../shared/run-path.js";
import { capText } from "./cap.js";

/** The first this many characters of a target are kept (a heredoc command can be megabytes). */
export const TARGET_MAX = 500;
/** call_ids are short in every capture; a hostile one is cut here. */
export const ID_MAX = 200;

/** What the page keeps of one call before it is placed on an axis (times are absolute ms). */
export interface CallRecord {
  seq: number;
  id: string;
  kind: string;
  action: string;
  /** Paths in it relative to the session's cwd where they lie inside it (shownPath). */
  target: string;
  /** The target ends with a path: the table cuts it in its middle, keeping the file name. */
  path: boolean;
  /** Result arm; "" without one; "incomplete" when the session ended first. */
  status: string;
  exit: number | null;
  startedMs: number | undefined;
  completedMs: number | undefined;
  /** As the csv `duration_ms`. */
  durationMs: number | undefined;
  line: number;
  /** A background shell: when its command ended (its task_notification), and how long from the call's start. */
  backgroundEndMs?: number;
  backgroundMs?: number;
}

/**
 * The few fields drawn for one call, by the rules of the csv columns (timeline/cells.ts):
 * `startedAtMs`/`completedAtMs` first, the events' `timestamp_ms` otherwise, a duration only from
 * two values of one clock. Display text has control and bidi characters escaped and is capped.
 */
export function callRecordOf(seq: number, callId: string, call: ToolCall, start: OpenCall | undefined, end: JsonRecord | undefined, cwd?: string): CallRecord {
  const startTs = start?.timestampMs;
  const endTs = end === undefined ? undefined : timestampOf(end);
  let durationMs: number | undefined;
  if (end !== undefined) {
    if (call.startedAtMs !== undefined && call.completedAtMs !== undefined) durationMs = call.completedAtMs - call.startedAtMs;
    else if (startTs !== undefined && endTs !== undefined) durationMs = endTs - startTs;
  }
  const exitCode = end !== undefined && call.kind === "shell" ? call.outcome?.exitCode : undefined;
  let path = false as boolean;
  const target = actionTarget(call, (p) => {
    path = true;
    return shownPath(p, cwd);
  });
  return {
    seq,
    id: capText(callId, ID_MAX),
    kind: escapeControls(capText(call.kind, 100)),
    action: escapeControls(capText(actionLabel(call), 200)),
    target: escapeControlsKeepLines(capText(target, TARGET_MAX)),
    path,
    status: end === undefined ? "incomplete" : escapeControls(capText(call.status ?? "", 100)),
    exit: typeof exitCode === "number" && Number.isFinite(exitCode) ? exitCode : null,
    startedMs: call.startedAtMs ?? startTs,
    completedMs: end === undefined ? undefined : (call.completedAtMs ?? endTs),
    durationMs,
    line: (start ?? end)?.line ?? 0,
  };
}

function timestampOf(rec: JsonRecord): number | undefined {
  const ts = rec.value.timestamp_ms;
  return typeof ts === "number" && Number.isFinite(ts) ? ts : undefined;
}
