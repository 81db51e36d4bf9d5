import { colorsOf, type ColorsOption } from "../shared/colors.js";
import type { Reporter } from "../../diagnostics.js";
import { actionLabel, statusNote } from "../../dialects/cursor/action.js";
import { fileChangeOf, writesFiles } from "../../dialects/cursor/file-change.js";
import { SessionTracker, type Session } from "../../dialects/cursor/sessions.js";
import { isInit } from "../../dialects/cursor/types.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls, skipTypes } from "../../input/raw-skip.js";
import { FIELDS_READ } from "../../dialects/cursor/action.js";
import { FILE_FIELDS } from "../../dialects/cursor/file-change.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { reportFileEnd, saidText } from "../shared/incomplete.js";
import { FileHistory, type Section } from "./file-history.js";
import { gitPath, relativePath } from "./git-path.js";
import { formatStat, type StatRow } from "./stat.js";

const FIELDS_KEPT: ReadonlySet<string> = new Set([...FIELDS_READ, ...FILE_FIELDS]);

export interface DiffOptions {
  /** `patch`: unified diff; `stat`: like `git diff --stat`; `names`: the paths changed. */
  mode: "patch" | "stat" | "names";
  /** picocolors' functions, or true for ANSI colours; none by default. */
  colors?: ColorsOption;
  /** Escape control characters in file contents (output to a terminal). */
  escape: boolean;
  /** Columns for `--stat`. */
  width: number;
}

interface RunChanges {
  cwd?: string;
  files: Map<string, FileHistory>;
  /** The logged paths left out of the patch (warned of once). */
  leftOut: Set<string>;
}

/**
 * `cursorlog diff`: what each run (session) changed, as a patch `git apply` takes against the tree
 * the run started from. Printed when the session ends: a file's diff goes from its first
 * before-content to its last after-content. Failed and refused writes are listed on stderr.
 */
export function toDiff(opts: DiffOptions, reporter: Reporter): Stage {
  const tracker = new SessionTracker();
  const c = colorsOf(opts.colors);
  let run: RunChanges = { files: new Map(), leftOut: new Set() };

  function emit(session: Session | undefined): string | undefined {
    if (session === undefined) return undefined;
    // The agent CLI's text in the run: one warning, its first line and how many more (as json says it).
    if (session.said !== undefined) reporter.report({ severity: "warning", file: session.file, line: session.said.line, message: saidText(session.said), code: ExitCode.OK });
    const changes = run;
    run = { files: new Map(), leftOut: new Set() };
    if (changes.files.size === 0) return undefined;
    if (opts.mode === "names") {
      let out = "";
      for (const f of changes.files.values()) if (f.sections().length > 0) out += gitPath("", f.path) + "\n";
      return out;
    }
    if (opts.mode === "stat") {
      const rows: StatRow[] = [];
      for (const f of changes.files.values()) {
        const sections = f.sections();
        if (sections.length === 0) continue;
        rows.push({ name: gitPath("", f.path), added: sum(sections, "added"), removed: sum(sections, "removed") });
      }
      // No colour sequence around nothing (a file with no deletions has no red part).
      const paint = (f: (s: string) => string) => (s: string) => (s === "" ? "" : f(s));
      return formatStat(rows, opts.width, paint(c.green), paint(c.red));
    }
    let out = "";
    for (const f of changes.files.values()) {
      for (const s of f.sections()) {
        if (s.partial) {
          reporter.report({
            severity: "warning",
            file: session.file,
            line: s.line,
            message:
              s.hunks.lines.length > 0
                ? `${f.path}: the log lacks the whole file on one side of this edit: shown as its logged diff, which may not apply`
                : `${f.path}: the log holds no content of this edit (+${s.hunks.added} −${s.hunks.removed}): left out of the patch (--stat and --name-only count it)`,
            code: ExitCode.OK,
          });
        }
        if (!s.partial || s.hunks.lines.length > 0 || s.kind !== "edit") out += section(f.path, s);
      }
    }
    return out;
  }

  function section(path: string, s: Section): string {
    const a = gitPath("a/", path);
    const b = gitPath("b/", path);
    let head = `diff --git ${a} ${b}\n`;
    if (s.kind === "create") head += "new file mode 100644\n";
    if (s.kind === "delete") head += "deleted file mode 100644\n";
    if (s.hunks.lines.length > 0) head += `--- ${s.kind === "create" ? "/dev/null" : a}\n+++ ${s.kind === "delete" ? "/dev/null" : b}\n`;
    // Each header line coloured on its own, as git does: a pager or `grep` never sees a line without its reset.
    let out = head.slice(0, -1).split("\n").map((l) => c.bold(l) + "\n").join("");
    for (const line of s.hunks.lines) {
      const shown = opts.escape ? escapeControlsKeepLines(line) : line;
      const first = line.charCodeAt(0);
      if (first === 0x40 /* @ */) out += c.cyan(shown) + "\n";
      else if (first === 0x2b /* + */) out += c.green(shown) + "\n";
      else if (first === 0x2d /* - */) out += c.red(shown) + "\n";
      else out += shown + "\n";
    }
    return out;
  }

  return {
    // Text and thinking are not needed. A long tool call line is parsed with the long strings it
    // never reads cut short (a read file's content, a command's output), never the contents of a
    // write (FILE_FIELDS) nor what its warnings name (FIELDS_READ).
    skip: shortenToolCalls(skipTypes(["thinking", "assistant", "user"]), FIELDS_KEPT),
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      const out = step.ended ? emit(step.ended) : undefined;
      if (isInit(rec.value) && typeof rec.value.cwd === "string") run.cwd = rec.value.cwd;
      const done = step.completed;
      if (done && writesFiles(done.call)) {
        const change = fileChangeOf(done.call);
        if (change === undefined) {
          const note = statusNote(done.call);
          reporter.report({
            severity: "warning",
            file: rec.file,
            line: rec.line,
            message: `left out: ${actionLabel(done.call)} ${escapeControls(pathOf(done.call.args?.path ?? done.call.outcome?.path))}${note ? ` (${note})` : ""}`,
            code: ExitCode.OK,
          });
        } else {
          const place = relativePath(change.path, run.cwd);
          if (place.leftOut !== undefined) {
            // One warning per path and run: a run that edits it a thousand times is told once.
            if (!run.leftOut.has(change.path)) {
              run.leftOut.add(change.path);
              reporter.report({ severity: "warning", file: rec.file, line: rec.line, message: `${change.path}: ${place.leftOut}: left out of the patch`, code: ExitCode.OK });
            }
            return out;
          }
          let f = run.files.get(place.path);
          if (f === undefined) run.files.set(place.path, (f = new FileHistory(place.path, rec.line)));
          f.add(change, rec.line);
        }
      }
      return out;
    },
    // A line of the agent CLI's own text joins its run, told once when the run ends (not a warning a line).
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      return undefined;
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const last = tracker.endFile(lastLine);
      const out = emit(last);
      // A file with no event at all: "no session in the input", status 4, as every command says,
      // with what the agent CLI said; its text after the last result, a warning.
      reportFileEnd(reporter, file, last, tracker.unclaimed(), unreadable);
      return out;
    },
  };
}

function sum(sections: Section[], key: "added" | "removed"): number {
  let n = 0;
  for (const s of sections) n += s.hunks[key];
  return n;
}

function pathOf(v: unknown): string {
  return typeof v === "string" && v !== "" ? v : "(path not logged)";
}
