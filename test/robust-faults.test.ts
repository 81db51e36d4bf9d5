import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";
import { logCommands, runFed } from "./helpers/run-chunks.js";

// Faults around the process, with the built executable (npm run build first; make test does):
// a reader that goes away (| head -n1) on a multi-GB stream, SIGINT/SIGTERM in a live pipe, a
// reader that is slow (backpressure), and a log file still being written. Every command that
// reads logs is taken from the program's command table.

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const COMMANDS = logCommands();
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-faults-"));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});
after(() => rmSync(tmp, { recursive: true, force: true })); // a 300 MiB log among others

function bash(script: string, timeoutMs = 120_000): { stdout: string; stderr: string; status: number | null; ms: number } {
  const t0 = performance.now();
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script], { env: ENV, encoding: "utf8", timeout: timeoutMs, maxBuffer: 1 << 26 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, ms: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------
// | head -n1 on a multi-GB stream.

/** The commands whose first output comes with the first event or call; others (validate) get a bad line first. */
const EARLY = new Set(["json", "text", "filter", "timeline", "stats", "export", "show", "diff"]);
// A line validate objects to, so that it has something to say at once (a valid log: only at the end).
const FIRST = '{"type":"tool_call","subtype":"started","session_id":"x"}';

test("| head -n1 on a 2 GiB generated stream: every command ends at once with status 0, no message, and stops reading", { timeout: 300_000 }, () => {
  // The time a full read takes, measured on a tenth of the size.
  const full = bash(`set -o pipefail; node bench/gen.mjs --size 200M --seed 9 | node ${BIN} text > /dev/null`);
  assert.equal(full.status, 0, full.stderr);
  const figures: string[] = [`full read of 200 MiB by text: ${Math.round(full.ms)} ms`];
  for (const c of COMMANDS) {
    const count = join(tmp, `count-${c.name}`);
    const err = join(tmp, `err-${c.name}`);
    const r = bash(
      `{ ${EARLY.has(c.name) ? "" : `echo '${FIRST}';`} node bench/gen.mjs --size ${EARLY.has(c.name) ? "2G" : "20M"} --seed 9; } | node test/stress/count-bytes.mjs ${count} | node ${BIN} ${c.name} 2>${err} | head -n1; ` +
        `echo "status=\${PIPESTATUS[2]}" >&2`,
    );
    const read = Number(readFileSync(count, "utf8"));
    figures.push(`${c.name}: ${Math.round(r.ms)} ms, ${(read / 2 ** 20).toFixed(1)} MiB read of ${EARLY.has(c.name) ? 2048 : 20}`);
    assert.equal(r.stderr, "status=0\n", `${c.name}: status of cursorlog`);
    assert.equal(readFileSync(err, "utf8"), "", `${c.name}: a message on stderr`);
    assert.equal(r.stdout.split("\n").length, 2, `${c.name}: one line expected, got ${JSON.stringify(r.stdout.slice(0, 200))}`);
    // A process learns that its reader is gone only when it writes: a command with nothing more to
    // say about a valid log (validate, like grep with no more matches) reads on to the end, so it
    // gets 20 MiB, and only the status and the silence are checked.
    if (!EARLY.has(c.name)) continue;
    assert.ok(read < 64 * 2 ** 20, `${c.name}: read ${read} bytes of a 2 GiB stream after its reader went away`);
    // Reading on to the end of 2 GiB would take ten times a full read of 200 MiB; json and stats
    // must read the generator's first session (~38 MiB) before their first line, which on a
    // loaded 2-vCPU machine came to just over half of one (969 ms against 1931 ms).
    assert.ok(r.ms < full.ms, `${c.name}: ${Math.round(r.ms)} ms with | head -n1 on 2 GiB, a full read of 200 MiB takes ${Math.round(full.ms)} ms`);
  }
  console.log(`# head -n1: ${figures.join("; ")}`);
});

// ---------------------------------------------------------------------------------------------
// SIGINT / SIGTERM in a live pipe.

const SESSION1 = readFileSync("test/fixtures/2026-long.ndjson", "utf8");
const SESSION2 = readFileSync("test/fixtures/thinking-only.ndjson", "utf8");
const LIVE_PREFIX = SESSION1 + SESSION2.split("\n").slice(0, 2).join("\n") + "\n";

/** What has come out of a child so far. */
function collect(child: ChildProcess): { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  return { out: () => out, err: () => err };
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (cond()) return true;
  return cond();
}

/**
 * Whether cursorlog, in a live process, has installed its signal handlers. bin/cursorlog.js installs
 * them before it first touches process.stdin, and that first touch makes fd 0 non-blocking
 * (O_NONBLOCK, 04000 in /proc/PID/fdinfo/0). The SigCgt mask cannot tell: Node itself catches SIGINT
 * from its first milliseconds (to restore the terminal), and dies of it.
 */
function handlersInstalled(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(BIN)) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/0`, "utf8"))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & 0o4000) !== 0;
  } catch {
    return false;
  }
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

for (const c of COMMANDS) {
  for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    test(`${signal} during a live pipe: cursorlog ${c.name} keeps what was complete and exits ${status}`, { timeout: 30_000 }, async (t) => {
      // What must be out once session 1 has ended and session 2 has begun (nothing of it is complete):
      // filter writes every line as it comes; the others, session 1's output.
      const expected = (await runFed([c.name], { stdin: { bytes: Buffer.from(c.name === "filter" ? LIVE_PREFIX : SESSION1) } })).stdout;
      const whole = (await runFed([c.name], { stdin: { bytes: Buffer.from(SESSION1 + SESSION2) } })).stdout;
      const child = spawn("node", [BIN, c.name], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
      t.after(() => child.kill("SIGKILL"));
      const io = collect(child);
      child.stdin!.write(LIVE_PREFIX);
      // Known commands: the exact output of what was complete. Others: wait until the output settles.
      if (EARLY.has(c.name)) {
        assert.ok(await until(() => io.out() === expected, 10_000), `${c.name}: before the signal, stdout is ${JSON.stringify(io.out().slice(-300))}`);
      } else {
        let last = "";
        await until(() => {
          const same = io.out() !== "" && io.out() === last;
          last = io.out();
          return same;
        }, 5_000);
      }
      const before = io.out();
      await sleep(100);
      child.kill(signal);
      assert.equal(await exited(child), status);
      assert.equal(io.out(), before, `${c.name}: output changed at the signal`);
      assert.ok(whole.startsWith(before), `${c.name}: the output before the signal is not a prefix of the full run's`);
      assert.equal(io.err(), "", `${c.name}: a message on stderr`);
    });
  }
  test(`a signal right after the input: cursorlog ${c.name} exits 130, with whole lines only`, { timeout: 30_000 }, async (t) => {
    const whole = (await runFed([c.name], { stdin: { bytes: Buffer.from(SESSION1 + SESSION2) } })).stdout;
    const child = spawn("node", [BIN, c.name], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
    t.after(() => child.kill("SIGKILL"));
    const io = collect(child);
    // Started, with its signal handlers installed (however long a loaded machine takes to get there).
    assert.ok(await until(() => handlersInstalled(child.pid), 20_000), "cursorlog never began to read its stdin");
    child.stdin!.write(LIVE_PREFIX);
    child.kill("SIGINT");
    assert.equal(await exited(child), 130);
    assert.ok(whole.startsWith(io.out()), `${c.name}: ${JSON.stringify(io.out().slice(-200))} is not a prefix of the full output`);
    assert.ok(io.out() === "" || io.out().endsWith("\n"), `${c.name}: a torn last line`);
  });
}

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

