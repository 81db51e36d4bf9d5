import type { Call, FileShown, Replacement } from "../../model/call.js";
import type { FileHistory } from "./file-history.js";

/**
 * A file's content as a Read showed it whole (Call.fileShown), kept to be the content before a
 * later edit the log holds no content of; or why no such content is kept (`why`).
 */
type Seed = { content: string; epoch: number; line: number } | { why: string };

/** The strings of an edit started (Call.replacement), kept for its completion; or why they are not. */
type Pending = Replacement | { why: string };

/**
 * What the seeds and kept strings of one run may hold, in characters, all together: past it the
 * oldest seed goes first (a run that reads a thousand large files holds no more than this of them;
 * an edit of one of those is told why no patch).
 */
export const SEEDS_MAX = 8 * 1024 * 1024;

/**
 * THE RULE for a file's content shown by a Read (issue 27, `diff`): Claude Code's Edit refuses a
 * file changed since it was last read, so a successful Edit after a Read that showed the whole
 * file edits that content with Claude's own logged changes since. But a shell command may write
 * any file, and leaves no trace in the log (AGENTS §1.8): so a Read's content, or the content a
 * file's logged changes left, is used for an edit only while no shell call of the run started,
 * completed or ran in the background since the Read started (or since that change). Otherwise no
 * patch, and the message says which shell call came between.
 *
 * An edit is then made from the content exactly as the Edit tool makes it: `oldString` must occur
 * (once, unless `replaceAll`), replaced as written. A deletion (`newString` "") of a string not
 * ending in a newline, found followed by one, is refused: Claude Code may delete that newline too,
 * and the log does not say whether it did.
 */
export class ReadSeeds {
  /** Bumped at each shell call's start and completion: a content kept at one epoch is good only at that epoch. */
  epoch = 0;
  /** The line of the last shell call's start or completion. */
  private lastShell = 0;
  /** Shell calls started and not completed, and background shells not seen to end: by id, their line. */
  private readonly openShells = new Map<string, number>();
  private readonly background = new Map<string, number>();
  /** Reads started, by call id: the epoch at their start. */
  private readonly reads = new Map<string, number>();
  private readonly seeds = new Map<string, Seed>();
  private readonly pending = new Map<string, Pending>();
  /** Characters held in seeds and pending strings. */
  private held = 0;

  /** A call started: a shell call bumps the epoch; a Read's epoch is noted; an edit's strings are kept. */
  started(call: Call, line: number): void {
    if (call.kind === "shell") {
      this.shell(line);
      this.openShells.set(call.id, line);
      return;
    }
    if (call.kind === "read") this.reads.set(call.id, this.epoch);
    const r = call.replacement?.();
    if (r !== undefined) {
      const size = r.oldString.length + r.newString.length;
      this.makeRoom(size);
      if (this.held + size > SEEDS_MAX) this.pending.set(call.id, { why: `the edit's strings were not kept (past ${SEEDS_MAX / 1024 / 1024} Mi characters of files read and strings held)` });
      else {
        this.pending.set(call.id, r);
        this.held += size;
      }
    }
  }

  /** A call completed: a shell call bumps the epoch (a background one is running from then); its kept strings, if any, are returned. */
  done(call: Call, line: number): Pending | undefined {
    if (call.kind === "shell") {
      this.shell(line);
      this.openShells.delete(call.id);
      const task = call.backgroundTask;
      if (task !== undefined) this.background.set(task, line);
    }
    const p = this.pending.get(call.id);
    if (p !== undefined) {
      this.pending.delete(call.id);
      if ("oldString" in p) this.held -= p.oldString.length + p.newString.length;
    }
    return p;
  }

  /** A background task ended: it runs no more. */
  backgroundEnded(taskId: string): void {
    this.background.delete(taskId);
  }

  private shell(line: number): void {
    this.epoch++;
    this.lastShell = line;
  }

