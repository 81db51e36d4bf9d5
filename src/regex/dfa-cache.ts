/** A transition not computed yet. */
export const UNKNOWN = -1;
/** A transition that reaches MATCH: the string matches. */
export const FOUND = -2;

/** Default memory cap of the cache, in 32-bit slots (8 MiB): instruction sets plus transitions. */
export const DFA_CACHE_SLOTS = 1 << 21;
/** What a state costs besides its set and its transitions (its arrays, its key, its map entry). */
const STATE_OVERHEAD = 64;

/**
 * The states of a lazy DFA, each a set of NFA instructions plus flag bits about the
 * character before it, and their transitions: one flat table, `next[(state << shift) + class]`,
 * whose stride grows (by copying) as the alphabet meets new classes. Bounded: when a new state
 * would take it past its slots, every state is dropped (RE2 does the same) and `flushes` counts it.
 */
export class DfaCache {
  sets: Int32Array[] = [];
  flags: number[] = [];
  /** Does the string match when it ends in this state: -1 not known yet, 0 no, 1 yes. */
  ends: number[] = [];
  next = new Int32Array(64 << 3).fill(UNKNOWN);
  /** log2 of the stride of `next` (at least the number of classes). */
  shift = 3;
  flushes = 0;
  /** How many states the last flush dropped. */
  dropped = 0;
  private ids = new Map<string, number>();
  private used = 0;

  constructor(private readonly slots = DFA_CACHE_SLOTS) {}

  /**
   * The id of the state whose key (flags and instruction set, canonical) is `key`, added with
   * set[0..len) if new; may flush first (ids taken before are then void).
   */
  intern(key: string, set: Int32Array, len: number, flags: number): number {
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const cost = len + key.length / 2 + (1 << this.shift) + STATE_OVERHEAD;
    if (this.used + cost > this.slots && this.sets.length > 0) this.flush();
    this.used += cost;
    const id = this.sets.length;
    if ((id + 1) << this.shift > this.next.length) this.resize(id * 2 + 2, this.shift);
    this.sets.push(set.slice(0, len));
    this.flags.push(flags);
    this.ends.push(-1);
    this.ids.set(key, id);
    return id;
  }

  /** Makes room for `classes` transitions per state (the states stay). */
  fit(classes: number): void {
    let shift = this.shift;
    while (1 << shift < classes) shift++;
    if (shift === this.shift) return;
    this.used += this.sets.length * ((1 << shift) - (1 << this.shift));
    this.resize(this.next.length >> this.shift, shift);
  }

  flush(): void {
    this.next.fill(UNKNOWN, 0, this.sets.length << this.shift);
    this.dropped = this.sets.length;
    this.sets = [];
    this.flags = [];
    this.ends = [];
    this.ids = new Map();
    this.used = 0;
    this.flushes++;
  }

  private resize(states: number, shift: number): void {
    const next = new Int32Array(states << shift).fill(UNKNOWN);
    const stride = 1 << this.shift;
    for (let s = 0; s < this.sets.length; s++) next.set(this.next.subarray(s * stride, (s + 1) * stride), s << shift);
    this.next = next;
    this.shift = shift;
  }
}
