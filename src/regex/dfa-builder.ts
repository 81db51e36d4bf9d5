import { LINE_END, WORD, type RegexAlphabet } from "./alphabet.js";
import type { RegexBudget } from "./budget.js";
import { FOUND, type DfaCache } from "./dfa-cache.js";
import { OP, type RegexProgram } from "./program.js";
import { ThreadPruner } from "./prune.js";

/** Flag bits of a state: what is known of the position before its first character. */
const AT_START = 1;
const AFTER_LINE_END = 2;
const AFTER_WORD = 4;
/** A transition to no thread at all (a `^` pattern past position 0): the string does not match. */
export const DEAD = -3;

/**
 * Computes the lazy DFA's states and transitions from the NFA program. A state is the set of
 * instructions the Pike VM's threads would be at, closed over jumps; assertions (`^ $ \b \B`) stay
 * in the set until the next character (or the end) is known, and the state keeps flag bits about
 * the character before it (only those the program's assertions read, so states stay few). Each
 * instruction visited is charged to the budget.
 */
export class DfaBuilder {
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private readonly seeds: Int32Array;
  private readonly out: Int32Array;
  /** The set being built as a bitset, 16 instructions per code unit of the state's key. */
  private readonly bits: Uint16Array;
  private readonly pruner: ThreadPruner;
  private readonly flagMask: number;
  /** The pattern starts with `^` (no m flag): thread 0 does not start again after position 0. */
  private readonly anchored: boolean;
  private stamp = 0;

  constructor(
    private readonly p: RegexProgram,
    private readonly alphabet: RegexAlphabet,
    private readonly budget: RegexBudget,
    private readonly cache: DfaCache,
  ) {
    const n = p.op.length;
    this.mark = new Int32Array(n);
    this.stack = new Int32Array(3 * n + 4);
    this.seeds = new Int32Array(n + 1);
    this.out = new Int32Array(n);
    this.bits = new Uint16Array((n + 15) >> 4);
    this.pruner = new ThreadPruner(p);
    const ops = [...p.op];
    const bol = ops.includes(OP.BOL);
    this.flagMask = (bol ? AT_START : 0) | (bol && p.multiline ? AFTER_LINE_END : 0) | (ops.includes(OP.WORD) || ops.includes(OP.NONWORD) ? AFTER_WORD : 0);
    this.anchored = p.op[0] === OP.BOL && !p.multiline;
  }

  /** The state at position 0 (FOUND if the pattern matches the empty string there). */
  start(): number {
    this.seeds[0] = 0;
    return this.settle(1, AT_START);
  }

  /**
   * The state after class k (k = -1: the end of the string) from state `from`: its assertions are
   * decided, the threads whose test passes move on, thread 0 starts again. FOUND when MATCH is reached.
   */
  advance(from: number, k: number): number {
    const { op, x, y } = this.p;
    const { mark, stack, seeds } = this;
    const set = this.cache.sets[from]!;
    const f = this.cache.flags[from]!;
    const atEnd = k < 0;
    const acc = atEnd ? undefined : this.alphabet.accepts[k]!;
    const ctx = atEnd ? 0 : this.alphabet.context[k]!;
    const afterWord = (ctx & WORD) !== 0;
    const testOf = this.alphabet.testOf;
    const stamp = this.nextStamp();
    let sp = 0;
    let len = 0;
    let steps = 0;
    for (let j = set.length - 1; j >= 0; j--) stack[sp++] = set[j]!;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      steps++;
      switch (op[pc]) {
        case OP.SPLIT:
          stack[sp++] = y[pc]!;
          stack[sp++] = x[pc]!;
          break;
        case OP.JMP:
          stack[sp++] = x[pc]!;
          break;
        case OP.BOL:
          if ((f & (AT_START | AFTER_LINE_END)) !== 0) stack[sp++] = pc + 1;
          break;
        case OP.EOL:
          if (atEnd || (ctx & LINE_END) !== 0) stack[sp++] = pc + 1;
          break;
        case OP.WORD:
        case OP.NONWORD:
          if (((f & AFTER_WORD) !== 0) !== afterWord === (op[pc] === OP.WORD)) stack[sp++] = pc + 1;
          break;
        case OP.MATCH:
          this.budget.spend(steps);
          return FOUND;
        default:
          if (acc !== undefined && acc[testOf[pc]!] === 1) seeds[len++] = pc + 1;
      }
    }
    this.budget.spend(steps);
    if (atEnd) return DEAD;
    if (!this.anchored) seeds[len++] = 0;
    return this.settle(len, (afterWord ? AFTER_WORD : 0) | ((ctx & LINE_END) !== 0 ? AFTER_LINE_END : 0));
  }

  /** Closes seeds[0..count) over jumps into a state (FOUND if MATCH is among them, DEAD if empty). */
  private settle(count: number, flags: number): number {
    const { op, x, y } = this.p;
    const { mark, stack, seeds, out } = this;
    const stamp = this.nextStamp();
    let sp = 0;
    let len = 0;
    let steps = 0;
    for (let j = 0; j < count; j++) stack[sp++] = seeds[j]!;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      steps++;
      const o = op[pc];
      if (o === OP.SPLIT) {
        stack[sp++] = y[pc]!;
        stack[sp++] = x[pc]!;
      } else if (o === OP.JMP) stack[sp++] = x[pc]!;
      else if (o === OP.MATCH) {
        this.budget.spend(steps);
        return FOUND;
      } else out[len++] = pc;
    }
    this.budget.spend(steps);
    if (len === 0) return DEAD;
    if (this.pruner.active) len = this.pruner.prune(out, len);
    const bits = this.bits.fill(0);
    for (let j = 0; j < len; j++) bits[out[j]! >> 4] |= 1 << (out[j]! & 15);
    flags &= this.flagMask;
    let key = String.fromCharCode(flags);
    for (let j = 0; j < bits.length; j += 4096) key += String.fromCharCode.apply(null, bits.subarray(j, j + 4096) as unknown as number[]);
    return this.cache.intern(key, out, len, flags);
  }

  private nextStamp(): number {
    if (this.stamp >= 0x3fffffff) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}
