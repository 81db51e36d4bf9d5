// test-run: scaled
// test-process: own  (it turns V8's RegExp tier-up off: a flag of the whole process)
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import fc from "fast-check";
import { schemaPatternEngine, toRe2Syntax } from "../src/validate/schema/patterns.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";
import { tempDir } from "./helpers/temp-dir.js";

// A user schema's `pattern` (validate --schema) runs on re2js, in linear time, with JavaScript's
// meaning (ECMA-262 with the u flag): checked here against RegExp itself, by property and by hand.
// Runs (test/helpers/scale.ts): a tenth in make test, the full count in make stress
// (CURSORLOG_STRESS=1). FUZZ_RUNS overrides numRuns, FUZZ_SEED the seed (42), like the robust-* tests.

const SEED = FUZZ_SEED;
const PATTERN_RUNS = fuzzRuns(300, 3000);

// V8 compiles a RegExp to bytecode on its first match and again to machine code on a later one
// (tier-up). Some generated patterns cost ~1.6 s to compile each time: the seed's draws hold one,
// (?:\r?\P{L}{2,3}?\p{Letter}{2}b+|…){2}…, matched on two strings, ~3 s of the property's ~4 s.
// Without tier-up a RegExp keeps its bytecode (the same matches, by V8's same engine, in this
// process only; the CLI spawned below is untouched): the second compile is not made.
setFlagsFromString("--no-regexp-tier-up");

/** The characters where JavaScript and RE2 differ, and plain ones. */
const CHARS = ["a", "b", "A", "1", "_", " ", "\n", "\r", "\v", "\t", "\u00a0", "\u2028", "\ufeff", "é", "α", "Ω", "😀", "\ud83d", "-", "[", ":", "\b", "\u0000"];

const atom = fc.constantFrom(
  "a", "b", "A", "1", " ", "-", "é", "😀", ".", "\\.", "\\n", "\\r", "\\v", "\\t", "\\f", "\\0", "\\b", "\\B", "\\cJ", "\\x61", "\\u0062",
  "\\u{1F600}", "\\ud83d\\ude00", "\\ud83d", "\\u2028", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\p{L}", "\\P{L}", "\\p{Letter}",
  "\\p{Lu}", "\\p{Uppercase_Letter}", "\\p{gc=Nd}", "\\p{Script=Greek}", "\\p{sc=Latin}", "\\-", "\\/", "\\[", "\\]", "\\{",
  "[ab]", "[^a]", "[a-c]", "[^\\n]", "[\\s]", "[^\\s]", "[\\S]", "[a\\S]", "[\\s\\S]", "[\\d\\s]", "[]", "[^]", "[é-ê]",
  "[\\b]", "[[:a]", "[\\p{L}\\d]", "[^\\p{L}]", "[😀-😎]", "[\\u{1F600}-\\u{1F64F}]", "[\\-a]", "[\\ud83d]",
);
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "*?", "+?", "{2}", "{0,2}", "{1,}", "{2,3}?");
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string; seq: string; alt: string }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "p" },
    fc.tuple(atom, quantifier).map(([a, q]) => a + q),
    fc.constantFrom("^", "$"),
    fc.tuple(fc.constantFrom("(", "(?:", "(?<n>"), tie("alt"), quantifier).map(([open, inner, q]) => `${open}${inner})${q}`),
  ),
  seq: fc.array(tie("node"), { minLength: 1, maxLength: 4, depthIdentifier: "p" }).map((items) => items.join("")),
  alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3, depthIdentifier: "p" }).map((items) => items.join("|")),
})).alt;
const input = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((cs) => cs.join(""));

function engine(): { compile: (p: string) => { test(s: string): boolean }; warnings: string[] } {
  const warnings: string[] = [];
  const e = schemaPatternEngine((m) => warnings.push(m));
  return { compile: (p) => e(p, "u"), warnings };
}

test("property: schema patterns agree with JavaScript's RegExp (u flag) on random patterns and strings, on re2js", { timeout: 120_000 }, () => {
  let tried = 0;
  let fellBack = 0;
  fc.assert(
    fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 10 }), (src, strings) => {
      let js: RegExp;
      try {
        js = new RegExp(src, "u");
      } catch {
        return; // not a pattern (duplicate group names, a class range out of order, …)
      }
      tried++;
      const { compile, warnings } = engine();
      const p = compile(src);
      if (warnings.length > 0) fellBack++;
      for (const s of strings) assert.equal(p.test(s), js.test(s), `/${src}/u (as ${toRe2Syntax(src)}) on ${JSON.stringify(s)}`);
    }),
    { seed: SEED, numRuns: PATTERN_RUNS, includeErrorInReport: true },
  );
  assert.ok(tried > PATTERN_RUNS * 0.5, `only ${tried} patterns were valid`);
  // Only (?<n>…) twice in one pattern is refused by JS; nothing generated here needs the fallback.
  assert.equal(fellBack, 0);
});

