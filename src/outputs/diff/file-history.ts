import type { FileChange } from "../../events/file-change.js";
import { loggedHunks, unifiedHunks, type Hunks } from "../shared/unified-diff.js";

/** One change of a file as kept until its session ends. */
interface Kept {
  change: FileChange;
  line: number;
  /** Its hunks, worked out when its whole contents were dropped (it was no longer the last change). */
  hunks?: Hunks;
}

/** One section of the patch: a `diff --git` header's kind and its hunks. */
export interface Section {
  kind: "edit" | "create" | "delete";
  hunks: Hunks;
  /** The log lacks the whole file on one side: the hunks are the logged diff, or none. */
  partial: boolean;
  /** Log line of the change, for messages. */
  line: number;
}

/**
 * The changes of one file within a session. Memory: the whole file before the first change and
 * after the last one; of the changes between, only their logged diff.
 */
export class FileHistory {
  private readonly kept: Kept[] = [];

  constructor(
    /** The path as shown in the patch (relative to the run's cwd). */
    readonly path: string,
    readonly firstLine: number,
  ) {}

  add(change: FileChange, line: number): void {
    const prev = this.kept[this.kept.length - 1];
    if (prev !== undefined) this.shrink(prev, this.kept.length === 1);
    this.kept.push({ change, line });
  }

  /** A change that is no longer the last: its after-content is not needed any more (nor its before, unless it is the first). */
  private shrink(k: Kept, isFirst: boolean): void {
    const c = k.change;
    if (c.diffString === undefined && typeof c.before !== "undefined" && c.after !== undefined) {
      k.hunks = unifiedHunks(c.before ?? "", c.after ?? "");
    }
    const slim: FileChange = { op: c.op, path: c.path };
    if (isFirst && c.before !== undefined) slim.before = c.before;
    if (c.after === null) slim.after = null;
    if (c.diffString !== undefined) slim.diffString = c.diffString;
    if (c.added !== undefined) slim.added = c.added;
    if (c.removed !== undefined) slim.removed = c.removed;
    k.change = slim;
  }

  /**
   * The sections to print. With the whole file known before the first change and after the last,
   * one section from one to the other (none when they are equal), so that `git apply` takes it
   * against the tree the run started from. Otherwise a section per change, with what is known.
   */
  sections(): Section[] {
    const first = this.kept[0]!;
    const last = this.kept[this.kept.length - 1]!;
    const initial = first.change.before;
    const final = last.change.after;
    if (initial !== undefined && final !== undefined) {
      if (initial === null && final === null) return [];
      const hunks = unifiedHunks(initial ?? "", final ?? "");
      const kind = initial === null ? "create" : final === null ? "delete" : "edit";
      if (kind === "edit" && hunks.lines.length === 0) return [];
      return [{ kind, hunks, partial: false, line: first.line }];
    }
    return this.kept.map((k) => {
      const c = k.change;
      let hunks: Hunks | undefined = k.hunks;
      let partial = false;
      if (hunks === undefined && c.before !== undefined && c.after !== undefined) hunks = unifiedHunks(c.before ?? "", c.after ?? "");
      if (hunks === undefined) {
        partial = true;
        hunks = c.diffString !== undefined ? loggedHunks(c.diffString) : { lines: [], added: c.added ?? 0, removed: c.removed ?? 0 };
      }
      return { kind: c.op, hunks, partial, line: k.line };
    });
  }
}
