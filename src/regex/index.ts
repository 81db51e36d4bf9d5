import { FilterSyntaxError } from "../query/syntax-error.js";
import { RegexAlphabet } from "./alphabet.js";
import { RegexBudget } from "./budget.js";
import { LazyDfa } from "./dfa.js";
import { compileRegexProgram } from "./program.js";
import { parseRegex } from "./syntax.js";
import { PikeVm } from "./vm.js";

/** `(?i)`, `(?s)`, `(?m)` or a mix (`(?is)`) at the very start set JavaScript's i, s and m flags. */
const FLAG_PREFIX = /^\(\?([ims]+)\)/;
const META = /[\\^$.|?*+()[\]{}]/;

/** Tuning and test hooks: the DFA cache's size in 32-bit slots, and the budget's figures. */
export interface LinearRegexOptions {
  cacheSlots?: number;
  stepsPerChar?: number;
  stepSlack?: number;
  /** "dfa" never hands over to the Pike VM, "vm" never uses the DFA (tests compare them). */
  engine?: "auto" | "dfa" | "vm";
}

/**
 * Compiles a user's pattern into a yes/no "does it occur in this string" test whose cost per
 * character is bounded whatever the pattern and the string, so `(a+)+$`, `\s*\s*x` or
 * `([ab]{1,30}){30}c` against a megabyte of hostile log text cannot hang the process. The pattern
 * becomes a Thompson NFA; a lazy DFA built from it runs the string (one table lookup per character
 * once its states are cached); if the DFA's bounded cache thrashes, a Pike VM takes over where it
 * stopped. Both charge their work to a RegexBudget, which throws a LineError past its bound. The
 * syntax is JavaScript's (checked by JS first, so errors read like JS's own) minus backreferences
 * and lookaround.
 */
export function compileLinearRegex(pattern: string, options: LinearRegexOptions = {}): (s: string) => boolean {
  let body = pattern;
  let jsFlags = "";
  const m = FLAG_PREFIX.exec(pattern);
  if (m !== null) {
    body = pattern.slice(m[0].length);
    jsFlags = [...new Set(m[1])].join("");
  }
  try {
    new RegExp(body, jsFlags);
  } catch (err) {
    throw new FilterSyntaxError((err as Error).message.replace(/^Invalid regular expression: /, "invalid regular expression "));
  }
  if (!jsFlags.includes("i") && !META.test(body)) return (s) => s.includes(body);
  const flags = { ignoreCase: jsFlags.includes("i"), dotAll: jsFlags.includes("s"), multiline: jsFlags.includes("m") };
  const program = compileRegexProgram(parseRegex(body, flags), body, flags.dotAll, flags.multiline);
  const alphabet = new RegexAlphabet(program);
  const budget = new RegexBudget(pattern, options.stepsPerChar, options.stepSlack);
  const vm = new PikeVm(program, alphabet, budget);
  if (options.engine === "vm") return (s) => (budget.start(s.length), vm.test(s));
  const dfa = new LazyDfa(program, alphabet, budget, options.cacheSlots, options.engine !== "dfa");
  return (s) => {
    budget.start(s.length);
    const found = dfa.test(s);
    if (found >= 0) return found === 1;
    const stop = dfa.stopped!;
    return vm.test(s, stop.at, stop.pending);
  };
}
