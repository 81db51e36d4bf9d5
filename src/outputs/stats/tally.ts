import type { CallCounts, KindCounts, StatsCategory } from "./types.js";

/** Distinct kinds / statuses kept per tally; the rest are counted under OTHER (a hostile log cannot grow it). */
export const MAX_KINDS = 100;
export const MAX_STATUSES = 50;
export const OTHER = "(other)";

function zero(): KindCounts {
  return { calls: 0, ok: 0, failed: 0, refused: 0, noResult: 0, open: 0 };
}

function addCounts(to: KindCounts, from: KindCounts): void {
  to.calls += from.calls;
  to.ok += from.ok;
  to.failed += from.failed;
  to.refused += from.refused;
  to.noResult += from.noResult;
  to.open += from.open;
}

/** Calls counted by kind, by status and in total: one per session, one for the run. */
export class CallTally {
  private readonly all = zero();
  private readonly kinds = new Map<string, KindCounts>();
  private readonly statuses = new Map<string, number>();

  /** One call: its short kind, its status key, its category (`open` for a call that never completed). */
  count(kind: string, status: string, category: StatsCategory | "open"): void {
    const k = this.kindCounts(kind);
    k.calls++;
    k[category]++;
    this.all.calls++;
    this.all[category]++;
    this.bump(status, 1);
  }

  /** Adds another tally's counts (a session's into the run's). */
  merge(other: CallCounts): void {
    addCounts(this.all, other);
    for (const [kind, counts] of other.byKind) addCounts(this.kindCounts(kind), counts);
    for (const [status, n] of other.byStatus) this.bump(status, n);
  }

  /** Kinds by calls, statuses by count, largest first (ties by name): the same input, the same order. */
  report(): CallCounts {
    const byKind = [...this.kinds].map(([k, c]): [string, KindCounts] => [k, { ...c }]);
    byKind.sort((a, b) => b[1].calls - a[1].calls || compare(a[0], b[0]));
    const byStatus = [...this.statuses];
    byStatus.sort((a, b) => b[1] - a[1] || compare(a[0], b[0]));
    return { ...this.all, byKind, byStatus };
  }

  private kindCounts(kind: string): KindCounts {
    let k = this.kinds.get(kind);
    if (k === undefined) {
      const key = this.kinds.size < MAX_KINDS ? kind : OTHER;
      k = this.kinds.get(key);
      if (k === undefined) this.kinds.set(key, (k = zero()));
    }
    return k;
  }

  private bump(status: string, n: number): void {
    const key = this.statuses.has(status) || this.statuses.size < MAX_STATUSES ? status : OTHER;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + n);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
