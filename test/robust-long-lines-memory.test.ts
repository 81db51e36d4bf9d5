// (shared in make test: what is measured, the memory held after full collections, does not depend on the load)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { logCommands } from "./helpers/run-chunks.js";
import { scaled } from "./helpers/scale.js";
// @ts-expect-error a plain ESM script shared with the stress runs
import { longLineLog } from "./stress/long-line-log.mjs";

// The memory very long lines take, in spawned runs of the built CLI (npm run build first; make
// test does). A line longer than --max-line-bytes is never held: the splitter drops its bytes as
// they come. A line under the limit is processed with memory a small multiple of its size. The
// rules themselves (status, position, --lenient, any chunking) are robust-long-lines.test.ts.
//
// What is measured is the memory the process holds: V8's heap in use plus what JavaScript objects
// keep outside it (Buffers), right after full garbage collections, sampled every 50 ms while the
// run goes on (test/stress/peak-live.mjs). Not the peak RSS: that counts garbage the collector has
// not come to yet, and when it comes depends on the load of the machine (a 256 MiB line rejected
// with a 1 MiB limit peaked at 530 MiB of RSS on a loaded machine, 60-70 MiB alone, while the
// memory held stayed at 12-13 MiB for any length of line). The peak RSS is printed for
// information. A control run shows the measure sees a line that is held. In make test the file
// runs beside others: at its sizes a run takes at most ~200 MiB of RSS, and what is measured does
// not depend on the load; make stress runs it alone (its runs take hundreds of MiB there).
//
// Sizes (test/helpers/scale.ts): make test rejects a 32 MiB line, holds one of the same size for
// the control (a run that kept the rejected line would hold what it holds), and processes a 9 MiB one (past the 8 MiB above which a line is parsed instead of
// scanned); make stress runs test/stress/robust-long-lines-memory.test.ts, this file at full size:
// 256 MiB, 64 MiB and 48 MiB.

const COMMANDS = logCommands();
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-long-mem-"));
const MIB = 2 ** 20;

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Measured {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** The most memory held at once (heap used + external, after a full gc), in bytes. */
  peakLive: number;
  /** The peak RSS in KiB, for information. */
  maxRssKiB: number;
}

/**
 * Runs `cursorlog ARGS` with `input` on its stdin through a pipe (the output of a generator
 * process, or bytes from here), measuring the memory it holds.
 */
function measure(args: string[], input: string[] | Buffer): Promise<Measured> {
  const memFile = join(tmp, `mem-${process.hrtime.bigint()}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn("node", ["--expose-gc", "test/stress/peak-live.mjs", memFile, ...args], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
    if (Buffer.isBuffer(input)) child.stdin.end(input);
    else spawn("node", input, { stdio: ["ignore", "pipe", "inherit"] }).stdout.pipe(child.stdin);
    child.stdin.on("error", () => {}); // the child may stop reading early
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const m = JSON.parse(readFileSync(memFile, "utf8")) as { peakLive: number; maxRssKiB: number };
      resolve({ code, stdout: Buffer.concat(out), stderr: err, peakLive: m.peakLive, maxRssKiB: m.maxRssKiB });
    });
  });
}

const GEN_LONG = (mb: number) => ["test/stress/long-line-log.mjs", String(mb)];
const mib = (bytes: number) => `${Math.round(bytes / MIB)} MiB`;
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** What long-line-log.mjs writes for `mb`, built the same way it is generated (once, for the runs of every command). */
function longLog(mb: number): Buffer {
  const { head, unit, units, tail } = longLineLog(mb);
  return Buffer.from(head + unit.repeat(units) + tail);
}

// ---------------------------------------------------------------------------------------------
// A line above the limit is never held.

const REJECTED_MB = scaled(32, 256);
/**
 * What a run that rejects a long line may hold: measured 12-13 MiB for lines of 4 to 256 MiB
 * (Node, cursorlog, its read buffers). A run that held the line would hold the line and more.
 */
const REJECTED_CEILING = 24 * MIB;
/**
 * The line the control run holds on purpose. It is seen held from the samples taken while its
 * bytes come in (50 ms apart: the last one may miss some MiB of it), or later: at least half of
 * it over the ceiling.
 */
const CONTROL_MB = scaled(32, 64);

test(`a ${REJECTED_MB} MiB line through a pipe with --max-line-bytes 1M: rejected at its line, the memory held stays under ${mib(REJECTED_CEILING)}, the rest is read`, { timeout: 120_000 }, async () => {
  const r = await measure(["json", "--lenient", "--max-line-bytes", "1M"], GEN_LONG(REJECTED_MB));
  assert.equal(r.stderr, "cursorlog: ignoring invalid line (at <stdin>:3): line is longer than --max-line-bytes (1048576)\n");
  assert.equal(r.code, 5);
  assert.equal(r.stdout.toString(), '{"type":"result","subtype":"success","is_error":false,"duration_ms":4,"result":"done","session_id":"s-long"}\n');
  console.log(`# rejected ${REJECTED_MB} MiB line: held at most ${mib(r.peakLive)}, peak RSS ${Math.round(r.maxRssKiB / 1024)} MiB`);
  assert.ok(r.peakLive < REJECTED_CEILING, `${mib(r.peakLive)} held at once for a rejected ${REJECTED_MB} MiB line (ceiling ${mib(REJECTED_CEILING)})`);
});

