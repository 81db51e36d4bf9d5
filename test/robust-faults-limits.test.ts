// test-run: alone
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { logCommands } from "./helpers/run-chunks.js";
import { scaled, STRESS } from "./helpers/scale.js";

// Faults around the process that are measured, with the built executable (npm run build first;
// make test does): a reader that goes away (| head -n1) on a long stream, timed against a full
// read, and a reader that is slow (backpressure), with the memory of the process sampled. Timings
// and memory cannot share the machine: this file runs alone (scripts/run-tests.mjs). The rest of
// the faults (signals, a log still being written, --follow) are in robust-faults.test.ts.
//
// Sizes (test/helpers/scale.ts): make test runs on streams of 16 MiB to 1000 MiB (past the 64 KiB pipe
// reads and the 1 MiB file reads many times over); make stress runs test/stress/robust-faults-
// limits.test.ts, which is this file at full size (CURSORLOG_STRESS=1): a 2 GiB stream, 300 MiB
// for the slow reader.

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const COMMANDS = logCommands();
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-faults-limits-"));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});
after(() => rmSync(tmp, { recursive: true, force: true })); // a 300 MiB log in make stress

function bash(script: string, timeoutMs = 120_000): { stdout: string; stderr: string; status: number | null; ms: number } {
  const t0 = performance.now();
  // LC_ALL=C: dd's count in the words the test reads.
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script], { env: { ...ENV, LC_ALL: "C" }, encoding: "utf8", timeout: timeoutMs, maxBuffer: 1 << 26 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, ms: performance.now() - t0 };
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

// ---------------------------------------------------------------------------------------------
// | head -n1 on a long stream.

/** The commands whose first output comes with the first event or call; others (validate) get a bad line first. */
const EARLY = new Set(["json", "text", "filter", "timeline", "stats", "export", "show", "diff"]);
// A line validate objects to, so that it has something to say at once (a valid log: only at the end).
const FIRST = '{"type":"tool_call","subtype":"started","session_id":"x"}';

// The stream is a generated log (bench/gen.mjs, whole sessions) written over and over by cat, so
// that each run starts one Node process (cursorlog), and dd counts what got through to cursorlog
// (its count of bytes copied when its reader is gone). make stress: a log of 50 MiB, seed 9 (its
// first session ends at 18 MiB), 41 times (2 GiB), against a full read of 200 MiB. make test: a log
// of 20 MiB, seed 12 (its first session ends at 2 MiB, so json and stats, which wait for it, have
// a tenth as much to read before their first line), 50 times (1000 MiB), against 100 MiB.
const HEAD = scaled({ seed: 12, mib: 20, times: 50, fullTimes: 5, late: "4M", lateMiB: 4 }, { seed: 9, mib: 50, times: 41, fullTimes: 4, late: "20M", lateMiB: 20 });
const STREAM_MIB = HEAD.mib * HEAD.times;
const FULL_MIB = HEAD.mib * HEAD.fullTimes;

/** A shell loop writing `file` `times` times, stopping when its reader is gone. */
const repeat = (file: string, times: number) => `for ((i = 0; i < ${times}; i++)); do cat ${file} || break; done`;

