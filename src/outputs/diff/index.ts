import { colorsOf, type ColorsOption } from "../shared/colors.js";
import type { Reporter } from "../../diagnostics.js";
import type { Dialect } from "../../dialects/dialect.js";
import { dialectOf, forcedDialect } from "../../dialects/index.js";
import { drive } from "../../driver/driver.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls, type RawSkip } from "../../input/raw-skip.js";
import type { JsonRecord } from "../../input/record.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { FileHistory, type Section } from "./file-history.js";
import { ReadSeeds } from "./read-seeds.js";
import { gitPath, relativePath } from "./git-path.js";
import { formatStat, type StatRow } from "./stat.js";

/**
 * Text and thinking are not needed. A long tool call line is parsed with the long strings it never
 * reads cut short (a read file's content, a command's output), never the contents of a write nor
 * what its warnings name: what the dialect's Calls read for labels, targets and file changes. A
 * dialect that cannot name what its file changes read gets its tool calls parsed whole.
 */
function skipFor(dialect: Dialect): RawSkip | undefined {
  const skip = dialect.skipUnread({});
  const files = dialect.fileFieldsRead;
  return files === undefined ? skip : shortenToolCalls(skip, new Set([...dialect.fieldsRead, ...files]));
}

export interface DiffOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
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
  /** The run they are of (undefined: none has begun). */
  run: Run | undefined;
  files: Map<string, FileHistory>;
  /** The logged paths left out of the patch (warned of once). */
  leftOut: Set<string>;
  /** What its Reads showed whole and its edits' strings, for edits the log holds no content of. */
  seeds: ReadSeeds;
}

/**
 * `cursorlog diff`: what each run (session) changed, as a patch `git apply` takes against the tree
 * the run started from. Printed when the run is over: a file's diff goes from its first
 * before-content to its last after-content (Call.fileChange). An edit whose change the log holds
 * no content of is made, where it can be, from what a Read showed whole before it (Call.fileShown)
 * and its strings (Call.replacement), by read-seeds.ts's rule; else the message says why no patch.
 * Failed and refused writes are listed on stderr. A run that ended with its result is over when the next run begins or its file ends:
 * lines after a result can still belong to it (Claude Code's: a background subagent's edits).
 */
