import type { RegexAlphabet } from "./alphabet.js";
import type { RegexBudget } from "./budget.js";
import { DfaCache, FOUND, UNKNOWN } from "./dfa-cache.js";
import { DfaBuilder } from "./dfa-builder.js";
import type { RegexProgram } from "./program.js";

/** The cache was flushed after fewer than this many characters per state it held: it thrashes. */
const CHARS_PER_STATE = 10;

/** Where the DFA gave up: the position and the NFA instructions pending there. */
export interface DfaStop {
  at: number;
  pending: Int32Array;
}

/**
 * A lazy DFA over the NFA program (RE2's approach; Russ Cox, "Regular Expression Matching in the
 * Wild"): its states are built on demand by a DfaBuilder and kept in a bounded DfaCache, with a
 * transition per (state, character class), so a character usually costs one table lookup whatever
 * the pattern. Unanchored: thread 0 starts again at every position, and the first MATCH ends the
 * test. When the cache thrashes (flushed after fewer than CHARS_PER_STATE characters per state it
 * held, as RE2 decides), test() gives up and says where, for the Pike VM to take over.
 */
export class LazyDfa {
  stopped: DfaStop | undefined;
  private readonly cache: DfaCache;
  private readonly builder: DfaBuilder;
  private start = UNKNOWN;
  private startFlushes = -1;
  private flushesSeen = 0;
  /** Characters run since the last flush, over earlier strings. */
  private sinceFlush = 0;

  constructor(
    p: RegexProgram,
    private readonly alphabet: RegexAlphabet,
    budget: RegexBudget,
    slots?: number,
    /** false: never give up, keep flushing (tests). */
    private readonly mayStop = true,
  ) {
    this.cache = new DfaCache(slots);
    this.builder = new DfaBuilder(p, alphabet, budget, this.cache);
  }

  /** 1: the string holds a match; 0: it does not; -1: gave up (thrashing), see `stopped`. */
  test(s: string): number {
    const { alphabet, cache, builder } = this;
    const table = alphabet.table;
    const n = s.length;
    let origin = -this.sinceFlush;
    // The Pike VM shares the alphabet: it may have met classes since the last test.
    cache.fit(alphabet.classCount);
    if (this.startFlushes !== cache.flushes) {
      this.start = builder.start();
      this.startFlushes = this.flushesSeen = cache.flushes;
    }
    let cur = this.start;
    let next = cache.next;
    let shift = cache.shift;
    let i = 0;
    while (cur >= 0 && i < n) {
      // The hot loop: known classes, known transitions.
      for (; i < n; i++) {
        const to = next[(cur << shift) + table[s.charCodeAt(i)]!]!;
        if (to < 0) break;
        cur = to;
      }
      if (i === n) break;
      let k = table[s.charCodeAt(i)]!;
      let to = next[(cur << shift) + k]!;
      if (k === 0) {
        k = alphabet.classify(s.charCodeAt(i));
        cache.fit(alphabet.classCount);
        to = cache.next[(cur << cache.shift) + k]!;
      }
      if (to === UNKNOWN) {
        to = builder.advance(cur, k);
        if (cache.flushes === this.flushesSeen) cache.next[(cur << cache.shift) + k] = to;
        else {
          // `cur` went with the flush; `to` is the first state of the new cache.
          const chars = i + 1 - origin;
          origin = i + 1;
          this.flushesSeen = cache.flushes;
          if (this.mayStop && to >= 0 && chars < CHARS_PER_STATE * cache.dropped) {
            this.stopped = { at: i + 1, pending: cache.sets[to]! };
            this.sinceFlush = 0;
            return -1;
          }
        }
      }
      next = cache.next;
      shift = cache.shift;
      cur = to;
      i++;
    }
    this.sinceFlush = n - origin;
    if (cur < 0) return cur === FOUND ? 1 : 0;
    let end = cache.ends[cur]!;
    if (end < 0) cache.ends[cur] = end = builder.advance(cur, -1) === FOUND ? 1 : 0;
    return end;
  }
}
