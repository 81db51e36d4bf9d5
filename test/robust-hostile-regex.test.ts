// test-run: alone
import assert from "node:assert/strict";
import { test } from "node:test";
import { runFed, show, type RunResult } from "./helpers/run-chunks.js";

// Hostile logs, continued (robust-hostile.test.ts): a user's regex (filter --where 'PATH ~ RE')
// cannot hang on a hostile line. Each case is timed, against a bound taken from a trivial
// pattern's run over the same lines just before: a timing cannot share the machine, so this file
// runs alone (scripts/run-tests.mjs). The lines are 1 MiB at any scale: the guard's budget (32
// steps per character plus 2^26 per line) is passed only on lines that long.

/** Patterns that take a backtracking engine exponential or high-polynomial time on the right text. */
const EVIL = ["(a+)+$", "(a|a)*$", "(a|aa)+$", "(.*a){12}$", "^(\\w+\\s?)*$", "(x+x+)+y", "\\s*\\s*\\s*\\s*z", "(a*)*b", "([a-z]+)*\\d$", "(.*){1,32000}x"];

test("filter --where '~': the guard is documented, and hostile patterns on hostile lines finish in linear time", { timeout: 120_000 }, async () => {
  const help = (await runFed(["filter", "--help"])).stdout;
  assert.match(help, /runs\s+in\s+linear\s+time/, "filter --help documents the guard");
  assert.match(help, /counts\s+up\s+to\s+\{1000\},\s+at\s+most\s+2000\s+steps\s+once\s+repeats\s+are\s+expanded\s+\(else\s+exit\s+status\s+2\)/, "and its compile-time limits");
  assert.match(help, /Groups\s+nested\s+more\s+than\s+1000\s+deep\s+are\s+refused\s+too\s+\(exit\s+status\s+2\)/, "and the nesting limit");
  assert.match(help, /at\s+most\s+32\s+steps\s+of\s+work\s+per\s+character\s+tested,\s+plus\s+2\^26\s+per\s+line;\s+a\s+line\s+that\s+needs\s+more/, "and its budget");
  assert.match(help, /reported\s+like\s+an\s+invalid\s+line:\s+exit\s+status\s+5,\s+or\s+skipped\s+with\s+--lenient/, "and what happens past it");
  const texts = ["a".repeat(1 << 18) + "!", "ab".repeat(1 << 17), " ".repeat(1 << 18), "x".repeat(1 << 18)];
  const bytes = Buffer.from(texts.map((t) => JSON.stringify({ type: "assistant", text: t })).join("\n") + "\n");
  const bound = await boundFor(bytes, 5000);
  for (const re of EVIL) {
    const t0 = performance.now();
    const r = await runFed(["filter", "-c", "--where", `text ~ ${re}`, "-"], { stdin: { bytes }, timeoutMs: 30_000 });
    const ms = performance.now() - t0;
    assert.ok(r.code === 0 || (r.code === 2 && /regular expression/.test(r.stderr)), `/${re}/: exit ${r.code} ${r.stderr}`);
    assert.ok(ms < bound, `/${re}/ on 1 MiB of hostile text took ${Math.round(ms)} ms (bound ${Math.round(bound)} ms)`);
  }
});

/** Lines of `text` events, one per string. */
function textLines(...texts: string[]): Buffer {
  return Buffer.from(texts.map((t) => JSON.stringify({ type: "assistant", text: t })).join("\n") + "\n");
}

/** `filter -c --where 'text ~ RE'` over the lines, timed. */
async function countMatches(re: string, bytes: Buffer, extra: string[] = []): Promise<RunResult & { ms: number }> {
  const t0 = performance.now();
  const r = await runFed(["filter", "-c", ...extra, "--where", `text ~ ${re}`, "-"], { stdin: { bytes }, timeoutMs: 60_000 });
  return { ...r, ms: performance.now() - t0 };
}

/** a and b at random (a fixed seed): the text on which a DFA for "an a, then n characters" meets a new state at almost every character. */
function randomAB(n: number, seed = 1): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out.push(seed & 1024 ? "a" : "b");
  }
  return out.join("");
}

const KIB = 1 << 10;
const MIB = 1 << 20;

// The time bounds below hold on a developer's machine with room to spare (each case takes 10-90 ms
// in-process; the Pike VM alone, before the lazy DFA, took 3-4 s for the 64 KiB case and 40-46 s
// for the 1 MiB one). A loaded CI machine slows everything, so a bound is the larger of a fixed
// floor and SLOWER times the run of a trivial pattern (`c$`) over the same lines, measured just
// before the case. Each case also checks the answer, on a line that matches and one that does not.
const SLOWER = 10;

/** The time bound for a case over `bytes`: at least `floorMs`, or SLOWER times a trivial pattern's run. */
async function boundFor(bytes: Buffer, floorMs: number): Promise<number> {
  const r = await countMatches("c$", bytes);
  assert.equal(r.code, 0, r.stderr);
  return Math.max(floorMs, SLOWER * r.ms);
}

