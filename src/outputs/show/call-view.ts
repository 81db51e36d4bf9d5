import { actionLabel, actionTarget, statusNote, statusTone } from "../../dialects/cursor/action.js";
import { fileChangeOf, lineCount, writesFiles } from "../../dialects/cursor/file-change.js";
import type { CompletedCall } from "../../dialects/cursor/sessions.js";
import type { ToolCall } from "../../dialects/cursor/tool-call.js";
import { isPlainObject } from "../../dialects/cursor/types.js";
import { shownPath } from "../shared/run-path.js";
import { loggedHunks, unifiedHunks } from "../shared/unified-diff.js";

export type Mark = "ok" | "failed" | "refused" | "background" | "running" | "ended";

/** What show prints of one tool call, whatever the format. Strings are raw log text: renderers escape. */
export interface CallView {
  mark: Mark;
  label: string;
  /** Paths in it relative to the run's folder where they lie inside it (shownPath). */
  target: string;
  /** The target ends with a path: a renderer that must shorten it cuts it in its middle, keeping the file name. */
  path?: boolean;
  /** `1.2s`, when the log gives both ends. */
  duration?: string;
  exitCode?: number;
  /** `+3 −1` for a file write. */
  lines?: string;
  /** Why it did not succeed: `failed, exit 1`, `rejected: …`, `error: …`. */
  reason?: string;
  /** The last lines of its stderr (or output, or error text), for a call that did not succeed. */
  tail: string[];
  /** With --diff: the edit's hunks. */
  diff?: string[];
  /** Extra words: `shell 3` for a background shell, `in background`. */
  note?: string;
}

/** ms as `120ms`, `1.2s`, `2m 3s`, `1h 2m`. */
export function formatDuration(ms: number): string {
  if (ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** A call's duration in ms: completedAtMs - startedAtMs, else the events' timestamp_ms. */
export function callDurationMs(done: CompletedCall): number | undefined {
  const c = done.call;
  if (c.startedAtMs !== undefined && c.completedAtMs !== undefined && c.completedAtMs >= c.startedAtMs) return c.completedAtMs - c.startedAtMs;
  const end = done.rec.value.timestamp_ms;
  const start = done.started?.timestampMs;
  if (typeof end === "number" && typeof start === "number" && end >= start) return end - start;
  return undefined;
}

/** The call ran on in the background: a shell with isBackground, a task whose result says so. */
export function backgroundId(done: CompletedCall): string | undefined {
  const c = done.call;
  if (c.status !== "success") return undefined;
  const o = c.outcome ?? {};
  const tc = done.rec.value.tool_call;
  const flagged = o.isBackground === true || (isPlainObject(tc) && tc.isBackground === true) || c.args?.isBackground === true;
  if (!flagged) return undefined;
  if (typeof o.shellId === "string" || typeof o.shellId === "number") return String(o.shellId);
  if (typeof o.agentId === "string") return o.agentId;
  return undefined;
}

/** The call's label, and its target with paths shown relative to the run's folder `cwd`. */
export function labelOf(call: ToolCall, cwd: string | undefined): Pick<CallView, "label" | "target" | "path"> {
  let path = false as boolean;
  const target = actionTarget(call, (p) => {
    path = true;
    return shownPath(p, cwd);
  });
  return path ? { label: actionLabel(call), target, path } : { label: actionLabel(call), target };
}

export function viewOf(done: CompletedCall, opts: { lines: number; diff: boolean; cwd?: string | undefined }): CallView {
  const call = done.call;
  const tone = statusTone(call);
  const view: CallView = {
    mark: call.status === undefined ? "failed" : tone,
    ...labelOf(call, opts.cwd),
    tail: [],
  };
  const ms = callDurationMs(done);
  if (ms !== undefined) view.duration = formatDuration(ms);
  const o = call.outcome ?? {};
  if (call.kind === "shell" && typeof o.exitCode === "number") view.exitCode = o.exitCode;
  if (tone !== "ok" || call.status === undefined) {
    const note = statusNote(call);
    if (note !== "") view.reason = note;
    view.tail = tailOf(call, opts.lines);
  }
  const change = fileChangeOf(call);
  if (change !== undefined) {
    const added = change.added ?? (change.op === "delete" ? 0 : change.after ? lineCount(change.after) : undefined);
    const removed = change.removed ?? (change.op === "create" ? 0 : undefined);
    if (added !== undefined || removed !== undefined) view.lines = `+${added ?? "?"} −${removed ?? "?"}`;
    if (opts.diff) {
      if (change.before !== undefined && change.after !== undefined) view.diff = unifiedHunks(change.before ?? "", change.after ?? "").lines;
      else if (change.diffString !== undefined) view.diff = loggedHunks(change.diffString).lines;
      else view.diff = [];
    }
  } else if (opts.diff && writesFiles(call) && call.status === "success") {
    view.diff = [];
  }
  const bg = backgroundId(done);
  if (bg !== undefined) {
    view.mark = "background";
    view.note = call.kind === "shell" ? `in background, shell ${bg}` : "in background";
  }
  return view;
}

/** The last `n` non-empty lines of what a failed call said: stderr, else its output, else the error text. */
function tailOf(call: ToolCall, n: number): string[] {
  if (n <= 0) return [];
  const o = call.outcome ?? {};
  const text =
    nonBlank(o.stderr) ?? nonBlank(o.interleavedOutput) ?? nonBlank(o.stdout) ?? nonBlank(o.errorMessage) ?? nonBlank(o.error) ?? nonBlank(o.modelVisibleError) ?? nonBlank(o.reason);
  if (text === undefined) return [];
  const lines = text.replace(/\s+$/, "").split(/\r?\n/);
  // A one-line reason is already in the call's line.
  if (lines.length === 1 && call.status !== "failure" && (o.stderr === undefined || o.stderr === "")) return [];
  return lines.slice(-n);
}

function nonBlank(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}
