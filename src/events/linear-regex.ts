import { FilterSyntaxError } from "./filter-syntax-error.js";
import { RegexAlphabet } from "./regex-alphabet.js";
import { RegexBudget } from "./regex-budget.js";
import { compileRegexProgram } from "./regex-program.js";
import { parseRegex } from "./regex-syntax.js";
import { PikeVm } from "./regex-vm.js";

/** `(?i)`, `(?s)`, `(?m)` or a mix (`(?is)`) at the very start set JavaScript's i, s and m flags. */
const FLAG_PREFIX = /^\(\?([ims]+)\)/;
const META = /[\\^$.|?*+()[\]{}]/;

/** Test hooks: the budget's figures. */
export interface LinearRegexOptions {
  stepsPerChar?: number;
  stepSlack?: number;
}

/**
 * Compiles a user's pattern into a yes/no "does it occur in this string" test that runs in time
 * linear in the string (times the pattern size), whatever the pattern and the string: a Pike VM
 * over a Thompson NFA instead of JS's backtracking engine, so `(a+)+$` or `\s*\s*x` against a
 * megabyte of hostile log text cannot hang the process. Its work is charged to a RegexBudget,
 * which throws a LineError past its bound. The syntax is JavaScript's (checked by JS first, so
 * errors read like JS's own) minus backreferences and lookaround.
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
  return (s) => {
    budget.start(s.length);
    return vm.test(s);
  };
}