test(`| head -n1 on a ${STREAM_MIB} MiB generated stream: every command ends at once with status 0, no message, and stops reading`, { timeout: 300_000 }, () => {
  const log = join(tmp, "head.ndjson");
  const late = join(tmp, "head-late.ndjson");
  assert.equal(spawnSync("node", ["bench/gen.mjs", "--size", `${HEAD.mib}M`, "--seed", String(HEAD.seed), "--out", log]).status, 0);
  assert.equal(spawnSync("node", ["bench/gen.mjs", "--size", HEAD.late, "--seed", String(HEAD.seed), "--out", late]).status, 0);
  // The time a full read takes, measured on a tenth of the size.
  const full = bash(`set -o pipefail; ${repeat(log, HEAD.fullTimes)} | node ${BIN} text > /dev/null`);
  assert.equal(full.status, 0, full.stderr);
  const figures: string[] = [`full read of ${FULL_MIB} MiB by text: ${Math.round(full.ms)} ms`];
  for (const c of COMMANDS) {
    const count = join(tmp, `count-${c.name}`);
    const err = join(tmp, `err-${c.name}`);
    const headRun = () =>
      bash(
        `{ ${EARLY.has(c.name) ? repeat(log, HEAD.times) : `echo '${FIRST}'; cat ${late}`}; } | (trap '' PIPE; exec dd bs=64K 2>${count}) | node ${BIN} ${c.name} 2>${err} | head -n1; ` +
          `echo "status=\${PIPESTATUS[2]}" >&2`,
      );
    const r = headRun();
    const copied = /^(\d+) bytes/m.exec(readFileSync(count, "utf8"));
    assert.ok(copied, `${c.name}: dd said ${readFileSync(count, "utf8")}`);
    const read = Number(copied[1]);
    figures.push(`${c.name}: ${Math.round(r.ms)} ms, ${(read / 2 ** 20).toFixed(1)} MiB read of ${EARLY.has(c.name) ? STREAM_MIB : HEAD.lateMiB}`);
    assert.equal(r.stderr, "status=0\n", `${c.name}: status of cursorlog`);
    assert.equal(readFileSync(err, "utf8"), "", `${c.name}: a message on stderr`);
    assert.equal(r.stdout.split("\n").length, 2, `${c.name}: one line expected, got ${JSON.stringify(r.stdout.slice(0, 200))}`);
    // A process learns that its reader is gone only when it writes: a command with nothing more to
    // say about a valid log (validate, like grep with no more matches) reads on to the end, so it
    // gets the whole (short) stream, and only the status and the silence are checked.
    if (!EARLY.has(c.name)) continue;
    assert.ok(read < 64 * 2 ** 20, `${c.name}: read ${read} bytes of a ${STREAM_MIB} MiB stream after its reader went away`);
    // Reading on to the end would take ten times a full read of a tenth; json and stats must read
    // the generator's first session before their first line, which with seed 9 (18 MiB; they read
    // 38 MiB) on a loaded 2-vCPU machine came to just over half of a full read of 200 MiB (969 ms
    // against 1931 ms).
    // A time taken on a machine others share: over the bound, it is taken once more, the better kept.
    const ms = r.ms < full.ms ? r.ms : Math.min(r.ms, headRun().ms);
    assert.ok(ms < full.ms, `${c.name}: ${Math.round(ms)} ms (best of two) with | head -n1 on ${STREAM_MIB} MiB, a full read of ${FULL_MIB} MiB takes ${Math.round(full.ms)} ms`);
  }
  console.log(`# head -n1: ${figures.join("; ")}`);
});

// ---------------------------------------------------------------------------------------------
// A slow reader: backpressure, memory, and nothing lost.

/** VmRSS of a live process in MiB (Linux), or undefined. */
function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// make stress: 300 MiB, a short rest every 8 MiB of output, the long ones (1.5 s) at 64 and 192 MiB.
// make test: 16 MiB (16 file reads of 1 MiB, 256 pipe reads of 64 KiB), a rest every MiB, the
// long ones at 4 and 10 MiB: at each, 6 MiB or more are still to come, which a process that went
// on reading while blocked would read (it may read less than 1 MiB in the pause's last second). The 200 MiB ceiling bites only in make stress (the input is larger
// than it); in make test, the process stopping its reads while blocked, and its memory flat
// then, are what show backpressure holding.
const SLOW = scaled({ mib: 16, restEvery: 1, longAt: [4, 10] }, { mib: 300, restEvery: 8, longAt: [64, 192] });
const MAX_RSS_MIB = 200;

