// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { byteSource } from "../src/input/byte-source.js";
import { genLog } from "./helpers/gen-events.js";
import { awkwardOffsets, cutsFor, logCommands, pieces, pieceStream, runFed, variantsOf, type Chunking, type Feed } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns, scaled, STRESS } from "./helpers/scale.js";

// Property: whatever the chunking of the input (1 byte to 64 KiB, cuts inside multi-byte UTF-8
// characters and between CR and LF), every command that reads logs prints exactly the same
// stdout, stderr and exit status as for the input in one piece. Commands are taken from the
// program's own command table, so a new one is covered as soon as it is added.
//
// Runs (test/helpers/scale.ts): make test runs each property a few times, each run through half
// of the option sets in turn; make stress (CURSORLOG_STRESS=1) at full count, every option set.
// FUZZ_RUNS overrides every numRuns below (e.g. FUZZ_RUNS=5000 for a by-hand run); FUZZ_SEED the
// seed (default 42), so a failure seen in CI replays exactly.

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();
const RUNS_OF = COMMANDS.flatMap((c) => variantsOf(c).map((v) => [c.name, ...v]));
/**
 * The option sets the n-th run of a property goes through: make stress, all of them; make test,
 * every other one, in turn (the chunking property's one run, the first half; the awkward-cut run,
 * the second; the gzip property's, the first), so every option set of every command still meets
 * chunked input.
 */
const halfOfRuns = (n: number) => (STRESS ? RUNS_OF : RUNS_OF.filter((_, k) => k % 2 === n % 2));

/** Chunk sizes up to 64 KiB (1-byte chunks have a property of their own below: they cost the most). */
const chunking: fc.Arbitrary<Chunking> = fc.record({
  maxChunk: fc.oneof(fc.constantFrom(2, 3, 7, 64, 4096, 65536), fc.integer({ min: 2, max: 65536 })),
  seed: fc.nat(),
  awkward: fc.boolean(),
});

async function sameForEveryCommand(files: Record<string, Buffer>, cut: (name: string, bytes: Buffer) => readonly number[], runs = RUNS_OF): Promise<void> {
  const names = Object.keys(files);
  const whole: Record<string, Feed> = {};
  const chunked: Record<string, Feed> = {};
  for (const n of names) {
    whole[n] = { bytes: files[n]! };
    chunked[n] = { bytes: files[n]!, cuts: cut(n, files[n]!) };
  }
  for (const argv of runs) {
    const a = await runFed([...argv, ...names], { files: whole });
    const b = await runFed([...argv, ...names], { files: chunked });
    assert.deepEqual(
      { stdout: b.stdout, stderr: b.stderr, code: b.code },
      { stdout: a.stdout, stderr: a.stderr, code: a.code },
      `cursorlog ${argv.join(" ")}: chunked input gives another output`,
    );
  }
}

test("the harness: the commands that read logs are found from the program, and include the five of the issue", () => {
  const names = COMMANDS.map((c) => c.name);
  for (const n of ["json", "text", "filter", "timeline"]) assert.ok(names.includes(n), `${n} missing from ${names.join(", ")}`);
  assert.ok(RUNS_OF.length >= names.length * 2);
});

test("the harness: each piece reaches the reader as one chunk, so the cuts really are where the test puts them", async () => {
  const bytes = Buffer.from('{"type":"user","t":"é日😀"}\r\n{"type":"x"}\r\n');
  const cuts = awkwardOffsets(bytes);
  assert.deepEqual(cuts, [21, 23, 24, 26, 27, 28, 32, 46]);
  const seen: number[] = [];
  for await (const chunk of byteSource(pieceStream(pieces(bytes, cuts)))) seen.push(chunk.length);
  assert.deepEqual(seen, pieces(bytes, cuts).map((p) => p.length));
});

test("generated logs hold what the property is about: multi-byte characters, CRLF, newline call ids, several sessions", () => {
  const logs = fc.sample(genLog(), { seed: SEED, numRuns: 100 });
  const has = (f: (b: Buffer, s: string) => boolean) => logs.filter((l) => f(l.bytes, l.bytes.toString("utf8"))).length;
  assert.ok(has((b) => b.some((x) => x >= 0xc0)) > 80, "multi-byte UTF-8");
  assert.ok(has((b) => b.includes("\r\n")) > 30, "CRLF");
  assert.ok(has((_, s) => s.includes("\\nfc_")) > 30, "newline call ids");
  assert.ok(has((_, s) => (s.match(/"subtype":"init"/g) ?? []).length > 1) > 30, "several sessions");
  assert.ok(has((_, s) => s.includes('"type":"result"')) > 60, "results");
});

test("property: every command's output is the same for any chunking of the input (1 byte to 64 KiB)", { timeout: 600_000 }, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(genLog(), chunking, async (log, c) => {
      await sameForEveryCommand({ "gen/a.ndjson": log.bytes }, (_, b) => cutsFor(b, c), halfOfRuns(run++));
    }),
    // make test: one run, the first half of the option sets (the awkward-cut run below, the second).
    { seed: SEED, numRuns: fuzzRuns(1, 20), includeErrorInReport: true },
  );
});

test("property: 1-byte chunks, and cuts at every multi-byte character and CRLF, change nothing", { timeout: 600_000 }, async () => {
  // make test has two runs: the first cuts at the awkward places (every other option set, the
  // second half of them: the chunking property's first run took the first), the second in 1-byte
  // chunks (drawn, the seed's first few runs are all of the first kind), each command with no
  // option (a byte at a time costs the most: some 40 µs a byte a run).
  let run = 0;
  await fc.assert(
    fc.asyncProperty(genLog({ maxSessions: scaled(1, 2) }), fc.boolean(), async (log, drawn) => {
      const oneByte = STRESS ? drawn : run++ % 2 === 1;
      const runs = oneByte && !STRESS ? COMMANDS.map((c) => [c.name]) : halfOfRuns(1);
      await sameForEveryCommand({ "gen/a.ndjson": log.bytes }, (_, b) => (oneByte ? cutsFor(b, { maxChunk: 1, seed: 1, awkward: false }) : awkwardOffsets(b)), runs);
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 5), includeErrorInReport: true },
  );
});

test("property: several files, one gzip-compressed, cut anywhere (in the compressed bytes too)", { timeout: 600_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(genLog({ maxSessions: scaled(1, 2) }), genLog({ maxSessions: scaled(1, 2) }), chunking, chunking, async (a, b, ca, cb) => {
      const gz = gzipSync(a.bytes);
      await sameForEveryCommand({ "gen/a.ndjson.gz": gz, "gen/b.ndjson": b.bytes }, (name, bytes) => cutsFor(bytes, name.endsWith(".gz") ? ca : cb), halfOfRuns(0));
    }),
    { seed: SEED, numRuns: fuzzRuns(1, 6), includeErrorInReport: true },
  );
});
