import { actionLabel, actionTarget, statusNote, statusTone } from "../../dialects/cursor/action.js";
import type { CompletedCall, OpenCall } from "../../dialects/cursor/sessions.js";
import type { ToolCall } from "../../dialects/cursor/tool-call.js";
import type { JsonRecord } from "../../input/record.js";
import type { ShellExit, StatsCall, StatsCategory } from "./types.js";

/** Targets and commands are kept to this many characters: a list entry never holds a whole file. */
export const TARGET_MAX = 200;

/** The bin of a completed call: success → ok, no result arm → noResult, refusals → refused, else failed. */
export function categoryOf(call: ToolCall): StatsCategory {
  if (call.status === undefined) return "noResult";
  const tone = statusTone(call);
  return tone === "ok" ? "ok" : tone === "refused" ? "refused" : "failed";
}

/**
 * How long a call took, from the log only: `completedAtMs − startedAtMs` when both are logged,
 * else the difference of the started and completed events' `timestamp_ms`, else undefined.
 */
export function durationOf(done: CompletedCall): number | undefined {
  const c = done.call;
  if (c.startedAtMs !== undefined && c.completedAtMs !== undefined) return c.completedAtMs - c.startedAtMs;
  const a = done.started?.timestampMs;
  const b = timestampOf(done.rec);
  return a !== undefined && b !== undefined ? b - a : undefined;
}

/**
 * A list entry for a completed call. `max`: targets and notes are cut to that many characters
 * (TARGET_MAX for the text and markdown reports; Infinity, whole, for json).
 */
export function completedEntry(done: CompletedCall, durationMs: number | undefined, max = TARGET_MAX): StatsCall {
  const call = done.call;
  return {
    line: done.rec.line,
    kind: call.kind,
    action: actionLabel(call),
    target: shorten(actionTarget(call), max),
    status: call.status ?? "",
    note: max === Infinity ? statusNote(call, Infinity) : statusNote(call),
    durationMs,
  };
}

/** A list entry for a call still open when its session ended (its target as its start kept it: OpenCall). */
export function openEntry(open: OpenCall, max = TARGET_MAX): StatsCall {
  const call = open;
  return {
    line: open.line,
    kind: call.kind,
    action: actionLabel(call),
    target: shorten(actionTarget(call), max),
    status: "incomplete",
    note: "",
    durationMs: undefined,
  };
}

/** A shell call that exited non-zero (its `failure` arm, or any arm with a non-zero exitCode); else undefined. */
export function shellExitOf(done: CompletedCall, max = TARGET_MAX): ShellExit | undefined {
  const call = done.call;
  if (call.kind !== "shell") return undefined;
  const o = call.outcome ?? {};
  const code = typeof o.exitCode === "number" && Number.isFinite(o.exitCode) ? o.exitCode : undefined;
  if (call.status !== "failure" && (code === undefined || code === 0)) return undefined;
  const signal = typeof o.signal === "string" && o.signal !== "" ? o.signal : undefined;
  return { line: done.rec.line, command: shorten(actionTarget(call), max), exitCode: code, signal };
}

/** Which file list a successful call adds its path to, if any. */
export function fileOpOf(call: ToolCall): "read" | "created" | "edited" | "deleted" | undefined {
  if (call.status !== "success") return undefined;
  switch (call.kind) {
    case "read":
      return "read";
    case "write":
      return "created";
    case "edit":
      // actionLabel knows a create: no beforeFullFileContent, a diff from /dev/null, "Wrote contents to".
      return actionLabel(call) === "Created new file" ? "created" : "edited";
    case "delete":
      return "deleted";
    default:
      return undefined;
  }
}

/** `args.path` (the started event's when the completion lacks args), else the result's `path`; "" if neither. */
export function pathOf(call: ToolCall): string {
  const a = call.args?.path;
  if (typeof a === "string" && a !== "") return a;
  const o = call.outcome?.path;
  return typeof o === "string" ? o : "";
}

/** At most `max` characters, the last one `…` when cut. */
export function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  return s.slice(0, end) + "…";
}

function timestampOf(rec: JsonRecord): number | undefined {
  const ts = rec.value.timestamp_ms;
  return typeof ts === "number" && Number.isFinite(ts) ? ts : undefined;
}
