import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FilterSyntaxError } from "../src/query/syntax-error.js";
import { compileLinearRegex } from "../src/regex/index.js";
import { RegexBudget, STEP_SLACK, STEPS_PER_CHAR } from "../src/regex/budget.js";
import { LineError } from "../src/input/line-error.js";
import { runCli } from "./helpers/run-cli.js";

const PATTERNS = [
  "a", "ab|cd", "^a", "a$", "(a|b)*c", "a{2,3}", "a{2}", "a{2,}", "x*", "^$", "\\bfoo\\b", "\\Bo", "[a-c]+d", "[^a]",
  ".", "a.c", "(?:ab)+$", "(?<n>a)b", "\\d+\\.\\d", "\\s\\S", "[]", "[^]", "a{", "\\x41", "\\u0041", "\\cJ", "\\0",
  "a?b??c", "(a*)*b", "(a|)+b", "^(a|ab)(c|bcd)(d*)$", "colou?r", "\\/", "\\w+@\\w+", "x{0,0}y", "(ab|a)(bc|c)",
  "[\\]a]", "[a-]", "\\W", "\\D+$", "é", "^npm (test|run)", "\\t", "a|", "|",
];
const INPUTS = [
  "", "a", "b", "ab", "abc", "aab", "aaab", "cd", "xcd", "foo bar", "afoo", "1.5", "A", "\n", "a\nb", "x\ny", "aaa", "abcd",
  "{x", "a{", "\u0000", "ba", "colour", "color", "me@host", "y", "abbcd", "a/b", "]", "-", "É", "é", "npm test", "a\tb",
];

describe("compileLinearRegex agrees with JavaScript's RegExp.test", () => {
  for (const flags of ["", "i", "s", "m", "im"]) {
    test(`fixed patterns, flags "${flags}"`, () => {
      for (const p of PATTERNS) {
        const js = new RegExp(p, flags);
        const linear = compileLinearRegex(flags ? `(?${flags})${p}` : p);
        for (const s of [...INPUTS, ...INPUTS.map((v) => v.toUpperCase())]) {
          assert.equal(linear(s), js.test(s), `/${p}/${flags} on ${JSON.stringify(s)}`);
        }
      }
    });
  }

  test("random patterns over a small alphabet", () => {
    const atoms = ["a", "b", "c", "(", ")", "|", "*", "+", "?", ".", "^", "$", "[ab]", "\\b", "{1,2}", "(?:", "\\s"];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let tried = 0;
    for (let k = 0; k < 5000; k++) {
      let p = "";
      for (let i = 1 + rnd(8); i > 0; i--) p += atoms[rnd(atoms.length)];
      let js: RegExp;
      try {
        js = new RegExp(p);
      } catch {
        continue;
      }
      tried++;
      const linear = compileLinearRegex(p);
      for (let t = 0; t < 8; t++) {
        let s = "";
        for (let i = rnd(7); i > 0; i--) s += "abc \n"[rnd(5)];
        assert.equal(linear(s), js.test(s), `/${p}/ on ${JSON.stringify(s)}`);
      }
    }
    assert.ok(tried > 2000);
  });
});

