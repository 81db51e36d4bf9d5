import type { JsonObject } from "../../input/record.js";
import type { FileChange, FileShown, Replacement } from "../../model/call.js";
import { lineCount } from "../cursor/file-change.js";
import { isPlainObject } from "./lines.js";

/**
 * What a successful file-writing call did, from its `tool_use_result` (AGENTS §1.3, §1.8):
 *
 * - Write: `type` `create` (op create, before `null`) or `update` (op edit, before `originalFile`);
 *   after = its `content`, the whole new file.
 * - Edit, MultiEdit: before = `originalFile` (`null`: the file did not exist, op create); after =
 *   `structuredPatch` applied to it when every hunk matches it exactly, else (no patch logged) an
 *   Edit's `oldString` → `newString` applied when exact and unambiguous (one occurrence, or all with
 *   `replaceAll`); otherwise after is not in the log (undefined), never guessed.
 * - NotebookEdit: before/after = `original_file`/`updated_file` when logged.
 *
 * diffString: the `structuredPatch` hunks as a unified diff's hunks (`@@ -a,b +c,d @@` then the
 * lines as logged); added/removed counted from them, else a create's whole content.
 */
export function fileChangeOf(tool: string, result: JsonObject, argPath: string | undefined): FileChange | undefined {
  const path = str(result.filePath) ?? str(result.notebook_path) ?? argPath;
  if (path === undefined || path === "") return undefined;
  const hunks = hunksOf(result.structuredPatch);
  let change: FileChange;
  if (tool === "Write") {
    const create = result.type === "create";
    change = { op: create ? "create" : "edit", path };
    if (create) change.before = null;
    else if (typeof result.originalFile === "string") change.before = result.originalFile;
    const after = str(result.content);
    if (after !== undefined) change.after = after;
  } else if (tool === "NotebookEdit") {
    change = { op: "edit", path };
    const before = str(result.original_file);
    const after = str(result.updated_file);
    if (before !== undefined) change.before = before;
    if (after !== undefined) change.after = after;
  } else {
    const before = result.originalFile;
    change = { op: before === null ? "create" : "edit", path };
    if (before === null || typeof before === "string") {
      change.before = before;
      const after = hunks !== undefined ? applyHunks(before ?? "", hunks) : tool === "Edit" ? replaced(before ?? "", result) : undefined;
      if (after !== undefined) change.after = after;
    }
  }
  if (hunks !== undefined && hunks.length > 0) {
    change.diffString = renderHunks(hunks);
    let added = 0;
    let removed = 0;
    for (const h of hunks) {
      for (const l of h.lines) {
        if (l.startsWith("+")) added++;
        else if (l.startsWith("-")) removed++;
      }
    }
    change.added = added;
    change.removed = removed;
  } else if (change.op === "create" && typeof change.after === "string") {
    change.added = lineCount(change.after);
  }
  return change;
}

/** A `structuredPatch` hunk as logged. */
interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** The hunks of a `structuredPatch`, when it is an array of well-formed hunks; undefined otherwise. */
function hunksOf(v: unknown): Hunk[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: Hunk[] = [];
  for (const h of v) {
    if (!isPlainObject(h) || !Array.isArray(h.lines) || !h.lines.every((l) => typeof l === "string")) return undefined;
    const n = [h.oldStart, h.oldLines, h.newStart, h.newLines];
    if (!n.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0)) return undefined;
    out.push({ oldStart: h.oldStart as number, oldLines: h.oldLines as number, newStart: h.newStart as number, newLines: h.newLines as number, lines: h.lines as string[] });
  }
  return out;
}

