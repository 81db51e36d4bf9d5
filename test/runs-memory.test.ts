// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import { heldMemory, MIB, mib } from "./helpers/held-memory.js";
import { scaled, STRESS } from "./helpers/scale.js";

// `cursorlog runs` holds the run being read, never the rows it wrote (issue 29: a folder of
// 100,000 logs): over N runs it holds the memory of N/10, in every format but the table (which
// needs a terminal) and with --where. --sort is the exception (it holds a row per run): measured
// too, to show that what it holds is the rows, a few hundred bytes each, not the runs.
// Measured as in other-agents-memory.test.ts: the built CLI run by test/stress/peak-live.mjs, the
// log from test/stress/many-runs-log.mjs through a pipe.
//
// Sizes (test/helpers/scale.ts): make test 8 000 runs against 800 (tsv only), make stress 200 000
// against 20 000 in every format. Why 8 000 runs still catch a leak: with nothing kept, the held
// memory grows from 800 to 8 000 runs (or 1 000 to 10 000, 500 to 5 000) by a fixed 0.15-0.8 MiB
// (read buffers, compiled code: measured, not per run), so the bound is 1.5 MiB in make test (3 in
// make stress). A row kept per run, ~300 bytes (--sort, below, holds its rows at ~480 bytes a run),
// would grow it by 2.1 MiB over 7 200 runs, on top of that fixed growth. --sort's bound (1 000
// bytes a run) is a per-run figure: at 7 200 runs the fixed growth adds at most ~115 bytes to it.

const measure0 = heldMemory("runs-mem");
const RUNS = scaled(8_000, 200_000);
/** What the held memory may grow by from RUNS / 10 to RUNS runs, not sorting. */
const GROWTH = scaled(1.5, 3) * MIB;
const CEILING = 32 * MIB;
/** Held per run by --sort: its row (file name shared, a session id, numbers). */
const PER_ROW = 1_000;

/** Runs, outcomes: every 5th failed, every 7th cut off (many-runs-log.mjs). */
function expectedLines(n: number): number {
  return n + 1; // the header and a line per run
}

const ARGS: string[][] = scaled(
  [["runs", "--format", "tsv"]],
  [["runs", "--format", "tsv"], ["runs", "--format", "csv"], ["runs", "--format", "ndjson"], ["runs", "--format", "ndjson", "--where", "outcome != finished"]],
);

test(`${RUNS} runs: runs holds the memory of ${RUNS / 10} (${ARGS.map((a) => a.slice(1).join(" ")).join("; ")})`, { timeout: STRESS ? 1_800_000 : 600_000 }, async () => {
  for (const args of ARGS) {
    const small = await measure0(args, ["test/stress/many-runs-log.mjs", String(RUNS / 10)]);
    const big = await measure0(args, ["test/stress/many-runs-log.mjs", String(RUNS)]);
    const context = `${args.join(" ")}: ${mib(small.peakLive)} held at ${RUNS / 10} runs, ${mib(big.peakLive)} at ${RUNS}`;
    for (const [n, m] of [[RUNS / 10, small], [RUNS, big]] as const) {
      assert.equal(m.code, 0, `${context}: exit ${m.code}\n${m.stderr}`);
      assert.equal(m.stderr, "", context);
      const where = args.includes("--where");
      // Not finished: every 5th or 7th run (failed, cut off).
      const notFinished = Math.floor(n / 5) + Math.floor(n / 7) - Math.floor(n / 35);
      const want = args.includes("ndjson") ? (where ? notFinished : n) : expectedLines(n);
      assert.equal(m.lines, want, `${context}: ${m.lines} lines, last ${m.last.slice(0, 200)}`);
    }
    assert.ok(big.peakLive < CEILING, `${context}: over ${mib(CEILING)}`);
    assert.ok(big.peakLive - small.peakLive < GROWTH, `${context}: grew by ${mib(big.peakLive - small.peakLive)} (bound ${mib(GROWTH)})`);
  }
});

test(`${RUNS} runs with --sort: the rows are held (at most ${PER_ROW} bytes a run), written sorted at the end`, { timeout: STRESS ? 1_800_000 : 600_000 }, async () => {
  const args = ["runs", "--format", "ndjson", "--columns", "line,outcome", "--sort", "outcome,-line"];
  const small = await measure0(args, ["test/stress/many-runs-log.mjs", String(RUNS / 10)]);
  const big = await measure0(args, ["test/stress/many-runs-log.mjs", String(RUNS)]);
  for (const [n, m] of [[RUNS / 10, small], [RUNS, big]] as const) {
    assert.equal(m.code, 0, m.stderr);
    assert.equal(m.lines, n);
    // outcome ascending (cut_off < failed < finished), then line descending: the last is the first run.
    assert.equal(m.last, '{"line":1,"outcome":"finished"}');
  }
  const perRun = (big.peakLive - small.peakLive) / (RUNS - RUNS / 10);
  assert.ok(perRun < PER_ROW, `--sort: ${Math.round(perRun)} bytes held per run (bound ${PER_ROW})`);
});