test(`the measure sees a line that is held: the same run with the limit above a ${CONTROL_MB} MiB line holds more than ${mib(REJECTED_CEILING)} + half the line`, { timeout: 120_000 }, async () => {
  // The control: were the splitter to keep the bytes of a line it rejects, the run above would
  // look like this one, which keeps its line because the limit allows it.
  const r = await measure(["json", "--lenient", "--max-line-bytes", "1G"], GEN_LONG(CONTROL_MB));
  assert.equal(r.code, 0, r.stderr);
  console.log(`# held ${CONTROL_MB} MiB line: held at most ${mib(r.peakLive)}, peak RSS ${Math.round(r.maxRssKiB / 1024)} MiB`);
  assert.ok(r.peakLive > REJECTED_CEILING + (CONTROL_MB / 2) * MIB, `only ${mib(r.peakLive)} held at once while a ${CONTROL_MB} MiB line is processed`);
});

// ---------------------------------------------------------------------------------------------
// A line under the limit: memory a small multiple of it.

const PROCESSED_MB = scaled(9, 48);
/**
 * Measured: Node's own 12 MiB and two copies of the line (29-32 MiB for 9 MiB, 104-108 MiB for
 * 48 MiB), filter at times three (its output too: 152 MiB for 48 MiB).
 */
const processedCeiling = (mb: number) => (16 + 4 * mb) * MIB;

test(`a ${PROCESSED_MB} MiB line is processed by every command holding under 16 MiB + 4 x the line`, { timeout: 300_000 }, async () => {
  const mb = PROCESSED_MB;
  const log = longLog(mb);
  const figures: string[] = [];
  // Two runs at a time: what is measured (memory held after collections) does not depend on the load.
  const runs: Array<Promise<Measured>> = [];
  for (const [i, c] of COMMANDS.entries()) {
    runs[i] = (i >= 2 ? runs[i - 2]!.catch(() => undefined) : Promise.resolve()).then(() => measure([c.name], log));
    runs[i]!.catch(() => {}); // awaited below; a failure before that is not left unhandled
  }
  for (const [i, c] of COMMANDS.entries()) {
    const r = await runs[i]!;
    figures.push(`${c.name} ${mib(r.peakLive)} (RSS ${Math.round(r.maxRssKiB / 1024)} MiB)`);
    assert.ok(r.code === 0 || (c.name === "validate" && r.code === 1), `${c.name}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
    assert.ok(r.peakLive < processedCeiling(mb), `${c.name}: ${mib(r.peakLive)} held at once for a ${mb} MiB line (ceiling ${mib(processedCeiling(mb))})`);
    if (c.name === "filter") assert.equal(sha256(r.stdout), sha256(log), "filter did not write the log back byte for byte");
    if (c.name === "text") assert.equal(r.stdout.toString(), "Ran terminal command\nRead file\n");
  }
  console.log(`# ${mb} MiB line, held at most: ${figures.join(", ")}`);
});
