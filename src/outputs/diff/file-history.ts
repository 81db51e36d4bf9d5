import type { FileChange } from "../../model/call.js";
import { loggedHunks, unifiedHunks, type Hunks } from "../shared/unified-diff.js";

/** One section of the patch: a `diff --git` header's kind and its hunks. */
export interface Section {
  kind: "edit" | "create" | "delete";
  hunks: Hunks;
  /** The log lacks the whole file on one side: the hunks are the logged diff, or none. */
  partial: boolean;
  /** The log holds neither the change nor its line counts (hunks' counts are 0): only that the file was written. */
  uncounted?: true;
  /** Log line of the change, for messages. */
  line: number;
  /** Why the log's content could not make this change (read-seeds.ts), for messages. */
  why?: string;
}

/**
 * A stretch of changes over which the whole file is known: from `start` (the whole file before its
 * first change; `null`: it did not exist) to `end` (after its last). The changes between are not
 * kept: the patch goes from one to the other.
 */
interface Span {
  start: string | null;
  end: string | null;
  line: number;
}

/** A change the log lacks the whole file after: its logged diff, or only its line counts, or neither. */
interface Partial {
  op: FileChange["op"];
  diffString?: string;
  added: number;
  removed: number;
  /** Neither a diff nor line counts are logged. */
  uncounted: boolean;
  line: number;
  why?: string;
}

type Part = { span: Span } | { partial: Partial };

/**
 * The changes of one file within a session. Memory: the whole file before the first change and
 * after the last one (the changes between are not kept, nor their hunks worked out); a change the
 * log has only the diff of breaks the span, and is kept as that diff.
 */
export class FileHistory {
  private readonly parts: Part[] = [];
  /** The span being extended: the file's whole content is known after the last change. */
  private open: Span | undefined;

  /**
   * Since when the whole file after its last change is known, for an edit built on it
   * (read-seeds.ts): the shell epoch then, and what made it known, in words; or why it is not to be
   * built on (`why`, epoch -1). Set by diff's index.ts; undefined while nothing is known.
   */
  knownAt: { epoch: number; from: string; why?: string } | undefined;

  constructor(
    /** The path as shown in the patch (relative to the run's cwd). */
    readonly path: string,
    readonly firstLine: number,
  ) {}

  /** The whole file after its last change, when the log holds it (the open span's end). */
  known(): string | null | undefined {
    return this.open?.end;
  }

  /** `why`: the log's content could not make this change (read-seeds.ts), told with it. */
  add(change: FileChange, line: number, why?: string): void {
    const { before, after } = change;
    if (after !== undefined && this.open !== undefined) {
      // The whole file after this change is known: the span now ends there. Only the newest
      // content is held (a string of its own, not a slice keeping a parsed line alive).
      this.open.end = after;
      return;
    }
    if (after !== undefined && before !== undefined) {
      this.open = { start: before, end: after, line };
      this.parts.push({ span: this.open });
      return;
    }
    // The log lacks the whole file on one side: this change is shown as logged, and what follows
    // starts from the whole file after it, when the log has that.
    const uncounted = change.diffString === undefined && change.added === undefined && change.removed === undefined;
    const p: Partial = { op: change.op, added: change.added ?? 0, removed: change.removed ?? 0, uncounted, line };
    if (change.diffString !== undefined) p.diffString = change.diffString;
    if (why !== undefined) p.why = why;
    this.parts.push({ partial: p });
    this.open = undefined;
    if (after !== undefined) {
      this.open = { start: after, end: after, line };
      this.parts.push({ span: this.open });
    }
  }

  /**
   * The sections to print. With the whole file known before the first change and after the last,
   * one section from one to the other (none when they are equal), so that `git apply` takes it
   * against the tree the run started from. A change the log has only the diff of is a section of
   * its own, with its logged hunks (or none), between the spans before and after it.
   */
  sections(): Section[] {
    const out: Section[] = [];
    for (const part of this.parts) {
      if ("span" in part) {
        const { start, end, line } = part.span;
        if (start === null && end === null) continue;
        const hunks = unifiedHunks(start ?? "", end ?? "");
        const kind = start === null ? "create" : end === null ? "delete" : "edit";
        if (kind === "edit" && hunks.lines.length === 0) continue;
        out.push({ kind, hunks, partial: false, line });
      } else {
        const p = part.partial;
        const hunks = p.diffString !== undefined ? loggedHunks(p.diffString) : { lines: [], added: p.added, removed: p.removed };
        const section: Section = { kind: p.op, hunks, partial: true, line: p.line };
        if (p.uncounted) section.uncounted = true;
        if (p.why !== undefined) section.why = p.why;
        out.push(section);
      }
    }
    return out;
  }
}
