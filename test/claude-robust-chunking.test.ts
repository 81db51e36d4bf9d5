// test-run: scaled
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { test } from "node:test";
import fc from "fast-check";
import { genLog } from "./helpers/gen-events.js";
import { genClaudeLog } from "./helpers/claude-gen.js";
import { claudeFixtures } from "./helpers/claude-fixtures.js";
import { awkwardOffsets, cutsFor, logCommands, runFed, variantsOf, type Chunking, type Feed } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns, scaled, STRESS } from "./helpers/scale.js";

// The promise of robust-chunking.test.ts for Claude Code logs: whatever the chunking of the input
// (1 byte to 64 KiB, cuts inside multi-byte UTF-8 characters and between CR and LF, several
// files, gzip cut anywhere in its compressed bytes), every command that reads logs prints exactly
// the stdout, stderr and exit status it prints for the input in one piece. Claude Code's runs go
// on after their result and their calls span assistant, user and system lines, so what a batch
// ends with matters more than for cursor-agent's: every Claude Code fixture, every command and
// option set, at random and awkward cuts (make stress: 1-, 3- and 7-byte chunks too; make test: a
// third of the commands a fixture, each option set once over the generated logs); generated
// Claude Code logs (test/helpers/claude-gen.ts: both eras, CRLF, BOM, blank lines, pretty-printed
// values, lines after results); and folders mixing them with cursor-agent logs and gzip.
//
// Where records are made, chunking-records.test.ts covers every file under test/fixtures,
// claude/ included (its own walker); logFixtures() (test/helpers/records.ts), which the
// cross-command and timeline tests read, lists test/fixtures/*.ndjson and timeline/ only: this
// file is where the outputs of the Claude Code fixtures are compared across chunkings.

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();
const RUNS_OF = COMMANDS.flatMap((c) => variantsOf(c).map((v) => [c.name, ...v]));
const FIXTURES = claudeFixtures();
/** Each command with no option. */
const PLAIN = COMMANDS.map((c) => [c.name]);
/**
 * make test's share of the option sets in the n-th place that runs them: every other one, in turn
 * (the two generated-log properties below take one half each, so every option set of every command
 * meets a chunked Claude Code log in make test); make stress: all of them everywhere.
 */
const halfOfRuns = (n: number) => (STRESS ? RUNS_OF : RUNS_OF.filter((_, k) => k % 2 === n % 2));

const chunking: fc.Arbitrary<Chunking> = fc.record({
  maxChunk: fc.oneof(fc.constantFrom(2, 3, 7, 64, 4096, 65536), fc.integer({ min: 2, max: 65536 })),
  seed: fc.nat(),
  awkward: fc.boolean(),
});

/** Runs each argv over `files` whole and cut by `cut`, and compares. */
async function sameForEveryCommand(files: Record<string, Buffer>, cut: (name: string, bytes: Buffer) => readonly number[], runs: readonly string[][]): Promise<number> {
  const names = Object.keys(files);
  const whole: Record<string, Feed> = {};
  const chunked: Record<string, Feed> = {};
  for (const n of names) {
    whole[n] = { bytes: files[n]! };
    chunked[n] = { bytes: files[n]!, cuts: cut(n, files[n]!) };
  }
  let n = 0;
  for (const argv of runs) {
    const a = await runFed([...argv, ...names], { files: whole });
    const b = await runFed([...argv, ...names], { files: chunked });
    assert.deepEqual({ stdout: b.stdout, stderr: b.stderr, code: b.code }, { stdout: a.stdout, stderr: a.stderr, code: a.code }, `cursorlog ${argv.join(" ")} ${names.join(" ")}: chunked input gives another output`);
    n++;
  }
  return n;
}

function fixedCuts(bytes: Buffer, size: number): number[] {
  const cuts: number[] = [];
  for (let at = size; at < bytes.length; at += size) cuts.push(at);
  return cuts;
}

test("the harness: the Claude Code fixtures hold cuts worth making", () => {
  assert.equal(FIXTURES.length, 13);
  // Multi-byte characters (cuts inside them), a line over 8 KiB (hooks-first's commands_changed), a run after a result.
  assert.ok(FIXTURES.filter((f) => awkwardOffsets(f.bytes).length > 0).length >= 4);
  assert.ok(FIXTURES.some((f) => f.lines.some((l) => l.length > 8192)));
  assert.ok(FIXTURES.some((f) => f.events.filter((e) => e.type === "result").length > 1));
});

/**
 * The splits of fixture `i`: one seeded split in chunks of 1 to 97 bytes with a cut at every
 * awkward offset; make stress adds 1-, 3- and 7-byte chunks.
 */
