import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";

// SIGHUP (a terminal closed), SIGQUIT (Ctrl-\) and SIGALRM (`timeout -s ALRM`) end a run as
// SIGINT and SIGTERM do: with the shell's status for the signal (128 + its number), the `-o`
// temporary file and the `--jobs` temporary folder removed, FILE as it was (issue 24, item 21).
// The built executable (bin/, dist/: `npm run build` first), as a user runs it.

const BIN = resolve("bin/cursorlog.js");
const SESSION = "examples/session.ndjson";
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const SIGNALS = [
  ["SIGHUP", 129],
  ["SIGINT", 130],
  ["SIGQUIT", 131],
  ["SIGALRM", 142],
  ["SIGTERM", 143],
] as const;

const scratch = mkdtempSync(join(tmpdir(), "cursorlog-attack-signals-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ok()) {
    assert.ok(Date.now() < deadline, `${what}: not within 20 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The status the child ended with: its exit code, or -1 when a signal killed it. */
function exitOf(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((res) => child.on("close", (code, signal) => res(code ?? (signal === null ? -2 : -1))));
}

for (const [signal, status] of SIGNALS) {
  test(`-o FILE, ${signal} mid-run: status ${status}, FILE as it was, no temporary file left`, { timeout: 60_000 }, async () => {
    const dir = join(scratch, `o-${signal}`);
    mkdirSync(dir);
    const out = join(dir, "out.txt");
    writeFileSync(out, "old\n");
    const child = spawn(process.execPath, [BIN, "text", "-o", out], { stdio: ["pipe", "ignore", "pipe"], env: ENV });
    let stderr = "";
    child.stderr!.on("data", (b) => (stderr += b));
    const exited = exitOf(child);
    child.stdin!.write(readFileSync(SESSION).subarray(0, 200)); // under way, its input still open
    await until("the temporary file", () => readdirSync(dir).some((f) => f.endsWith(".tmp")));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    assert.equal(await exited, status);
    clearTimeout(timer);
    assert.equal(stderr, "");
    assert.deepEqual(readdirSync(dir), ["out.txt"]);
    assert.equal(readFileSync(out, "utf8"), "old\n");
  });
}

for (const [signal, status] of SIGNALS) {
  test(`--jobs, ${signal} while the run waits on a FIFO: status ${status}, its temporary folder removed`, { timeout: 60_000 }, async () => {
    const tmp = join(scratch, `jobs-${signal}`);
    mkdirSync(tmp);
    const fifo = join(scratch, `jobs-${signal}.ndjson`);
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
    const child = spawn(process.execPath, [BIN, "json", "-j", "2", fifo, SESSION, SESSION], { env: { ...ENV, TMPDIR: tmp }, stdio: "ignore" });
    const exited = exitOf(child);
    const w = await open(fifo, "w"); // the run is reading the FIFO
    try {
      await until("the run's temporary folder", () => readdirSync(tmp).length === 1);
      child.kill(signal);
    } finally {
      // A read blocked on a FIFO holds up the exit until it returns (test/jobs.test.ts): end it.
      await w.close();
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    assert.equal(await exited, status);
    clearTimeout(timer);
    assert.deepEqual(readdirSync(tmp), [], `${signal}: TMPDIR left empty`);
  });
}