export function toDiff(opts: DiffOptions, reporter: Reporter): Stage {
  const c = colorsOf(opts.colors);
  const fresh = (run: Run | undefined): RunChanges => ({ run, files: new Map(), leftOut: new Set(), seeds: new ReadSeeds() });
  let current = fresh(undefined);
  /** The run that ended with its result, until the next run begins or its file ends. */
  let held: RunChanges | undefined;
  /** A patch was refused (Dialect.patchRefusal): said once. */
  let refused = false;
  /** The changes a line of `run` goes to: the run being read, or the one held after its result. */
  const changesOf = (run: Run): RunChanges => (held !== undefined && held.run === run ? held : current);
  const flush = (): string | undefined => {
    const h = held;
    held = undefined;
    return h === undefined ? undefined : emit(h);
  };

  function emit(changes: RunChanges): string | undefined {
    const files = changes.files;
    const run = changes.run!;
    if (files.size === 0) return undefined;
    if (opts.mode === "names") {
      let out = "";
      for (const f of files.values()) if (f.sections().length > 0) out += gitPath("", f.path) + "\n";
      return out;
    }
    if (opts.mode === "stat") {
      const rows: StatRow[] = [];
      for (const f of files.values()) {
        const sections = f.sections();
        if (sections.length === 0) continue;
        const row: StatRow = { name: gitPath("", f.path), added: sum(sections, "added"), removed: sum(sections, "removed") };
        if (sections.some((s) => s.uncounted === true)) row.uncounted = true;
        if (sections.every((s) => s.kind === "create")) row.kind = "created";
        else if (sections.every((s) => s.kind === "delete")) row.kind = "deleted";
        rows.push(row);
      }
      // No colour sequence around nothing (a file with no deletions has no red part).
      const paint = (f: (s: string) => string) => (s: string) => (s === "" ? "" : f(s));
      return formatStat(rows, opts.width, paint(c.green), paint(c.red));
    }
    let out = "";
    for (const f of files.values()) {
      for (const s of f.sections()) {
        if (s.partial) {
          reporter.report({
            severity: "warning",
            file: run.file,
            line: s.line,
            message:
              s.hunks.lines.length > 0
                ? `${f.path}: the log lacks the whole file on one side of this edit: shown as its logged diff, which may not apply`
                : s.uncounted === true
                  ? `${f.path}: the log holds no content of this edit (neither the file before or after it, nor a diff, nor its line counts): no patch${s.why !== undefined ? `: ${s.why}` : ""} (--name-only names it, --stat shows ?)`
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

  /**
   * A file-writing call completed: its change joins its file's history, or it is told why it is
   * left out. A call that succeeded with no change in the log (Call.fileChange) still wrote its
   * target: the file is named, with nothing else known (an edit of it, no content, no line counts).
   */
  function written(call: Call, run: Run, rec: JsonRecord, changes: RunChanges, strings: ReturnType<ReadSeeds["done"]>): void {
    const refusal = opts.mode === "patch" ? dialectOf(run.agent)?.patchRefusal : undefined;
    if (refusal !== undefined) {
      // Said once, at the first write of the first such run: the patch cannot be made, whatever the write.
      if (!refused) {
        refused = true;
        reporter.report({ severity: "error", file: rec.file, line: rec.line, message: `no patch: ${refusal} (diff --stat and --name-only list them)`, code: ExitCode.USAGE_OR_IO });
      }
      return;
    }
    let change = call.fileChange();
    if (change === undefined && call.status === "ok" && call.targetIsPath && call.target !== "") change = { op: "edit", path: call.target };
    if (change === undefined) {
      const note = call.note();
      const path = call.targetIsPath ? call.target : "";
      reporter.report({
        severity: "warning",
        file: rec.file,
        line: rec.line,
        message: `left out: ${call.label} ${escapeControls(path === "" ? "(path not logged)" : path)}${note ? ` (${note})` : ""}`,
        code: ExitCode.OK,
      });
      return;
    }
    let place = relativePath(change.path, run.cwd);
    // --stat and --name-only apply nothing: a run that logs no cwd (Codex's) names its files as logged.
    if (place.leftOut !== undefined && opts.mode !== "patch" && (run.cwd === undefined || run.cwd === "")) place = { path: change.path };
    if (place.leftOut !== undefined) {
      // One warning per path and run: a run that edits it a thousand times is told once.
      if (!changes.leftOut.has(change.path)) {
        changes.leftOut.add(change.path);
        reporter.report({ severity: "warning", file: rec.file, line: rec.line, message: `${change.path}: ${place.leftOut}: left out of the patch`, code: ExitCode.OK });
      }
      return;
    }
    let f = changes.files.get(place.path);
    if (f === undefined) changes.files.set(place.path, (f = new FileHistory(place.path, rec.line)));
    let why: string | undefined;
    if (strings !== undefined && change.before === undefined && change.after === undefined && change.diffString === undefined && change.added === undefined && change.removed === undefined) {
      // The log holds no content of this change: made from what a Read showed and the edit's strings, when it can be (read-seeds.ts).
      const made = changes.seeds.edit(place.path, strings, f);
      if ("after" in made) change = { ...change, before: made.before, after: made.after };
      else why = made.why;
    }
    changes.seeds.changed(place.path);
    f.add(change, rec.line, why);
    f.knownAt = typeof f.known() === "string" ? { epoch: changes.seeds.epoch, from: `its change at line ${rec.line}` } : undefined;
  }

  /** A successful read showed a file (Call.fileShown): kept for a later edit of it (read-seeds.ts). */
  function shown(call: Call, run: Run, rec: JsonRecord, changes: RunChanges): void {
    const s = call.fileShown?.();
    if (s === undefined) return;
    const place = relativePath(s.path, run.cwd);
    if (place.leftOut !== undefined) return;
    changes.seeds.shown(call, s, place.path, rec.line, changes.files.get(place.path));
  }

  return drive(
    {
      runStart(run: Run) {
        const out = flush();
        current = fresh(run);
        return out;
      },
      callStarted(call: Call, run: Run, rec: JsonRecord) {
        changesOf(run).seeds.started(call, rec.line);
        return undefined;
      },
      callDone(call: Call, run: Run, rec: JsonRecord) {
        const changes = changesOf(run);
        const strings = changes.seeds.done(call, rec.line);
        if (call.writesFiles) written(call, run, rec, changes, strings);
        else if (call.status === "ok") shown(call, run, rec, changes);
        return undefined;
      },
      backgroundEnd(end: BackgroundEnd, run: Run) {
        changesOf(run).seeds.backgroundEnded(end.taskId);
        return undefined;
      },
      runEnd(run: Run) {
        const ended = current.run === run ? current : fresh(run);
        current = fresh(undefined);
        const out = flush();
        if (run.result === undefined) return join(out, emit(ended));
        held = ended;
        return out;
      },
      fileEnd: () => flush(),
      finish: () => flush(),
    },
    reporter,
    {
      dialect: forcedDialect(opts.agent),
      // A run cut off or failed still shows what it changed; the agent CLI's text in a run is one
      // warning when it ends (the driver's default).
      cutOff: "quiet",
      failed: false,
      warnings: true,
      skip: skipFor,
    },
  );
}

/** `a` then `b`, either absent. */
function join(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

function sum(sections: Section[], key: "added" | "removed"): number {
  let n = 0;
  for (const s of sections) n += s.hunks[key];
  return n;
}