describe("the regex guard", () => {
  test("what cannot run in linear time is refused, saying why", () => {
    const refused = (p: string, msg: RegExp) =>
      assert.throws(() => compileLinearRegex(p), (e: unknown) => e instanceof FilterSyntaxError && msg.test(e.message));
    refused("(a)\\1", /^regular expression \/\(a\)\\1\/: a backreference \(\\1\) at column 4 is not supported \(patterns are matched in linear time\)$/);
    refused("(?<x>a)\\k<x>", /named backreference/);
    refused("(?=a)", /lookaround at column 1/);
    refused("(?!a)", /lookaround/);
    refused("(?<=a)b", /lookaround/);
    refused("(?<!a)b", /lookaround/);
    refused("a{1001}", /a repeat count above 1000/);
    refused("(a{50}){50}", /too large once its repeats are expanded \(more than 2000 steps\)/);
    refused("(", /^invalid regular expression \/\(\/: /);
    refused("(?i)[b-a]", /^invalid regular expression /);
  });

  test("groups nested more than 1000 deep are refused with a message, not a stack overflow; 1000 levels work", () => {
    const nest = (n: number, open = "(", close = ")") => open.repeat(n) + "a" + close.repeat(n);
    for (const [open, close] of [["(", ")"], ["(?:", ")"], ["(?:b|", ")"], ["(?:", "){1}"], ["(?:", ")*"]]) {
      // (JavaScript itself refuses 100,000 capturing groups: "Too many captures".)
      for (const n of open === "(" ? [1001, 3000] : [1001, 3000, 100_000]) {
        assert.throws(
          () => compileLinearRegex(nest(n, open, close)),
          (e: unknown) => e instanceof FilterSyntaxError && new RegExp(`: groups nested more than 1000 deep \\(at column ${1000 * open.length + 1}\\) are not supported$`).test(e.message),
          `${open}…${close} × ${n}`,
        );
      }
    }
    for (const [open, close] of [["(", ")"], ["(?:", ")"], ["(?:", "){1}"], ["(?<g>", ")"]]) {
      const src = open === "(?<g>" ? Array.from({ length: 1000 }, (_, i) => `(?<g${i}>`).join("") + "a" + ")".repeat(1000) : nest(1000, open, close);
      const matches = compileLinearRegex(src);
      assert.deepEqual([matches("xa"), matches("b")], [true, false], `${open}…${close} × 1000`);
    }
  });

  test("through the CLI: --where '~' with 3,000 nested groups is refused, status 2 (was a RangeError, status 1)", async () => {
    const pattern = "(".repeat(3000) + "a" + ")".repeat(3000);
    const got = await runCli(["filter", "-c", "--where", `text ~ ${pattern}`], { stdin: '{"type":"x","text":"a"}\n' });
    assert.equal(got.code, 2, got.stderr.slice(0, 300));
    assert.equal(got.stdout, "");
    assert.ok(got.stderr.startsWith("cursorlog: error: option '--where <clause>' argument 'text ~ ((("), got.stderr.slice(0, 300));
    assert.ok(got.stderr.includes(")))/: groups nested more than 1000 deep (at column 1001) are not supported"), got.stderr.slice(-300));
    assert.doesNotMatch(got.stderr, /RangeError|Maximum call stack/);
  });

  // These take seconds to hours in a backtracking engine (\s*\s*x: ~17 s on 4 KiB of spaces with V8),
  // and a few dozen milliseconds here; the bound is loose so that a machine shared with other test
  // files (or a slow CI runner) never trips it, while a backtracking (or quadratic) engine still would.
  const HOSTILE_BOUND_MS = 30_000;
  const HOSTILE: Array<[string, string]> = [
    ["(a+)+$", "a".repeat(1 << 20) + "!"],
    ["^(a|a)*$", "a".repeat(1 << 20) + "!"],
    ["\\s*\\s*\\s*x", " ".repeat(1 << 20)],
    [".*a.*z", "abcdefgh ijk\tlmn".repeat(1 << 16)],
    ["(x+x+)+y", "x".repeat(1 << 20)],
  ];
  for (const [pattern, input] of HOSTILE) {
    test(`/${pattern}/ against ${input.length} hostile chars finishes quickly`, () => {
      const t0 = performance.now();
      assert.equal(compileLinearRegex(pattern)(input), false);
      assert.ok(performance.now() - t0 < HOSTILE_BOUND_MS, `took ${Math.round(performance.now() - t0)} ms`);
    });
  }

  // Log-like text where "error" and "timeout" are dense: the DFA of `error.{0,200}timeout` would
  // need a state per combination of the offsets since each "error" (and thrash, leaving the Pike
  // VM ~65 steps a character) but for the pruning of redundant threads in counted repeats.
  const words = ["error", "the", "retry", "connection", "failed", "at", "line", "42", "error:", "x", "\n", "timeout", "Error", "0x1f"];
  let seed = 5;
  let log = "";
  while (log.length < 1 << 20) log += words[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % words.length] + " ";
  const REALISTIC = [
    "error.{0,100}timeoutx",
    "(?i)error.{0,200}(timeout|refused)!",
    "(error|fail).{0,300}(timeout|refused)x",
    "\\b(fail|error)\\w*\\b.*\\bline \\d+\\b:",
    "(?m)^\\s*at .{0,80}\\(.*:\\d+\\)$",
    "(?i)[a-z0-9._%+-]+@(?:[a-z0-9-]+\\.)+[a-z]{2,}",
    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    "(?:\\w+\\s+){3,12}timeout\\s+\\d{3,}",
    "\\d{1,3}(\\.\\d{1,3}){3}",
  ];
  test("realistic patterns on a megabyte of dense log text stay far from the budget (2 steps a character, not 32)", () => {
    for (const pattern of REALISTIC) {
      const js = new RegExp(pattern.replace(/^\(\?[im]\)/, ""), /^\(\?([im])\)/.exec(pattern)?.[1] ?? "");
      const matches = compileLinearRegex(pattern, { stepsPerChar: 2, stepSlack: 1 << 20 });
      for (const s of [log, log + "x"]) assert.equal(matches(s), js.test(s), `/${pattern}/`);
    }
  });

  test("the budget: a pattern too costly for a string throws a LineError saying so", () => {
    const s = "ab".repeat(5000) + "ba".repeat(5000);
    const costly = compileLinearRegex("[ab]*a[ab]{600}c", { stepsPerChar: 8, stepSlack: 10_000 });
    assert.throws(
      () => costly(s),
      (e: unknown) =>
        e instanceof LineError &&
        e.message === "regular expression /[ab]*a[ab]{600}c/ is too costly on this line: a string of 20000 characters needs more than 8 steps per character (the pattern has too many states to cache; simplify it)",
    );
    // The same pattern within the default budget answers.
    assert.equal(compileLinearRegex("[ab]*a[ab]{600}c")(s), false);
    assert.equal(STEPS_PER_CHAR, 32);
    assert.equal(STEP_SLACK, 2 ** 26);
  });

  test("the budget: credit left by cheap strings carries over up to the slack, no further", () => {
    const budget = new RegexBudget("p", 10, 100);
    for (let i = 0; i < 1000; i++) budget.start(99); // 1000 strings that cost nothing: still 100 carried over
    budget.start(9); // + 10 × 10
    budget.spend(200);
    assert.throws(() => budget.spend(1), LineError);
    budget.start(0); // a string of no character: 10 steps
    budget.spend(10);
    assert.throws(() => budget.spend(1), /a string of 0 characters needs more than 10 steps per character/);
  });

  test("through the CLI: --where '~ (a+)+$' on a line with a megabyte of a's answers quickly", async () => {
    const line = JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "a".repeat(1 << 20) + "!" }] } });
    const t0 = performance.now();
    const got = await runCli(["filter", "-c", "--where", "message.content[0].text ~ (a+)+$"], { stdin: line + "\n" + line + "\n" });
    assert.deepEqual(got, { stdout: "0\n", stderr: "", code: 0 });
    assert.ok(performance.now() - t0 < HOSTILE_BOUND_MS, `took ${Math.round(performance.now() - t0)} ms`);
  });
});