/** The hunks as a unified diff's hunks (no file header lines). */
function renderHunks(hunks: Hunk[]): string {
  let out = "";
  for (const h of hunks) {
    out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n`;
    for (const l of h.lines) out += l + "\n";
  }
  return out;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/**
 * `before` with the hunks applied, when every hunk matches it exactly (its context and removed
 * lines at its place, its counts those of its lines); undefined otherwise. Lines are split on
 * `\n`; a `\ No newline at end of file` entry marks the line before it as the file's last, with no
 * newline.
 */
export function applyHunks(before: string, hunks: readonly Hunk[]): string | undefined {
  const old = splitLines(before);
  const out: string[] = [];
  let at = 0; // next line of `old` not yet copied (0-based)
  let newLast = true; // the output so far ends with a newline (or is empty)
  let endsOld = false; // the old file's last line had no newline, and was reached
  for (const h of hunks) {
    // A hunk of no old lines sits after line oldStart; any other starts at line oldStart.
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    if (start < at || start > old.lines.length) return undefined;
    for (; at < start; at++) out.push(old.lines[at]!);
    let oldCount = 0;
    let newCount = 0;
    let last: "old" | "new" | "both" | undefined;
    for (const l of h.lines) {
      const mark = l[0];
      const text = l.slice(1);
      if (mark === " " || mark === "-") {
        if (old.lines[at] !== text) return undefined;
        at++;
        oldCount++;
        if (mark === " ") {
          out.push(text);
          newCount++;
        }
        last = mark === " " ? "both" : "old";
      } else if (mark === "+") {
        out.push(text);
        newCount++;
        last = "new";
      } else if (mark === "\\") {
        // The line before has no newline: in the old file (it must be its last), the new, or both.
        if (last === undefined) return undefined;
        if (last !== "new") {
          if (at !== old.lines.length || old.endsWithNewline) return undefined;
          endsOld = true;
        }
        if (last !== "old") newLast = false;
      } else return undefined;
    }
    if (oldCount !== h.oldLines || newCount !== h.newLines) return undefined;
  }
  for (; at < old.lines.length; at++) out.push(old.lines[at]!);
  if (old.lines.length > 0 && !old.endsWithNewline && !endsOld && at === old.lines.length) {
    // The old file's last line, without newline, was copied untouched: it stays so.
    return out.join("\n");
  }
  return out.length === 0 ? "" : out.join("\n") + (newLast ? "\n" : "");
}

/** A file's lines without their `\n`, and whether its last line ends with one. */
function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text === "") return { lines: [], endsWithNewline: true };
  const lines = text.split("\n");
  const endsWithNewline = lines[lines.length - 1] === "";
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

/**
 * An Edit's `oldString` → `newString` on `before`, when exact and unambiguous; else undefined.
 * With `replaceAll`, the result is made only when it stays within REPLACED_MAX times the strings
 * the log holds for it (`originalFile` and `newString`): a short `oldString` found everywhere in a
 * long file, each replaced by a long `newString`, would otherwise make from a line of a few hundred
 * KB a string of gigabytes (past V8's longest: "Invalid string length"), where the log says nothing
 * of that after (the patch, which would, is not logged).
 */
function replaced(before: string, r: JsonObject): string | undefined {
  const from = r.oldString;
  const to = r.newString;
  if (typeof from !== "string" || typeof to !== "string" || from === "") return undefined;
  const first = before.indexOf(from);
  if (first < 0) return undefined;
  if (r.replaceAll === true) {
    let count = 0;
    for (let at = first; at >= 0; at = before.indexOf(from, at + from.length)) count++;
    if (before.length + count * (to.length - from.length) > REPLACED_MAX * (before.length + to.length)) return undefined;
    return before.split(from).join(to);
  }
  if (before.indexOf(from, first + 1) >= 0) return undefined;
  return before.slice(0, first) + to + before.slice(first + from.length);
}

/** A replace_all's result is made up to this many times the length of `originalFile` and `newString` together (the house's bound on what a line may cost: a small multiple of it). */
const REPLACED_MAX = 4;

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * What a successful Read showed of its file (model/call.ts FileShown), whole only where certain:
 *
 * - its `tool_use_result.file` (AGENTS §1.3; trap 8: its `content` is the file, not the numbered
 *   text): whole when `startLine` is 1 and `numLines` equals `totalLines`; else the lines shown;
 * - else (2.1.4–2.1.15 write no `tool_use_result`, nor does a subagent's user line) its
 *   `tool_result` text, when the Read's start is in the log and asked for no part (no `offset`, no `limit`), and every line
 *   of it is numbered, 1 to N in order, in one of Claude Code's two ways (`     1→` padded to six,
 *   or `1\t`), the known malware reminder alone after them (`<system-reminder>` … `</system-reminder>`);
 *   and the text is not one Read may have cut: fewer than READ_LINES_MAX lines (a Read with no
 *   `limit` shows at most that many), each shorter than READ_LINE_MAX characters (a longer line is
 *   cut). The file is the numbered lines' text joined by newlines (a file ending with a newline
 *   shows a last numbered line that is empty).
 */
export function shownOf(result: JsonObject | undefined, text: string | undefined, args: JsonObject | undefined, argPath: string | undefined): FileShown | undefined {
  const file = result !== undefined && isPlainObject(result.file) ? result.file : undefined;
  const path = (file !== undefined ? str(file.filePath) : undefined) ?? argPath;
  if (path === undefined || path === "") return undefined;
  if (file !== undefined && typeof file.content === "string") {
    const { startLine, numLines, totalLines } = file;
    if (startLine === 1 && typeof numLines === "number" && numLines === totalLines) return { path, content: file.content };
    if (typeof startLine === "number" && typeof numLines === "number" && typeof totalLines === "number") {
      return { path, why: `showed lines ${startLine}–${startLine + numLines - 1} of ${totalLines}` };
    }
    return { path, why: "gave numbers (startLine, numLines, totalLines) that do not say it showed the whole file" };
  }
  if (args === undefined) return { path, why: "was answered with no start in the log (whether it asked for part of the file is not known)" };
  if (args.offset !== undefined || args.limit !== undefined) return { path, why: "asked for part of the file (offset, limit)" };
  if (text === undefined || text === "") return { path, why: "showed no numbered lines" };
  const content = numberedText(text);
  return typeof content === "string" ? { path, content } : { path, why: content.why };
}

/** A Read with no `limit` shows at most this many lines (the Read tool's default). */
const READ_LINES_MAX = 2000;
/** A Read cuts a line of more than this many characters. */
const READ_LINE_MAX = 2000;
/** The reminder Claude Code adds after a Read's numbered lines, as seen in captures. */
const MALWARE_REMINDER = /\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware\.[^<]*<\/system-reminder>\n?$/;

/** The file a Read's numbered text shows, or why it is not certainly the whole file. */
function numberedText(text: string): string | { why: string } {
  const body = text.replace(MALWARE_REMINDER, "");
  const lines = body.split("\n");
  if (lines.length >= READ_LINES_MAX) return { why: `showed ${lines.length} lines: a Read shows at most ${READ_LINES_MAX} unless asked for more, so they may be cut` };
  const arrow = lines[0]!.startsWith(" ");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const n = String(i + 1);
    const prefix = arrow ? n.padStart(6, " ") + "→" : n + "\t";
    if (!l.startsWith(prefix)) return { why: `showed a line that is not numbered ${i + 1} (line ${i + 1} of its text): not only the file's lines` };
    const t = l.slice(prefix.length);
    if (t.length >= READ_LINE_MAX) return { why: `showed a line of ${t.length} characters (line ${i + 1}): a Read cuts longer lines, so it may be cut` };
    out.push(t);
  }
  return out.join("\n");
}

/**
 * An Edit's strings as its input gives them (told at its start: model/call.ts Replacement), when
 * `file_path`, `old_string` and `new_string` are strings; `replace_all` true replaces every
 * occurrence (missing: false, as Claude Code's default).
 */
export function replacementOf(input: JsonObject, argPath: string | undefined): Replacement | undefined {
  const from = input.old_string;
  const to = input.new_string;
  if (argPath === undefined || typeof from !== "string" || typeof to !== "string") return undefined;
  return { path: argPath, oldString: from, newString: to, replaceAll: input.replace_all === true };
}
