import type { Call } from "../../model/call.js";
import type { CallStatus } from "../../model/status.js";
import type { ShellExit, StatsCall, StatsCategory } from "./types.js";

/** Targets and commands are kept to this many characters: a list entry never holds a whole file. */
export const TARGET_MAX = 200;

/** The model's bin of a completed call (model/status.ts) under stats' name for it. */
export function categoryOf(status: CallStatus): StatsCategory | "open" {
  return status === "no-result" ? "noResult" : status;
}

/**
 * A list entry for a completed call. `max`: targets and notes are cut to that many characters
 * (TARGET_MAX for the text and markdown reports; Infinity, whole, for json).
 */
export function completedEntry(call: Call, max = TARGET_MAX): StatsCall {
  return {
    line: call.endLine ?? 0,
    kind: call.kind,
    action: call.label,
    target: shorten(call.target, max),
    // The agent's own word for the outcome, printed as written ("" without one).
    status: call.arm ?? "",
    note: max === Infinity ? call.note(Infinity) : call.note(),
    durationMs: call.timing.durationMs,
    bin: call.status,
  };
}

/** A list entry for a call still open when its run ended (its target as its start kept it). */
export function openEntry(call: Call, max = TARGET_MAX): StatsCall {
  return {
    line: call.startLine ?? 0,
    kind: call.kind,
    action: call.label,
    target: shorten(call.target, max),
    status: "incomplete",
    note: "",
    durationMs: undefined,
    bin: "open",
  };
}

/**
 * A shell call that exited non-zero or by a signal, or whose command ran and failed; else
 * undefined. (A shell call that could not run, or errored, has no exit: it is a failed call.)
 */
export function shellExitOf(call: Call, max = TARGET_MAX): ShellExit | undefined {
  if (call.kind !== "shell") return undefined;
  const code = call.exitStatus;
  // As written: cursor-agent's arm for a command that ran and failed, with or without its exit code.
  const ranAndFailed = call.arm === "failure";
  if (!ranAndFailed && (code === undefined || code === 0)) return undefined;
  return { line: call.endLine ?? 0, command: shorten(call.target, max), exitStatus: code, signal: call.signal };
}

/**
 * Which file list a successful call adds a path to, and the path: the call's target, as the
 * agent asked for it (a read's, or a write's whose change the log tells: Call.fileChange decides
 * created, edited or deleted); undefined for none.
 */
export function fileOpOf(call: Call): { op: "read" | "created" | "edited" | "deleted"; path: string } | undefined {
  if (call.status !== "ok" || !call.targetIsPath) return undefined;
  if (call.kind === "read") return { op: "read", path: call.target };
  const change = call.fileChange();
  if (change === undefined) return undefined;
  return { op: change.op === "create" ? "created" : change.op === "delete" ? "deleted" : "edited", path: call.target };
}

/** At most `max` characters, the last one `…` when cut. */
export function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  return s.slice(0, end) + "…";
}
