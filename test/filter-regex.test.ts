import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FilterSyntaxError } from "../src/events/filter-syntax-error.js";
import { compileLinearRegex } from "../src/events/linear-regex.js";
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

  // These take seconds to hours in a backtracking engine (\s*\s*x: ~17 s on 4 KiB of spaces with V8).
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
      assert.ok(performance.now() - t0 < 5000, `took ${Math.round(performance.now() - t0)} ms`);
    });
  }

  test("through the CLI: --where '~ (a+)+$' on a line with a megabyte of a's answers quickly", async () => {
    const line = JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "a".repeat(1 << 20) + "!" }] } });
    const t0 = performance.now();
    const got = await runCli(["filter", "-c", "--where", "message.content[0].text ~ (a+)+$"], { stdin: line + "\n" + line + "\n" });
    assert.deepEqual(got, { stdout: "0\n", stderr: "", code: 0 });
    assert.ok(performance.now() - t0 < 10000);
  });
});