  /**
   * A successful Read showed the file at `path` (the path in the patch): its content is kept (a
   * seed), or why not. A file whose logged changes left it known is compared instead: the same
   * content confirms it (now known at this epoch); another means something the log does not show
   * changed it, and its content is no longer built on.
   */
  shown(call: Call, shown: FileShown, path: string, line: number, history: FileHistory | undefined): void {
    const startEpoch = this.reads.get(call.id) ?? this.epoch;
    this.reads.delete(call.id);
    this.drop(path);
    const read = `the Read at line ${line}`;
    if (shown.content === undefined) {
      this.seeds.set(path, { why: `${read} ${shown.why ?? "did not show the whole file"}` });
      return;
    }
    const running = this.running();
    if (startEpoch !== this.epoch || running !== undefined) {
      this.seeds.set(path, { why: `a shell call (line ${running ?? this.lastShell}) ran while ${read} was made` });
      return;
    }
    const known = history?.known();
    if (history !== undefined && typeof known === "string") {
      if (known === shown.content) history.knownAt = { epoch: this.epoch, from: read };
      else history.knownAt = { epoch: -1, from: read, why: `${read} shows it other than its logged changes left it (changed by something the log does not show)` };
      return;
    }
    const size = shown.content.length;
    this.makeRoom(size);
    if (this.held + size > SEEDS_MAX) {
      this.seeds.set(path, { why: `what ${read} showed was not kept (past ${SEEDS_MAX / 1024 / 1024} Mi characters of files read and strings held)` });
      return;
    }
    this.seeds.set(path, { content: shown.content, epoch: this.epoch, line });
    this.held += size;
  }

  /**
   * The whole file before an edit the log holds no content of, and after it (its kept strings
   * applied), from the content the file's logged changes left or else from a Read's seed; or why
   * none. The seed is used up: what follows builds on the file's history.
   */
  edit(path: string, p: Pending | undefined, history: FileHistory): { before: string; after: string } | { why: string } {
    const seed = this.seeds.get(path);
    this.drop(path);
    let base: string;
    let from: string;
    const known = history.known();
    if (typeof known === "string" && history.knownAt !== undefined) {
      const at = history.knownAt;
      if (at.why !== undefined) return { why: at.why };
      if (at.epoch !== this.epoch) return { why: `a shell call (line ${this.lastShell}) came between ${at.from} and this edit` };
      base = known;
      from = `the content ${at.from} left`;
    } else if (seed !== undefined && "content" in seed) {
      if (seed.epoch !== this.epoch) return { why: `a shell call (line ${this.lastShell}) came between the Read that showed it whole (line ${seed.line}) and this edit` };
      base = seed.content;
      from = `the content the Read at line ${seed.line} showed`;
    } else {
      return { why: `the log shows no whole content of the file before this edit${seed !== undefined ? `: ${seed.why}` : ""}` };
    }
    if (p === undefined) return { why: `the edit's strings are not in the log (its start was not read)` };
    if (!("oldString" in p)) return { why: p.why };
    const after = replaced(base, p);
    return typeof after === "string" ? { before: base, after } : { why: `its old_string ${after.why} ${from}` };
  }

  /** The file at `path` changed (a logged change): its seed, older, is no longer its content. */
  changed(path: string): void {
    this.drop(path);
  }

  private drop(path: string): void {
    const s = this.seeds.get(path);
    if (s === undefined) return;
    if ("content" in s) this.held -= s.content.length;
    this.seeds.delete(path);
  }

  /** The line of a shell call running now (started and not completed, or in the background), if any. */
  private running(): number | undefined {
    for (const line of this.openShells.values()) return line;
    for (const line of this.background.values()) return line;
    return undefined;
  }

  /** Oldest seeds dropped (each told why) until `size` more characters fit, if they can. */
  private makeRoom(size: number): void {
    if (this.held + size <= SEEDS_MAX) return;
    for (const [path, s] of this.seeds) {
      if (this.held + size <= SEEDS_MAX) return;
      if (!("content" in s)) continue;
      this.held -= s.content.length;
      this.seeds.set(path, { why: `what the Read at line ${s.line} showed was not kept (past ${SEEDS_MAX / 1024 / 1024} Mi characters of files read and strings held)` });
    }
  }
}

/** `base` with the replacement made as Claude Code's Edit makes it, or why it cannot be made exactly. */
export function replaced(base: string, r: Replacement): string | { why: string } {
  const from = r.oldString;
  if (from === "") return { why: "is empty (an Edit that makes a file): not applied to" };
  let count = 0;
  for (let at = base.indexOf(from); at >= 0; at = base.indexOf(from, at + from.length)) count++;
  if (count === 0) return { why: "is not found in" };
  if (count > 1 && !r.replaceAll) return { why: `occurs ${count} times (the Edit replaces exactly one) in` };
  if (count > 1 && base.length + count * (r.newString.length - from.length) > REPLACED_MAX * (base.length + r.newString.length)) {
    return { why: `occurs ${count} times, and replacing each would make a file past ${REPLACED_MAX} times the log's strings for it, in` };
  }
  if (r.newString === "" && !from.endsWith("\n") && base.includes(from + "\n")) {
    return { why: "is deleted where a newline follows it (Claude Code may delete that newline too: the log does not say) in" };
  }
  return base.split(from).join(r.newString);
}

/** A replace_all is made up to this many times the length of the content and `newString` together (as the dialect's own, claude/file-change.ts). */
const REPLACED_MAX = 4;
