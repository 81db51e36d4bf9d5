/** A transition not computed yet. */
export const UNKNOWN = -1;
/** A transition that reaches MATCH: the string matches. */
export const FOUND = -2;

/** Default memory cap of the cache, in 32-bit slots (8 MiB): instruction sets plus transition rows. */
export const DFA_CACHE_SLOTS = 1 << 21;

/**
 * The states of a lazy DFA, each a set of NFA instructions (sorted) plus flag bits about the
 * character before it, and their transitions by character class. Bounded: when a new state would
 * take it past its slots, everything is dropped (RE2 does the same) and `flushes` counts it.
 */
export class DfaCache {
  sets: Int32Array[] = [];
  flags: number[] = [];
  rows: Int32Array[] = [];
  /** Does the string match when it ends in this state: -1 not known yet, 0 no, 1 yes. */
  ends: number[] = [];
  flushes = 0;
  /** How many states the last flush dropped. */
  dropped = 0;
  private ids = new Map<string, number>();
  private used = 0;

  constructor(private readonly slots = DFA_CACHE_SLOTS) {}

  get size(): number {
    return this.sets.length;
  }

  /** The id of the state (set, flags), added if new; may flush first (ids taken before are then void). */
  intern(set: Int32Array, len: number, flags: number, classes: number): number {
    const key = keyOf(set, len, flags);
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const rowLen = Math.max(classes, 4);
    const cost = len + rowLen + key.length / 2 + 64; // 64: what the arrays and the map entry cost besides
    if (this.used + cost > this.slots && this.sets.length > 0) this.flush();
    this.used += cost;
    const id = this.sets.length;
    this.sets.push(set.slice(0, len));
    this.flags.push(flags);
    this.rows.push(new Int32Array(rowLen).fill(UNKNOWN));
    this.ends.push(-1);
    this.ids.set(key, id);
    return id;
  }

  /** Records a transition (the row grows as the alphabet meets new classes). */
  link(from: number, k: number, to: number): void {
    let row = this.rows[from]!;
    if (k >= row.length) {
      const grown = new Int32Array(Math.max(k + 1, row.length * 2)).fill(UNKNOWN);
      grown.set(row);
      this.used += grown.length - row.length;
      this.rows[from] = row = grown;
    }
    row[k] = to;
  }

  flush(): void {
    this.dropped = this.sets.length;
    this.sets = [];
    this.flags = [];
    this.rows = [];
    this.ends = [];
    this.ids = new Map();
    this.used = 0;
    this.flushes++;
  }
}

function keyOf(set: Int32Array, len: number, flags: number): string {
  let key = String.fromCharCode(flags);
  for (let i = 0; i < len; i += 4096) key += String.fromCharCode.apply(null, set.subarray(i, Math.min(len, i + 4096)) as unknown as number[]);
  return key;
}