for (const input of ["file", "pipe"] as const) {
test(`a slow reader: cursorlog filter over a 300 MiB generated ${input} stays under 200 MiB, stops reading while blocked, loses nothing`, { timeout: 180_000, skip: process.platform !== "linux" && "needs /proc" }, async (t) => {
  // A file is read in 1 MiB chunks, a pipe in 64 KiB ones: both must hold memory down.
  const log = join(tmp, "slow-300M.ndjson");
  if (input === "file" && !existsSync(log)) assert.equal(spawnSync("node", ["bench/gen.mjs", "--size", "300M", "--seed", "11", "--out", log]).status, 0);
  const gen = spawn("node", ["bench/gen.mjs", "--size", "300M", "--seed", "11"], { stdio: ["ignore", "pipe", "inherit"] });
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
  child.stdout!.on("data", (d: Buffer) => {
    outHash.update(d);
    const before = got;
    got += d.length;
    // Read slowly: a short rest every 8 MiB, and a long one (1.5 s) at 64 and 192 MiB.
    const long = [64, 192].some((m) => before < m * 2 ** 20 && got >= m * 2 ** 20);
    if (long || Math.floor(before / (8 << 20)) !== Math.floor(got / (8 << 20))) {
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
  assert.ok(fed > 300 * 2 ** 20, `only ${fed} bytes generated`);
  const max = Math.max(...samples);
  console.log(`# slow reader: ${samples.length} samples, peak VmRSS ${max.toFixed(0)} MiB for ${(fed / 2 ** 20).toFixed(0)} MiB; pauses: ${pauses.map((p) => `rss ${Math.min(...p.rss).toFixed(0)}-${Math.max(...p.rss).toFixed(0)} MiB, read ${((p.fedAfter - p.fedAt) / 2 ** 20).toFixed(2)} MiB in the last second`).join("; ")}`);
  assert.ok(max < 200, `peak VmRSS ${max.toFixed(0)} MiB while the input is 300 MiB`);
  assert.equal(pauses.length, 2);
  for (const p of pauses) {
    // Blocked on its output, cursorlog reads (almost) nothing more and its memory stays flat.
    assert.ok(p.fedAfter - p.fedAt < 2 ** 20, `read ${p.fedAfter - p.fedAt} bytes while its reader was paused`);
    assert.ok(Math.max(...p.rss) - Math.min(...p.rss) < 16, `RSS moved ${Math.min(...p.rss)}..${Math.max(...p.rss)} MiB while paused`);
  }
});
}

/** Bytes a live process has read so far (Linux /proc/PID/io rchar), 0 if unknown. */
function readBytes(pid: number): number {
  try {
    return Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// A log still being written.

/** The lines of a log padded with spaces to 4096 bytes each, so every append is one whole page (never seen torn). */
function pageLines(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      assert.ok(Buffer.byteLength(l) < 4096);
      return l + " ".repeat(4095 - Buffer.byteLength(l)) + "\n";
    });
}

test("a log file still being written, read without --follow: every command reads to its current end without error", { timeout: 120_000 }, async () => {
  const lines = pageLines(SESSION1 + SESSION2 + SESSION1);
  for (const c of COMMANDS) {
    const log = join(tmp, `growing-${c.name}.ndjson`);
    writeFileSync(log, lines.slice(0, 10).join(""));
    let n = 10;
    // The writer appends a line every few ms while cursorlog reads.
    const writer = setInterval(() => n < lines.length && appendFileSync(log, lines[n++]!), 2);
    await sleep(40);
    const child = spawn("node", [BIN, c.name, log], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    const io = collect(child);
    const code = await exited(child);
    clearInterval(writer);
    const seen = n;
    // What it read is a prefix of whole lines; its output is that of some such prefix.
    const prefixes = new Map<number, { stdout: string; code: number }>();
    let match: number | undefined;
    for (let k = 10; k <= seen && match === undefined; k++) {
      const r = await runFed([c.name, log], { files: { [log]: { bytes: Buffer.from(lines.slice(0, k).join("")) } } });
      prefixes.set(k, r);
      if (r.stdout === io.out() && r.code === code) match = k;
    }
    assert.ok(match !== undefined, `${c.name}: exit ${code}, output matches no prefix of whole lines:\n${io.out().slice(-300)}\n${io.err()}`);
    assert.doesNotMatch(io.err(), /not JSON|invalid JSON|never closed|cannot read/, `${c.name}: ${io.err()}`);
    if (c.name === "filter") assert.equal(code, 0);
  }
});

for (const c of COMMANDS.filter((c) => c.flags.has("--follow"))) {
  test(`--follow: cursorlog ${c.name} -f reads a file written in pieces cut mid-line, and ends at the run's result`, { timeout: 30_000 }, async (t) => {
    const log = join(tmp, `follow-${c.name}.ndjson`);
    const text = SESSION1;
    writeFileSync(log, text.slice(0, 3000));
    const expected = await runFed([c.name, log], { files: { [log]: { bytes: Buffer.from(text) } } });
    const child = spawn("node", [BIN, c.name, "-f", log], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    t.after(() => child.kill("SIGKILL"));
    const io = collect(child);
    for (let at = 3000; at < text.length; at += 2777) {
      await sleep(60);
      appendFileSync(log, text.slice(at, at + 2777));
    }
    assert.equal(await exited(child), expected.code);
    assert.equal(io.out(), expected.stdout);
    assert.equal(io.err(), expected.stderr);
  });
}
