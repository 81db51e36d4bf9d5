import { isLineTerminator, isWordChar, type RegexAlphabet } from "./alphabet.js";
import type { RegexBudget } from "./budget.js";
import { OP, type RegexProgram } from "./program.js";
import { ThreadPruner } from "./prune.js";

/** The literal chars a match can start with, or null when a class, `.` or an empty match can start it. */
function firstChars(p: RegexProgram): string | null {
  const seen = new Set<number>();
  const todo = [0];
  let chars = "";
  while (todo.length > 0) {
    const pc = todo.pop()!;
    if (seen.has(pc)) continue;
    seen.add(pc);
    const o = p.op[pc];
    if (o === OP.JMP) todo.push(p.x[pc]!);
    else if (o === OP.SPLIT) todo.push(p.x[pc]!, p.y[pc]!);
    else if (o === OP.BOL || o === OP.EOL || o === OP.WORD || o === OP.NONWORD) todo.push(pc + 1);
    else if (o === OP.CHAR) chars += String.fromCharCode(p.x[pc]!);
    else return null;
  }
  return chars;
}

/**
 * Runs a Thompson-NFA program over a string, breadth first (a Pike VM): every position is visited
 * once and each instruction at most once per position, so a test costs O(length × program size)
 * whatever the pattern, each instruction visited charged to the budget. The fallback of the lazy
 * DFA when its cache thrashes: it can take over at the position and threads where the DFA stopped.
 * One instance per compiled pattern; not reentrant.
 */
export class PikeVm {
  private clist: Int32Array;
  private nlist: Int32Array;
  /** mark[pc] = position + 1 when pc is already queued for that position. */
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  /** The pattern starts with `^` (no m flag): new threads start at position 0 only. */
  private readonly anchored: boolean;
  /** Every match begins with one of these literal chars (null: unknown), so idle stretches are skipped. */
  private readonly first: string | null;
  private readonly pruner: ThreadPruner;
  private steps = 0;

  constructor(
    private readonly p: RegexProgram,
    private readonly alphabet: RegexAlphabet,
    private readonly budget: RegexBudget,
  ) {
    const n = p.op.length;
    this.clist = new Int32Array(n);
    this.nlist = new Int32Array(n);
    this.mark = new Int32Array(n);
    this.stack = new Int32Array(3 * n + 4);
    this.anchored = p.op[0] === OP.BOL && !p.multiline;
    this.first = firstChars(p);
    this.pruner = new ThreadPruner(p);
  }

  /** Does s hold a match? From position `from` with the threads `pending` there (a DFA state), or from the start. */
  test(s: string, from = 0, pending?: Int32Array): boolean {
    const { alphabet } = this;
    const testOf = alphabet.testOf;
    const n = s.length;
    this.mark.fill(0);
    this.steps = 0;
    let clen = 0;
    if (pending !== undefined) {
      for (const pc of pending) {
        clen = this.add(this.clist, clen, pc, from, s);
        if (clen < 0) return true;
      }
    }
    for (let i = from; i <= n; i++) {
      if (clen === 0) {
        if (this.anchored) {
          if (i > 0) return false;
        } else if (this.first !== null) {
          while (i < n && !this.first.includes(s[i]!)) i++;
          if (i === n) return false;
        }
      }
      if (i === 0 || !this.anchored) {
        const added = this.add(this.clist, clen, 0, i, s);
        if (added < 0) return true;
        clen = added;
      }
      if (this.pruner.active) clen = this.pruner.prune(this.clist, clen);
      this.budget.spend(this.steps + clen);
      this.steps = 0;
      if (i === n) break;
      const c = s.charCodeAt(i);
      let k = alphabet.table[c]!;
      if (k === 0) k = alphabet.classify(c);
      const acc = alphabet.accepts[k]!;
      const { clist, nlist, mark } = this;
      const stamp = i + 2;
      let nlen = 0;
      for (let j = 0; j < clen; j++) {
        const pc = clist[j]!;
        if (acc[testOf[pc]!] !== 1) continue;
        const to = pc + 1;
        if (testOf[to]! < 0) {
          nlen = this.add(nlist, nlen, to, i + 1, s);
          if (nlen < 0) return true;
        } else if (mark[to] !== stamp) {
          // A character after a character (`[ab]{600}`): no jumps to follow.
          mark[to] = stamp;
          nlist[nlen++] = to;
          this.steps++;
        }
      }
      this.clist = nlist;
      this.nlist = clist;
      clen = nlen;
    }
    return false;
  }

  /** Queues `pc` and what it reaches without consuming input at position `at`; -1 when MATCH is reached. */
  private add(list: Int32Array, len: number, start: number, at: number, s: string): number {
    const { op, x, y, multiline } = this.p;
    const mark = this.mark;
    const stack = this.stack;
    const stamp = at + 1;
    let sp = 0;
    stack[sp++] = start;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      this.steps++;
      switch (op[pc]) {
        case OP.JMP:
          stack[sp++] = x[pc]!;
          break;
        case OP.SPLIT:
          stack[sp++] = y[pc]!;
          stack[sp++] = x[pc]!;
          break;
        case OP.BOL:
          if (at === 0 || (multiline && isLineTerminator(s.charCodeAt(at - 1)))) stack[sp++] = pc + 1;
          break;
        case OP.EOL:
          if (at === s.length || (multiline && isLineTerminator(s.charCodeAt(at)))) stack[sp++] = pc + 1;
          break;
        case OP.WORD:
        case OP.NONWORD: {
          const before = at > 0 && isWordChar(s.charCodeAt(at - 1));
          const after = at < s.length && isWordChar(s.charCodeAt(at));
          if ((before !== after) === (op[pc] === OP.WORD)) stack[sp++] = pc + 1;
          break;
        }
        case OP.MATCH:
          return -1;
        default:
          list[len++] = pc;
      }
    }
    return len;
  }
}
