import { OP, type RegexProgram } from "./program.js";

export function isLineTerminator(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Context bits of a class: what `\b` and the m flag's `^`/`$` need to know about a character. */
export const WORD = 1;
export const LINE_END = 2;

/**
 * Sorts the 65 536 UTF-16 code units into the classes a program cannot tell apart: two code units
 * are in one class when every test of the program (a literal, `.`, a one-character RegExp) and
 * every assertion it uses says the same of both. The DFA's tables are indexed by class, so `[a-z]`
 * or `(?i)x` cost one lookup per character, not a RegExp call. Code units are classified the first
 * time they are seen (a one-character RegExp test per distinct test of the program, once).
 */
export class RegexAlphabet {
  /** testOf[pc]: the test a consuming instruction applies (deduplicated); -1 for the others. */
  readonly testOf: Int32Array;
  /** table[code unit] = its class; 0 = not seen yet (call classify), so a DFA keeps column 0 unknown. */
  readonly table = new Int32Array(65536);
  /** accepts[class][test]: 1 when the characters of the class pass the test (class 0: none). */
  readonly accepts: Uint8Array[] = [new Uint8Array(0)];
  /** context[class]: WORD and LINE_END bits, set only when the program has assertions that read them. */
  readonly context: number[] = [0];
  private readonly tests: Array<(c: number) => boolean> = [];
  private readonly bySignature = new Map<string, number>();
  private readonly contextMask: number;

  constructor(p: RegexProgram) {
    const { op, x } = p;
    this.testOf = new Int32Array(op.length).fill(-1);
    const ids = new Map<string, number>();
    let mask = 0;
    for (let pc = 0; pc < op.length; pc++) {
      const o = op[pc]!;
      if (o === OP.WORD || o === OP.NONWORD) mask |= WORD;
      if ((o === OP.BOL || o === OP.EOL) && p.multiline) mask |= LINE_END;
      let key: string;
      let test: (c: number) => boolean;
      if (o === OP.CHAR) {
        const code = x[pc]!;
        [key, test] = [`c${code}`, (c) => c === code];
      } else if (o === OP.DOT) [key, test] = ["dot", (c) => !isLineTerminator(c)];
      else if (o === OP.ANY) [key, test] = ["any", () => true];
      else if (o === OP.CLASS) {
        const re = p.classes[x[pc]!]!;
        [key, test] = [`r${re.flags}/${re.source}`, (c) => ((re.lastIndex = 0), re.test(String.fromCharCode(c)))];
      } else continue;
      let id = ids.get(key);
      if (id === undefined) {
        id = this.tests.push(test) - 1;
        ids.set(key, id);
      }
      this.testOf[pc] = id;
    }
    this.contextMask = mask;
  }

  /** Classes so far, counting class 0. */
  get classCount(): number {
    return this.accepts.length;
  }

  /** The class of a code unit, classifying it on first sight. */
  classify(c: number): number {
    const known = this.table[c]!;
    if (known !== 0) return known;
    const tests = this.tests;
    const acc = new Uint8Array(tests.length);
    for (let t = 0; t < tests.length; t++) acc[t] = tests[t]!(c) ? 1 : 0;
    const ctx = ((isWordChar(c) ? WORD : 0) | (isLineTerminator(c) ? LINE_END : 0)) & this.contextMask;
    const signature = String.fromCharCode(ctx) + acc.join("");
    let k = this.bySignature.get(signature);
    if (k === undefined) {
      k = this.accepts.push(acc) - 1;
      this.context.push(ctx);
      this.bySignature.set(signature, k);
    }
    this.table[c] = k;
    return k;
  }
}