function splitsOf(bytes: Buffer, i: number): Array<[string, number[]]> {
  const splits: Array<[string, number[]]> = [["chunks of 1 to 97 bytes, awkward cuts", cutsFor(bytes, { maxChunk: 97, seed: 2700 + i, awkward: true })]];
  if (STRESS) for (const size of [1, 3, 7]) splits.push([`${size}-byte chunks`, fixedCuts(bytes, size)]);
  return splits;
}

test(`every Claude Code fixture split at random and awkward cuts${STRESS ? ", and in 1-, 3- and 7-byte chunks," : ""} gives ${STRESS ? "every command's" : "a third of the commands' (in turn)"} output of the whole file`, { timeout: 1_800_000 }, async () => {
  let n = 0;
  for (const [i, f] of FIXTURES.entries()) {
    for (const [how, cuts] of splitsOf(f.bytes, i)) {
      // 1-byte chunks cost the most (some 40 µs a byte a run): every command with no option. make
      // test runs a third of the commands with no option, in turn (fixture i: the commands whose
      // index is i modulo 3; records at any split are chunking-records'): every option set of every
      // command in make stress.
      const runs = how.startsWith("1-") ? PLAIN : STRESS ? RUNS_OF : PLAIN.filter((_, k) => k % 3 === i % 3);
      n += await sameForEveryCommand({ [f.path]: f.bytes }, () => cuts, runs);
    }
  }
  assert.ok(n >= (STRESS ? FIXTURES.length * RUNS_OF.length : FIXTURES.length * 3), `only ${n} comparisons`);
});

// 1-byte chunks of a whole fixture: make test, the smallest (2.8 KB, ~0.7 s of CPU: the next one,
// 7 KB, cost ~1.8 s more; the generated-log property below cuts 1-byte chunks too); make stress,
// the two smallest here and every fixture above.
const ONE_BYTE = scaled(1, 2);

test(`1-byte chunks of the ${ONE_BYTE === 1 ? "smallest Claude Code fixture" : "two smallest Claude Code fixtures"} (every fixture in make stress, above) change nothing for any command`, { timeout: 600_000 }, async () => {
  const small = [...FIXTURES].sort((a, b) => a.bytes.length - b.bytes.length).slice(0, ONE_BYTE);
  for (const f of small) await sameForEveryCommand({ [f.path]: f.bytes }, (_, b) => fixedCuts(b, 1), COMMANDS.map((c) => [c.name]));
});

test(`property: every command's output${STRESS ? ", with each of its option sets," : ""} over a generated Claude Code log is the same for any chunking (1 byte to 64 KiB, both eras, CRLF, BOM, pretty values, lines after results)`, { timeout: 900_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(genClaudeLog(), chunking, async (log, c) => {
      await sameForEveryCommand({ "gen/claude.ndjson": log.bytes }, (_, b) => cutsFor(b, c), STRESS ? RUNS_OF : PLAIN);
    }),
    { seed: SEED, numRuns: fuzzRuns(1, 30), includeErrorInReport: true },
  );
});

test("property: 1-byte chunks, and cuts at every multi-byte character and CRLF, of generated Claude Code logs change nothing", { timeout: 900_000 }, async () => {
  // make test has two runs: the first cuts at the awkward places, with every other option set (the
  // other half in the folder property below), the second in 1-byte chunks, each command with no
  // option (a byte at a time costs the most).
  let run = 0;
  await fc.assert(
    fc.asyncProperty(genClaudeLog({ maxRuns: scaled(1, 2) }), fc.boolean(), async (log, drawn) => {
      const oneByte = STRESS ? drawn : run++ % 2 === 1;
      const runs = oneByte && !STRESS ? PLAIN : halfOfRuns(0);
      await sameForEveryCommand({ "gen/claude.ndjson": log.bytes }, (_, b) => (oneByte ? fixedCuts(b, 1) : awkwardOffsets(b)), runs);
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 6), includeErrorInReport: true },
  );
});

test("property: a folder of Claude Code and cursor-agent logs, one Claude Code log gzip-compressed, cut anywhere (in the compressed bytes too)", { timeout: 900_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(genClaudeLog({ maxRuns: 2 }), genLog({ maxSessions: 1 }), fc.constantFrom(...FIXTURES.map((f) => ({ ...f, [fc.toStringMethod]: () => `fixture(${f.name})` }))), chunking, chunking, chunking, async (claude, cursor, fixture, ca, cb, cc) => {
      const files = { "mixed/a-claude.ndjson.gz": gzipSync(claude.bytes), "mixed/b-cursor.ndjson": cursor.bytes, [`mixed/c-${fixture.name}`]: fixture.bytes };
      const cut = (name: string, bytes: Buffer) => cutsFor(bytes, name.endsWith(".gz") ? ca : name.includes("cursor") ? cb : cc);
      // make test: the other half of the option sets (the property above runs the first).
      await sameForEveryCommand(files, cut, halfOfRuns(1));
    }),
    { seed: SEED, numRuns: fuzzRuns(1, 8), includeErrorInReport: true },
  );
});
