import { FilterSyntaxError } from "../query/syntax-error.js";
import type { RegexNode } from "./syntax.js";

/** Instructions of a Thompson-NFA program (Russ Cox, "Regular Expression Matching: the Virtual Machine Approach"). */
export const OP = {
  CHAR: 0, // x = char code
  DOT: 1, // any code unit but a line terminator
  ANY: 2, // any code unit (the s flag)
  CLASS: 3, // x = index of a one-character sticky RegExp
  SPLIT: 4, // continue at x and at y
  JMP: 5, // continue at x
  BOL: 6,
  EOL: 7,
  WORD: 8,
  NONWORD: 9,
  MATCH: 10,
} as const;

export interface RegexProgram {
  op: Int32Array;
  x: Int32Array;
  y: Int32Array;
  classes: RegExp[];
  /**
   * Redundant threads: the optional copies of a `{n,m}` body are alike, and a thread in an earlier
   * copy can do all that one at the same place in a later copy can (it may still skip more copies),
   * so for a yes/no answer only the thread of the earliest copy matters. group[pc] names the place
   * (-1: none), rank[pc] the copy. Without this, `error.{0,200}timeout` keeps a thread per offset
   * since every "error", and its DFA has a state per combination of them.
   */
  group: Int32Array;
  rank: Int32Array;
  dotAll: boolean;
  multiline: boolean;
}

/** Upper bound on instructions: a DFA state, and a Pike VM step, cost up to the program size. */
export const MAX_PROGRAM = 2000;

/** Lays out the tree as instructions; `{n,m}` repeats are expanded, so big counts make big programs. */
export function compileRegexProgram(root: RegexNode, source: string, dotAll: boolean, multiline: boolean): RegexProgram {
  const op: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  const classes: RegExp[] = [];
  const group: number[] = [];
  const rank: number[] = [];

  function emit(o: number, a = 0, b = 0): number {
    if (op.length >= MAX_PROGRAM) {
      throw new FilterSyntaxError(`regular expression /${source}/ is too large once its repeats are expanded (more than ${MAX_PROGRAM} steps)`);
    }
    op.push(o);
    x.push(a);
    y.push(b);
    group.push(-1);
    rank.push(0);
    return op.length - 1;
  }

  function gen(n: RegexNode): void {
    switch (n.t) {
      case "char": {
        const t = n.test;
        if ("code" in t) emit(OP.CHAR, t.code);
        else if ("dot" in t) emit(dotAll ? OP.ANY : OP.DOT);
        else emit(OP.CLASS, classes.push(t.re) - 1);
        return;
      }
      case "assert":
        emit(n.kind === "bol" ? OP.BOL : n.kind === "eol" ? OP.EOL : n.kind === "word" ? OP.WORD : OP.NONWORD);
        return;
      case "cat":
        for (const item of n.items) gen(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        n.items.forEach((item, i) => {
          if (i < n.items.length - 1) {
            const split = emit(OP.SPLIT);
            x[split] = op.length;
            gen(item);
            jumps.push(emit(OP.JMP));
            y[split] = op.length;
          } else gen(item);
        });
        for (const j of jumps) x[j] = op.length;
        return;
      }
      case "repeat": {
        for (let i = 0; i < n.min; i++) gen(n.node);
        if (n.max === Infinity) {
          const split = emit(OP.SPLIT);
          x[split] = op.length;
          gen(n.node);
          emit(OP.JMP, split);
          y[split] = op.length;
          return;
        }
        const splits: number[] = [];
        let first = -1;
        for (let i = n.min; i < n.max; i++) {
          const split = emit(OP.SPLIT);
          x[split] = op.length;
          splits.push(split);
          const start = op.length;
          if (first < 0) first = start;
          gen(n.node);
          // A place is named by its pc in the first copy, unless a nested repeat has named it: the
          // innermost repeat wins, and no two repeats can use one name (pc p names only p's place).
          for (let pc = start; pc < op.length; pc++) {
            if (group[pc] === -1) [group[pc], rank[pc]] = [first + pc - start, i];
          }
        }
        for (const s of splits) y[s] = op.length;
        return;
      }
    }
  }

  gen(root);
  emit(OP.MATCH);
  return { op: Int32Array.from(op), x: Int32Array.from(x), y: Int32Array.from(y), classes, group: Int32Array.from(group), rank: Int32Array.from(rank), dotAll, multiline };
}
