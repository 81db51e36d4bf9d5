import type { FileChange } from "../../model/call.js";
import type { ToolCall } from "./tool-call.js";

/** What a file-writing call did to one file: the run model's type (FORMAT.md §5.2 for where cursor-agent logs it). */
export type { FileChange };

/**
 * The members fileChangeOf reads whole (a reader that shortens long strings must keep them);
 * `message` is only tested for how it starts.
 */
export const FILE_FIELDS: ReadonlySet<string> = new Set(["path", "prevContent", "fileText", "diffString", "beforeFullFileContent", "afterFullFileContent", "streamContent"]);

/** The kinds of call that write files. */
export function writesFiles(call: ToolCall): boolean {
  return call.kind === "edit" || call.kind === "write" || call.kind === "delete";
}

/**
 * The change a successful file-writing call made, or undefined for any other call (and for a
 * write call that did not succeed: it changed nothing, or nothing the log can tell).
 */
export function fileChangeOf(call: ToolCall): FileChange | undefined {
  if (call.status !== "success" || !writesFiles(call)) return undefined;
  const a = call.args ?? {};
  const o = call.outcome ?? {};
  const path = str(o.path) ?? str(a.path);
  if (path === undefined || path === "") return undefined;
  if (call.kind === "delete") {
    const change: FileChange = { op: "delete", path, after: null };
    const prev = str(o.prevContent);
    if (prev !== undefined) {
      change.before = prev;
      change.removed = lineCount(prev);
    }
    return change;
  }
  if (call.kind === "write") {
    const text = str(a.fileText) ?? str(o.fileText);
    const change: FileChange = { op: "create", path, before: null };
    if (text !== undefined) change.after = text;
    const created = num(o.linesCreated);
    if (created !== undefined) change.added = created;
    else if (text !== undefined) change.added = lineCount(text);
    return change;
  }
  const diffString = str(o.diffString);
  const message = str(o.message);
  const before = str(o.beforeFullFileContent);
  let after = str(o.afterFullFileContent);
  const create =
    (message !== undefined && message.startsWith("Wrote contents to")) ||
    (diffString !== undefined && /^--- \/dev\/null(\r?\n|$)/.test(diffString)) ||
    (before === undefined && after !== undefined);
  // On a create, streamContent is the whole new file (on an edit it may be a snippet).
  if (after === undefined && create) after = str(a.streamContent);
  const change: FileChange = { op: create ? "create" : "edit", path };
  if (create) change.before = null;
  else if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  if (diffString !== undefined) change.diffString = diffString;
  const added = num(o.linesAdded);
  const removed = num(o.linesRemoved);
  if (added !== undefined) change.added = added;
  if (removed !== undefined) change.removed = removed;
  return change;
}

/** Lines in a file's text: a last line without a newline counts. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}