// In make test the two readers at once: each spends its time in its pauses, and what each
// measures is its own process (its reads while blocked, its RSS), which the other, asleep, leaves
// alone. make stress, 300 MiB through each, one after the other.
describe(`a slow reader, of a file and of a pipe${STRESS ? "" : " at once"}`, { concurrency: STRESS ? 1 : 2 }, () => {
// The file is written before either starts (a spawnSync in one would stop the other's clock).
before(() => {
  const log = join(tmp, `slow-${SLOW.mib}M.ndjson`);
  if (!existsSync(log)) assert.equal(spawnSync("node", ["bench/gen.mjs", "--size", `${SLOW.mib}M`, "--seed", "11", "--out", log]).status, 0);
});
for (const input of ["file", "pipe"] as const) {
  test(`a slow reader: cursorlog filter over a ${SLOW.mib} MiB generated ${input} stays under ${MAX_RSS_MIB} MiB, stops reading while blocked, loses nothing`, { timeout: 180_000, skip: process.platform !== "linux" && "needs /proc" }, async (t) => {
    // A file is read in 1 MiB chunks, a pipe in 64 KiB ones: both must hold memory down.
    const log = join(tmp, `slow-${SLOW.mib}M.ndjson`);
    // The generator's output, or the file it wrote (read here for its hash only).
    const gen = input === "pipe" ? spawn("node", ["bench/gen.mjs", "--size", `${SLOW.mib}M`, "--seed", "11"], { stdio: ["ignore", "pipe", "inherit"] }) : spawn("cat", [log], { stdio: ["ignore", "pipe", "inherit"] });
    const genDone = exited(gen);
    const child = spawn("node", [BIN, "filter", ...(input === "file" ? [log] : [])], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
    t.after(() => (gen.kill("SIGKILL"), child.kill("SIGKILL")));
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    // The generator's bytes go through here, counted and hashed, with backpressure. Reading a file,
    // cursorlog's reads are counted from /proc/PID/io instead.
    const inHash = createHash("sha256");
    let generated = 0;
    gen.stdout!.on("data", (d: Buffer) => {
      inHash.update(d);
      generated += d.length;
      if (input === "file") return;
      if (!child.stdin!.write(d)) {
        gen.stdout!.pause();
        child.stdin!.once("drain", () => gen.stdout!.resume());
      }
    });
    gen.stdout!.on("end", () => child.stdin!.end());
    const fedNow = () => (input === "pipe" ? generated : readBytes(child.pid!));
    let fed = 0;
    const outHash = createHash("sha256");
    let got = 0;
    let paused = false;
    const pauses: Array<{ fedAt: number; rss: number[]; fedAfter: number }> = [];
    const samples: number[] = [];
    const timer = setInterval(() => {
      const r = rssMiB(child.pid!);
      if (r !== undefined) samples.push(r);
      if (paused && r !== undefined) pauses.at(-1)!.rss.push(r);
    }, 50);
    const rest = SLOW.restEvery << 20;
    child.stdout!.on("data", (d: Buffer) => {
      outHash.update(d);
      const before = got;
      got += d.length;
      // Read slowly: a short rest every few MiB, and a long one (1.5 s) at two points.
      const long = SLOW.longAt.some((m) => before < m * 2 ** 20 && got >= m * 2 ** 20);
      if (long || Math.floor(before / rest) !== Math.floor(got / rest)) {
        child.stdout!.pause();
        paused = long;
        if (long) pauses.push({ fedAt: 0, rss: [], fedAfter: 0 });
        setTimeout(() => {
          if (long) {
            const p = pauses.at(-1)!;
            p.fedAfter = fedNow();
          }
          paused = false;
          child.stdout!.resume();
        }, long ? 1500 : 30);
        if (long) setTimeout(() => (pauses.at(-1)!.fedAt = fedNow()), 500);
      }
    });
    const code = await exited(child);
    clearInterval(timer);
    fed = input === "pipe" ? generated : Number(statSync(log).size);
    await genDone;
    assert.equal(code, 0, err);
    assert.equal(err, "");
    assert.equal(outHash.digest("hex"), inHash.digest("hex"), "filter's output is not the input, byte for byte");
    assert.ok(fed > SLOW.mib * 2 ** 20, `only ${fed} bytes generated`);
    const max = Math.max(...samples);
    console.log(`# slow reader: ${samples.length} samples, peak VmRSS ${max.toFixed(0)} MiB for ${(fed / 2 ** 20).toFixed(0)} MiB; pauses: ${pauses.map((p) => `rss ${Math.min(...p.rss).toFixed(0)}-${Math.max(...p.rss).toFixed(0)} MiB, read ${((p.fedAfter - p.fedAt) / 2 ** 20).toFixed(2)} MiB in the last second`).join("; ")}`);
    assert.ok(max < MAX_RSS_MIB, `peak VmRSS ${max.toFixed(0)} MiB while the input is ${SLOW.mib} MiB`);
    assert.equal(pauses.length, 2);
    for (const p of pauses) {
      // Blocked on its output, cursorlog reads (almost) nothing more and its memory stays flat.
      assert.ok(p.fedAfter - p.fedAt < 2 ** 20, `read ${p.fedAfter - p.fedAt} bytes while its reader was paused`);
      assert.ok(Math.max(...p.rss) - Math.min(...p.rss) < 16, `RSS moved ${Math.min(...p.rss)}..${Math.max(...p.rss)} MiB while paused`);
    }
  });
}
});

/** Bytes a live process has read so far (Linux /proc/PID/io rchar), 0 if unknown. */
function readBytes(pid: number): number {
  try {
    return Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
