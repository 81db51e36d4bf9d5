import type { Call } from "../../model/call.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import { shownPath } from "../shared/run-path.js";
import { statusCell } from "../timeline/cells.js";
import { capText } from "./cap.js";
import { statusClass } from "./status.js";
import type { HtmlStatusClass } from "./types.js";

/** The first this many characters of a target are kept (a heredoc command can be megabytes). */
export const TARGET_MAX = 500;
/** Call ids are short in every capture; a hostile one is cut here. */
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
  /** As the csv `status`: the agent's word for the outcome, else the model's (ok, failed); "" without one; "incomplete" when the session ended first. */
  status: string;
  /** Its colour: the model's status bin (status.ts). */
  cls: HtmlStatusClass;
  exit: number | null;
  startedMs: number | undefined;
  completedMs: number | undefined;
  /** As the csv `duration_ms`. */
  durationMs: number | undefined;
  line: number;
  /** A background task: when it ended, and how long from the call's start (BackgroundEnd). */
  backgroundEndMs?: number;
  backgroundMs?: number;
  /** A subagent's call: the id of the task call that started the subagent (Call.parentId). */
  parentId?: string;
}

/**
 * The few facts drawn for one call, all from the run model, as the csv columns print them
 * (timeline/cells.ts): the call's times and duration by model/time.ts's rule. Display text has
 * control and bidi characters escaped and is capped.
 */
export function callRecordOf(call: Call, cwd?: string): CallRecord {
  let path = false as boolean;
  const target = call.targetWith((p) => {
    path = true;
    return shownPath(p, cwd);
  });
  const { timing } = call;
  const record: CallRecord = {
    seq: call.seq,
    id: capText(call.id, ID_MAX),
    kind: escapeControls(capText(call.kind, 100)),
    action: escapeControls(capText(call.label, 200)),
    target: escapeControlsKeepLines(capText(target, TARGET_MAX)),
    path,
    status: escapeControls(capText(statusCell(call) ?? "", 100)),
    cls: statusClass(call),
    exit: call.exitStatus ?? null,
    startedMs: timing.start?.ms,
    completedMs: timing.end?.ms,
    durationMs: timing.durationMs,
    line: call.startLine ?? call.endLine ?? 0,
  };
  if (call.parentId !== undefined) record.parentId = capText(call.parentId, ID_MAX);
  return record;
}
