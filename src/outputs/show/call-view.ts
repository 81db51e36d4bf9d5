import { lineCount } from "../../dialects/cursor/file-change.js";
import type { Call } from "../../model/call.js";
import { shownPath } from "../shared/run-path.js";
import { loggedHunks, unifiedHunks } from "../shared/unified-diff.js";
import { readable, type Shown } from "./html/content.js";

export type Mark = "ok" | "failed" | "refused" | "background" | "running" | "ended" | "subagent";

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
  exitStatus?: number;
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
  /** With content (show --format html): the call's id as logged (its anchor is made of it). */
  id?: string;
  /** With content: its arguments as logged, readable, cut to a budget. */
  args?: Shown;
  /** With content: its outcome as logged, readable, cut to a budget (undefined: the log holds none). */
  output?: Shown;
}

/** What show --format html shows of a call besides its line: arguments and outcome, at most these many characters each. */
export interface ContentMax {
  args: number;
  output: number;
  /** The arguments its start logged (a completion that logged none has them cut: Call.argsCut). */
  startArgs?: Shown | undefined;
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

/** The call's label, and its target with paths shown relative to the run's folder `cwd`. */
export function labelOf(call: Call, cwd: string | undefined): Pick<CallView, "label" | "target" | "path"> {
  let path = false as boolean;
  const target = call.targetWith((p) => {
    path = true;
    return shownPath(p, cwd);
  });
  return path ? { label: call.label, target, path } : { label: call.label, target };
}

/** What a background task is, by its call's kind: `Background shell`, `Background subagent task`. */
export function backgroundLabel(call: Call): string {
  return call.kind === "shell" ? "Background shell" : call.kind === "task" ? "Background subagent task" : "Background task";
}

/** A completed call's line: its mark from its status bin (a background task's own), its facts from the model. */
export function viewOf(call: Call, opts: { lines: number; diff: boolean; cwd?: string | undefined; content?: ContentMax | undefined }): CallView {
  const ok = call.status === "ok";
  const view: CallView = {
    mark: ok ? "ok" : call.status === "refused" ? "refused" : "failed",
    ...labelOf(call, opts.cwd),
    tail: [],
  };
  const ms = call.timing.durationMs;
  // A duration to its batch's end (Gemini CLI's: model/time.ts batch) is the batch's so far: said so.
  if (ms !== undefined) view.duration = call.timing.end?.from === "batch" ? `${formatDuration(ms)} (to the batch's end)` : formatDuration(ms);
  if (call.exitStatus !== undefined) view.exitStatus = call.exitStatus;
  if (!ok) {
    const note = call.note();
    if (note !== "") view.reason = note;
    view.tail = tailOf(call, opts.lines);
  }
  const change = call.fileChange();
  if (change !== undefined) {
    const added = change.added ?? (change.op === "delete" ? 0 : change.after ? lineCount(change.after) : undefined);
    const removed = change.removed ?? (change.op === "create" ? 0 : undefined);
    if (added !== undefined || removed !== undefined) view.lines = `+${added ?? "?"} −${removed ?? "?"}`;
    if (opts.diff) {
      if (change.before !== undefined && change.after !== undefined) view.diff = unifiedHunks(change.before ?? "", change.after ?? "").lines;
      else if (change.diffString !== undefined) view.diff = loggedHunks(change.diffString).lines;
      else view.diff = [];
    }
  } else if (opts.diff && call.writesFiles && ok) {
    view.diff = [];
  }
  const task = call.backgroundTask;
  if (task !== undefined) {
    view.mark = "background";
    view.note = call.kind === "shell" ? `in background, shell ${task}` : "in background";
  }
  const content = opts.content;
  if (content !== undefined) {
    view.id = call.id;
    const args = call.argsCut === true && content.startArgs !== undefined ? content.startArgs : call.args !== undefined ? readable(call.args, content.args) : undefined;
    if (args !== undefined) view.args = args;
    if (call.outcome !== undefined) view.output = readable(call.outcome, content.output);
  }
  return view;
}

/** The last `n` non-empty lines of what a call that did not succeed said (Call.failureText). */
function tailOf(call: Call, n: number): string[] {
  if (n <= 0) return [];
  const said = call.failureText();
  if (said === undefined) return [];
  const lines = said.text.replace(/\s+$/, "").split(/\r?\n/);
  // A one-line reason is already in the call's line.
  if (lines.length === 1 && said.inNote === true) return [];
  return lines.slice(-n);
}
