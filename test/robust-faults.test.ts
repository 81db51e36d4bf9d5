// test-run: scaled
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";
import { logCommands, runFed } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";

// Faults around the process, with the built executable (npm run build first; make test does):
// SIGINT/SIGTERM in a live pipe, and a log file still being written. Every command that reads
// logs is taken from the program's command table. The faults that are timed or whose memory is
// measured (| head -n1 on a long stream, a slow reader) are in robust-faults-limits.test.ts,
// which runs alone.

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const COMMANDS = logCommands();
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-faults-"));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});
after(() => rmSync(tmp, { recursive: true, force: true }));

// ---------------------------------------------------------------------------------------------
// SIGINT / SIGTERM in a live pipe.

/** The commands whose first output comes with the first event or call. */
const EARLY = new Set(["json", "text", "filter", "timeline", "stats", "export", "show", "diff"]);

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

// make test: each command with SIGINT or SIGTERM in turn (each signal on half the commands); make
// stress: with both (CURSORLOG_STRESS=1, test/helpers/scale.ts).
const SIGNALS = [["SIGINT", 130], ["SIGTERM", 143]] as const;
for (const [i, c] of COMMANDS.entries()) {
  for (const [signal, status] of STRESS ? SIGNALS : [SIGNALS[i % 2]!]) {
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
  // make test: every other command (those given SIGTERM above, so each command meets SIGINT once); make stress: every one.
  const afterInput = STRESS || i % 2 === 1 ? false : "make stress only (make test: every other command)";
  test(`a signal right after the input: cursorlog ${c.name} exits 130, with whole lines only`, { timeout: 30_000, skip: afterInput }, async (t) => {
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
    // What it read is a prefix of whole lines; its output is that of some such prefix. The longest
    // are tried first: cursorlog reads to the end it finds, most often all or most of what the
    // writer had written when it ended.
    let match: number | undefined;
    for (let k = seen; k >= 10 && match === undefined; k--) {
      const r = await runFed([c.name, log], { files: { [log]: { bytes: Buffer.from(lines.slice(0, k).join("")) } } });
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
