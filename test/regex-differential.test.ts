// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { FilterSyntaxError } from "../src/query/syntax-error.js";
import { compileLinearRegex, type LinearRegexOptions } from "../src/regex/index.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";

// Differential test of the regex engines against JavaScript's own RegExp: random patterns from
// the supported syntax (literals, classes, escapes, `.`, assertions, groups, alternation, every
// quantifier, lazy or not) with random flags, over random strings. Each engine must agree with
// RegExp.test: the default (lazy DFA, Pike VM when it thrashes), the DFA alone with a cache so
// small it is flushed at almost every character, the Pike VM alone, and the DFA handing over to
// the VM mid-string (a tiny cache makes it give up early, at any position). On long strings,
// where RegExp could backtrack for ever, the DFA is compared with the Pike VM.
//
// Runs (test/helpers/scale.ts): a tenth in make test, the full count in make stress
// (CURSORLOG_STRESS=1). FUZZ_RUNS overrides numRuns, FUZZ_SEED the seed (42), like the robust-* tests.

const SEED = FUZZ_SEED;
const PATTERN_RUNS = fuzzRuns(300, 3000);

const ENGINES: Record<string, LinearRegexOptions> = {
  default: {},
  "dfa, flushed constantly": { engine: "dfa", cacheSlots: 64 },
  "pike vm": { engine: "vm" },
  "dfa then vm": { cacheSlots: 200 },
};

const CHARS = ["a", "b", "c", "A", "_", "1", " ", "\n", "-", "é", "\u2028"];

/** What a quantifier may follow: one character of input. */
const charAtom = fc.constantFrom(
  "a", "b", "c", "A", "1", " ", "-", "é", ".", "\\.", "\\n", "\\x61", "\\u0062", "\\t",
  "[ab]", "[^a]", "[a-c]", "[^\\n]", "[A-Z_]", "[\\d\\s]", "[]", "[^]", "[é-ê]",
  "\\d", "\\D", "\\w", "\\W", "\\s", "\\S",
);
const assertion = fc.constantFrom("^", "$", "\\b", "\\B");
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{2,3}?", "{0}");

/** A pattern source: a tree of groups, concatenations and alternations over the atoms. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string; seq: string; alt: string }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "re" },
    fc.tuple(charAtom, quantifier).map(([a, q]) => a + q),
    assertion,
    fc.tuple(fc.constantFrom("(", "(?:"), tie("alt"), quantifier).map(([open, inner, q]) => `${open}${inner})${q}`),
  ),
  seq: fc.array(tie("node"), { minLength: 1, maxLength: 4, depthIdentifier: "re" }).map((items) => items.join("")),
  alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3, depthIdentifier: "re" }).map((items) => items.join("|")),
})).alt;

const input = fc.array(fc.constantFrom(...CHARS), { maxLength: 16 }).map((cs) => cs.join(""));

test("property: every regex engine agrees with JavaScript's RegExp.test on random patterns and strings", { timeout: 120_000 }, () => {
  let tried = 0;
  let compared = 0;
  let matched = 0;
  fc.assert(
    fc.property(pattern, fc.constantFrom("", "i", "s", "m", "im", "is", "ms"), fc.array(input, { minLength: 1, maxLength: 12 }), (src, flags, strings) => {
      let js: RegExp;
      try {
        js = new RegExp(src, flags);
      } catch {
        return; // not JavaScript ({2,1}, …): refused before any engine runs
      }
      tried++;
      const full = flags === "" ? src : `(?${flags})${src}`;
      const expected = strings.map((s) => js.test(s)); // once: RegExp itself may backtrack a while
      for (const [name, options] of Object.entries(ENGINES)) {
        let matches: (s: string) => boolean;
        try {
          matches = compileLinearRegex(full, options);
        } catch (err) {
          if (err instanceof FilterSyntaxError && /too large/.test(err.message)) return;
          throw err;
        }
        strings.forEach((s, i) => {
          assert.equal(matches(s), expected[i], `${name}: /${src}/${flags} on ${JSON.stringify(s)}`);
          compared++;
          if (expected[i]) matched++;
        });
      }
    }),
    { seed: SEED, numRuns: PATTERN_RUNS, includeErrorInReport: true },
  );
  // The generator is useful: most patterns are JavaScript, and both answers are common.
  assert.ok(tried > PATTERN_RUNS * 0.8, `only ${tried} patterns were valid`);
  assert.ok(matched > compared * 0.2 && matched < compared * 0.8, `${matched} of ${compared} strings matched`);
});

/** X then a counted repeat then Y: the shape where threads that entered the repeat at different times meet in it. */
const countedRepeat = fc
  .tuple(
    fc.constantFrom("a", "b", "^", "\\b", "(?:ab|c)", "[bc]", ""),
    fc.oneof(charAtom, fc.constantFrom("(?:ab|a)", "(?:(?:a|b)+)", "(a?b)", "(?:[ab]c?)")),
    fc.integer({ min: 0, max: 4 }),
    fc.integer({ min: 0, max: 4 }),
    fc.constantFrom("", "?"),
    fc.constantFrom("b", "c", "$", "\\b", "(?:c|ab)", "[ac]{2}", ""),
  )
  .map(([x, body, min, extra, lazy, y]) => `${x}${body}{${min},${min + extra}}${lazy}${y}`);

