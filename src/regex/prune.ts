import type { RegexProgram } from "./program.js";

/**
 * Drops the threads of a set that another thread of the set makes redundant: of the threads at
 * the same place of a `{n,m}` body's optional copies (same program.group), only the one in the
 * earliest copy (lowest program.rank) is kept. A set stays the same answer and gets smaller: one
 * thread per place instead of one per copy, and far fewer distinct sets for the DFA to cache.
 */
export class ThreadPruner {
  /** Does the program have any such places? */
  readonly active: boolean;
  private readonly best: Int32Array;
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(private readonly p: RegexProgram) {
    const groups = p.group.reduce((m, g) => Math.max(m, g + 1), 0);
    this.active = groups > 0;
    this.best = new Int32Array(groups);
    this.seen = new Int32Array(groups);
  }

  /** Prunes list[0..len) in place; returns the new length. */
  prune(list: Int32Array, len: number): number {
    const { group, rank } = this.p;
    const { best, seen } = this;
    if (this.stamp >= 0x3fffffff) {
      seen.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    for (let j = 0; j < len; j++) {
      const pc = list[j]!;
      const g = group[pc]!;
      if (g >= 0 && (seen[g] !== stamp || rank[pc]! < best[g]!)) {
        seen[g] = stamp;
        best[g] = rank[pc]!;
      }
    }
    let kept = 0;
    for (let j = 0; j < len; j++) {
      const pc = list[j]!;
      const g = group[pc]!;
      if (g < 0 || rank[pc] === best[g]) list[kept++] = pc;
    }
    return kept;
  }
}