test("filter --where '~': a large pattern within the guard's limit ends in bounded time, on 64 KiB and on 1 MiB lines", { timeout: 120_000 }, async () => {
  for (const [size, floor] of [[64 * KIB, 500], [MIB, 3000]] as const) {
    const hostile = "ab".repeat(size / 2);
    const bytes = textLines(hostile + "!", hostile.slice(0, 900) + "c");
    const bound = await boundFor(bytes, floor);
    const r = await countMatches("([ab]{1,30}){30}c", bytes);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "1\n", ""], `${size} bytes`);
    assert.ok(r.ms < bound, `([ab]{1,30}){30}c took ${Math.round(r.ms)} ms on ${size / KIB} KiB (bound ${Math.round(bound)} ms)`);
  }
});

/**
 * Patterns whose NFA has hundreds to ~2000 steps, each with a hostile 1 MiB text it does not match
 * and a short text it matches (checked with RegExp: that text is one its greedy first try matches,
 * or RegExp itself would backtrack for minutes).
 */
const BLOW_UP: Array<[what: string, re: string, hostile: string, matching: string]> = [
  ["nested counted repeats", "(a{1,30}){30}b", "a".repeat(MIB), "a".repeat(900) + "b"],
  ["nested counted repeats of a class", "(?:(?:[a-z]{1,8}\\d?){1,8}){1,8}#", "abcdefgh1".repeat(MIB / 9), "x1y#"],
  ["a large alternation, repeated", `(?:${"abcdefghijklmnopqrstuvwxyz".split("").map((c) => c + "|" + c + c).join("|")}){7}!`, "abcdefghijklmnopqrstuvwxyz".repeat(MIB / 26), "abccdefg!"],
  ["(a|aa)* style", "(a|aa)*(a|aa)*(aa|a)*c", "a".repeat(MIB), "aac"],
  ["classes with many ranges", "([a-cx-zA-C0-3_\\-\\.\\u00e0-\\u00ff\\u0400-\\u04ff]{1,20}){20}#", "ax0_-.\u00e9\u0416".repeat(MIB / 8), "ax0_-.\u00e9\u0416".repeat(50) + "#"],
  ["case-insensitive many-range classes", "(?i)([k-q\\u0100-\\u017f]{1,25}){25}#", "KlMnOpQ\u0101\u0130".repeat(MIB / 9), "kLmN\u0100".repeat(125) + "#"],
  ["word boundaries", "\\b(\\w+\\s?){1,50}\\bz\\b", "ab ".repeat(MIB / 3), "ab z"],
  ["unbounded dots with a line end", "(.*a){20}$", "a".repeat(MIB) + "!", "a".repeat(20)],
];

for (const [what, re, hostile, matching] of BLOW_UP) {
  test(`filter --where '~': ${what} (${re.length > 40 ? re.slice(0, 40) + "…" : re}) on a 1 MiB hostile line ends in bounded time`, { timeout: 120_000 }, async () => {
    const ignoreCase = re.startsWith("(?i)");
    assert.ok(new RegExp(ignoreCase ? re.slice(4) : re, ignoreCase ? "i" : "").test(matching), `/${re}/ matches ${show(matching)}`);
    const bytes = textLines(hostile, matching);
    const bound = await boundFor(bytes, 3000);
    const r = await countMatches(re, bytes);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "1\n", ""], `/${re}/`);
    assert.ok(r.ms < bound, `/${re}/ took ${Math.round(r.ms)} ms on a 1 MiB line (bound ${Math.round(bound)} ms)`);
  });
}

// The hard bound: a pattern whose DFA has too many states to cache on this text (an `a`, then
// exactly n characters) runs on the Pike VM, hundreds of steps per character; past the budget
// (32 steps per character plus 2^26) its line is reported as one cursorlog cannot process.
const THRASH: Array<[re: string, matching: string]> = [
  ["[ab]*a[ab]{600}c", "a" + "b".repeat(600) + "c"],
  ["(?:a|b)*a(?:a|ab|b|ba){100}c", "a" + "b".repeat(100) + "c"],
];

for (const [re, matching] of THRASH) {
  test(`filter --where '~ ${re}': too costly on a 1 MiB line, reported at that line in bounded time (status 5; --lenient goes on)`, { timeout: 120_000 }, async () => {
    assert.ok(new RegExp(re).test(matching));
    const bytes = textLines(matching, randomAB(MIB), matching);
    const message = `regular expression /${re}/ is too costly on this line: a string of ${MIB} characters needs more than 32 steps per character (the pattern has too many states to cache; simplify it)`;
    const bound = await boundFor(bytes, 3000);
    const strict = await countMatches(re, bytes);
    assert.deepEqual([strict.code, strict.stdout, strict.stderr], [5, "", `cursorlog: error (at <stdin>:2): ${message}\n`]);
    assert.ok(strict.ms < bound, `/${re}/ took ${Math.round(strict.ms)} ms to give up on a 1 MiB line (bound ${Math.round(bound)} ms)`);
    const lenient = await countMatches(re, bytes, ["--lenient"]);
    assert.deepEqual([lenient.code, lenient.stdout, lenient.stderr], [5, "2\n", `cursorlog: ignoring invalid line (at <stdin>:2): ${message}\n`]);
    assert.ok(lenient.ms < bound, `/${re}/ took ${Math.round(lenient.ms)} ms with --lenient (bound ${Math.round(bound)} ms)`);
  });
}