test("property: counted repeats (threads entering a {n,m} at different times) agree with RegExp", { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(countedRepeat, fc.array(fc.array(fc.constantFrom("a", "b", "c", " "), { maxLength: 24 }), { minLength: 1, maxLength: 12 }), (src, strings) => {
      const js = new RegExp(src);
      for (const [name, options] of Object.entries(ENGINES)) {
        const matches = compileLinearRegex(src, options);
        for (const cs of strings) {
          const t = cs.join("");
          assert.equal(matches(t), js.test(t), `${name}: /${src}/ on ${JSON.stringify(t)}`);
        }
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(200, 2000), includeErrorInReport: true },
  );
});

test("property: on long strings the DFA agrees with the Pike VM (its cache flushed, handed over mid-string)", { timeout: 120_000 }, () => {
  // RegExp itself may backtrack for ever on a long string: the Pike VM, checked above, is the oracle.
  fc.assert(
    fc.property(pattern, fc.constantFrom("", "i", "m"), fc.array(fc.constantFrom(...CHARS.slice(0, 8)), { minLength: 200, maxLength: 2000 }), (src, flags, cs) => {
      const full = flags === "" ? src : `(?${flags})${src}`;
      let oracle: (s: string) => boolean;
      try {
        oracle = compileLinearRegex(full, ENGINES["pike vm"]);
      } catch {
        return; // not JavaScript, or too large
      }
      const s = cs.join("");
      const strings = [s, s.slice(100), s + "c", "c" + s];
      const expected = strings.map(oracle);
      for (const [name, options] of Object.entries(ENGINES)) {
        const matches = compileLinearRegex(full, options);
        strings.forEach((t, i) => assert.equal(matches(t), expected[i], `${name}: /${src}/${flags} on ${JSON.stringify(t.slice(0, 80))}…`));
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(30, 300), includeErrorInReport: true },
  );
});

test("the DFA after the Pike VM has met new character classes (found by a FUZZ_RUNS=30000 run)", () => {
  // The DFA hands over after one character; the VM then classifies the rest of each string, so
  // the shared alphabet outgrows the DFA's table stride (8) between two DFA tests.
  const src = "((\\d{2,3}?|.a|\\Wa??){2}|\\na|[A-Z_]éa)";
  const js = new RegExp(src);
  const matches = compileLinearRegex(src, ENGINES["dfa then vm"]);
  for (const s of ["\u2028", "_\n", "-", "aéc1", "1", "1a", "1\n", ""]) assert.equal(matches(s), js.test(s), JSON.stringify(s));
});