test("schema patterns: where RE2 and JavaScript differ, JavaScript's meaning is kept", () => {
  const { compile, warnings } = engine();
  const cases: Array<[string, string, boolean]> = [
    ["^\\s$", "\v", true], ["^\\s$", "\u00a0", true], ["^\\s$", "\u2028", true], ["^\\s$", "\ufeff", true], ["^\\S$", "\u2028", false],
    ["^.$", "\u2028", false], ["^.$", "\r", false], ["^.$", "😀", true], ["^..$", "😀", false], ["^.$", "\ud83d", true],
    ["^[\\s\\S]$", "\n", true], ["^[a\\S]$", " ", false], ["^[a\\S]$", "b", true], ["[]", "a", false], ["^[^]$", "\n", true],
    ["^[\\b]$", "\b", true], ["\\bx", "x", true], ["^[[:alpha:]+$", "[:a", true], ["^[[:alpha:]+$", "b", false],
    ["^\\p{Letter}+$", "Ωé", true], ["^\\p{Script=Greek}$", "Ω", true], ["^\\p{sc=Greek}$", "a", false], ["^\\u{1F600}$", "😀", true],
    ["^\\ud83d\\ude00$", "😀", true], ["^\\ud83d$", "😀", false], ["^[😀-😎]$", "😃", true], ["^\\cJ$", "\n", true], ["^\\0$", "\0", true],
    ["(?<year>\\d{4})-\\d\\d", "x 2026-11", true], ["^a{2,3}$", "aaaa", false],
  ];
  for (const [p, s, expected] of cases) {
    assert.equal(new RegExp(p, "u").test(s), expected, `RegExp /${p}/u on ${JSON.stringify(s)}`);
    assert.equal(compile(p).test(s), expected, `/${p}/u (as ${toRe2Syntax(p)}) on ${JSON.stringify(s)}`);
  }
  assert.deepEqual(warnings, []);
});

test("schema patterns RE2 cannot run go to JavaScript's RegExp, with one warning each", () => {
  const { compile, warnings } = engine();
  const cases: Array<[string, string, boolean, string]> = [
    ["^(?=.*\\d)[a-z\\d]+$", "abc1", true, "lookaround"],
    ["(?<!x)y", "xy", false, "lookaround"],
    ["^(a)\\1$", "aa", true, "a backreference"],
    ["^(?<c>a)\\k<c>$", "ab", false, "a backreference"],
    ["^[^a\\S]$", " ", true, "\\S inside a negated class"],
    ["^\\p{Emoji}$", "😀", true, "the property \\p{Emoji}"],
    ["^a{1001}$", "a".repeat(1001), true, "re2js: "],
  ];
  for (const [p, s, expected, why] of cases) {
    const before = warnings.length;
    assert.equal(compile(p).test(s), expected, `/${p}/u on ${JSON.stringify(s)}`);
    assert.equal(compile(p).test(s), expected, "twice");
    assert.equal(warnings.length, before + 1, `one warning for /${p}/u: ${warnings.slice(before).join(" | ")}`);
    assert.ok(
      warnings[before]!.startsWith(`pattern /${p}/u runs on JavaScript's backtracking RegExp (${why}`) &&
        warnings[before]!.endsWith("): a hostile value can make validate slow"),
      warnings[before],
    );
  }
  assert.throws(() => compile("a{2,1}"), SyntaxError, "what JavaScript refuses is refused");
  // Patterns are told apart by their text (ajv caches them by toString).
  assert.notEqual(String(compile("a")), String(compile("b")));
});

/** A schema whose `pattern` backtracks for ever in JavaScript on a long run of a's and a "!". */
function hostileSchema(): { dir: string; schema: string; line: string } {
  const dir = tempDir("cursorlog-pattern-");
  const schema = join(dir, "evil.json");
  writeFileSync(schema, JSON.stringify({ type: "object", properties: { text: { type: "string", pattern: "^(a+)+$" } } }));
  return { dir, schema, line: JSON.stringify({ type: "assistant", text: "a".repeat(40) + "!" }) };
}

test("validate --schema: a pattern that backtracks catastrophically on a value answers at once (it ran for 2^40 steps)", { timeout: 30_000 }, () => {
  const { schema, line } = hostileSchema();
  // A child process with a bound: before the fix the pattern blocked its thread for hours.
  const input = line + "\n" + JSON.stringify({ type: "assistant", text: "aaa" }) + "\n";
  const got = spawnSync("node", ["bin/cursorlog.js", "validate", "--no-lifecycle", "--schema", schema, "-"], { input, encoding: "utf8", timeout: 15_000, env: { ...process.env, NO_COLOR: "1" } });
  assert.equal(got.signal, null, "ended by itself");
  assert.equal(got.stderr, "");
  assert.equal(got.status, 1);
  assert.equal(got.stdout, '<stdin>:1: /text: must match pattern "^(a+)+$" (pattern)\nchecked 2 lines in 1 file: 1 valid, 1 invalid; 1 error, 0 warnings\n');
});

for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  test(`bin: validate --schema with a catastrophic pattern on hostile lines: ${signal} takes effect (exit ${status})`, { timeout: 20_000 }, async (t) => {
    const { schema, line } = hostileSchema();
    const child = spawn("node", ["bin/cursorlog.js", "validate", "--schema", schema, "-"], { env: { ...process.env, NO_COLOR: "1" }, stdio: ["pipe", "pipe", "pipe"] });
    t.after(() => child.kill("SIGKILL"));
    let out = "";
    child.stdout.setEncoding("utf8");
    // The first line's diagnostic: the pattern has answered (with RegExp it never would).
    const answered = new Promise<void>((resolve) => child.stdout.on("data", (d: string) => ((out += d), out.includes("must match pattern") && resolve())));
    child.stdin.write(line + "\n");
    await answered;
    // Hostile lines keep coming; the signal must still be heard between them.
    child.stdin.write((line + "\n").repeat(100));
    child.kill(signal);
    const code = await new Promise((resolve) => child.on("close", (c) => resolve(c)));
    assert.equal(code, status);
  });
}
