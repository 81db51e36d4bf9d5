// test-run: scaled
// SIGINT / SIGTERM take effect during long work: the HTML page of many calls (its layout and its
// writing pause for the event loop, where signal handlers run) and a FIFO that no writer opens
// (a blocking open waited in libuv's thread pool, and process.exit joins that pool: it hung).
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readlinkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import pc from "picocolors";
import { Reporter } from "../src/diagnostics.js";
import type { JsonRecord } from "../src/input/record.js";
import { toTimelineHtml } from "../src/outputs/timeline-html/index.js";
import { runCli } from "./helpers/run-cli.js";
import { scaled, STRESS } from "./helpers/scale.js";

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };

/**
 * What the executable gives for ARGV when nothing interrupts it, the expected result of a run that
 * is interrupted or fed through a FIFO: make test takes it in-process (the source the bundle is
 * built from), a process less each; make stress from the executable (test/helpers/scale.ts).
 */
async function uninterrupted(argv: string[]): Promise<{ status: number | null; stdout: string }> {
  if (STRESS) {
    const r = spawnSync("node", [BIN, ...argv], { env: ENV, encoding: "utf8" });
    return { status: r.status, stdout: r.stdout };
  }
  const r = await runCli(argv, { env: ENV });
  return { status: r.code, stdout: r.stdout };
}

/**
 * Generous: the promise is a second, and what is caught is a hang (for ever). The machine may be
 * shared with other test files (make test runs several at once), so the bound is loose.
 */
const EXIT_BOUND_MS = 15_000;

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (cond()) return true;
  return cond();
}

/** Exit status (or signal name) of a child, or "still running" after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<number | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("still running"), ms);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal ?? "?");
    });
  });
}

/** Paths the live process `pid` has open, or undefined once it is gone. */
function openPaths(pid: number): string[] | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
  } catch {
    return undefined;
  }
}

/** Whether some thread of `pid` sleeps in the kernel's FIFO open (waiting for a writer). */
function inFifoOpen(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((t) => {
      try {
        return readFileSync(`/proc/${pid}/task/${t}/wchan`, "utf8").includes("wait_for_partner");
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The HTML page: its work comes in pieces, with pauses.

/** One session of `n` shell calls, `overlap` running at a time, as parsed records. */
function* callRecords(n: number, overlap: number): Generator<JsonRecord> {
  const sid = "5b8a3c1e-0000-4000-8000-000000000001";
  const t0 = 1767225600000;
  let line = 0;
  const rec = (value: JsonRecord["value"]): JsonRecord => ({ file: "many.ndjson", line: ++line, text: "", value });
  yield rec({ type: "system", subtype: "init", session_id: sid, model: "m" });
  const done = (d: number) =>
    rec({ type: "tool_call", subtype: "completed", call_id: `c${d}`, tool_call: { shellToolCall: { result: { success: { exitCode: 0 } } } }, session_id: sid, timestamp_ms: t0 + d + overlap });
  for (let i = 0; i < n; i++) {
    yield rec({ type: "tool_call", subtype: "started", call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo ${i}` } } }, session_id: sid, timestamp_ms: t0 + i });
    if (i - overlap + 1 >= 0) yield done(i - overlap + 1);
  }
  for (let d = Math.max(0, n - overlap + 1); d < n; d++) yield done(d);
  yield rec({ type: "result", subtype: "success", is_error: false, duration_ms: n, result: "ok", session_id: sid });
}

// Calls (test/helpers/scale.ts): 140 000 in make test (two stretches of 65 536 per pass), 200 000
// in make stress (CURSORLOG_STRESS=1).
const LAYOUT_CALLS = scaled(140_000, 200_000);

test(`timeline --format html: the page of ${LAYOUT_CALLS} calls comes in pieces, with pauses in the layout, none holding more than 4096 calls`, () => {
  const n = LAYOUT_CALLS;
  const stage = toTimelineHtml({ allowIncomplete: false }, new Reporter(() => {}, pc.createColors(false), false));
  for (const r of callRecords(n, 4)) assert.equal(stage.record(r), undefined);
  stage.fileEnd?.("many.ndjson", 0);
  const page = stage.finish?.();
  assert.ok(page !== undefined && typeof page !== "string", "finish gives the page as pieces, not one string");
  let pausesBeforeData = 0;
  let dataBegun = false;
  let calls = 0;
  let longest = 0;
  let text = "";
  for (const piece of page) {
    if (piece === "") {
      if (!dataBegun) pausesBeforeData++;
      continue;
    }
    const inPiece = piece.split('{"seq":').length - 1;
    calls += inPiece;
    if (inPiece > 0) dataBegun = true;
    longest = Math.max(longest, inPiece);
    if (text.length < 1 << 16) text += piece; // the page's head, for a look at its start
  }
  assert.equal(calls, n);
  assert.ok(longest <= 4096, `a piece holds ${longest} calls`);
  // Three passes over the calls and the packing: a pause at least every 65 536 calls of each.
  assert.ok(pausesBeforeData >= 4 * Math.floor(n / 65_536), `${pausesBeforeData} pauses during the layout of ${n} calls`);
  assert.ok(text.startsWith("<!DOCTYPE html>"));
});

/**
 * Making the page of 400 000 calls took about 3 s of synchronous work after the log was read (2
 * s for 300 000, on a loaded 2-vCPU machine), during which a signal waited; with pauses every 25
 * ms, one is taken within about 0.3 s there. What shows that the signal was taken during the work,
 * however busy the machine: the page was never written to its end (</html>). A signal taken only
 * after all the work, or lost, leaves the whole page (and status 0 when lost). The bound only
 * catches a run that never ends; the pauses themselves are checked by the test above. make test
 * makes a page of 200 000 calls (still over a second of work, against pauses 25 ms apart), make
 * stress of 400 000 (test/helpers/scale.ts).
 */
const PAGE_CALLS = scaled(200_000, 400_000);
const PAGE_EXIT_BOUND_MS = 30_000;

/** A lean log of `n` read calls one after another (about 230 bytes a call). */
function leanLog(n: number): string {
  const t0 = 1767225600000;
  const parts = ['{"type":"system","subtype":"init","session_id":"s","model":"m"}\n'];
  for (let i = 0; i < n; i++) {
    const t = t0 + 2 * i;
    parts.push(
      `{"type":"tool_call","subtype":"started","call_id":"c${i}","tool_call":{"readToolCall":{"args":{"path":"f${i}"}}},"timestamp_ms":${t}}\n` +
        `{"type":"tool_call","subtype":"completed","call_id":"c${i}","tool_call":{"readToolCall":{"result":{"success":{}}}},"timestamp_ms":${t + 1}}\n`,
    );
  }
  parts.push('{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}\n');
  return parts.join("");
}

test(`SIGINT while the HTML page of ${PAGE_CALLS} calls is made: exit 130 before the page is out (it came after all the work, or was lost: status 0)`, { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-sig-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, "many.ndjson");
  writeFileSync(log, leanLog(PAGE_CALLS));
  const child = spawn("node", [BIN, "timeline", "--format", "html", log], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => child.kill("SIGKILL"));
  // A reader that takes everything, and sees whether the page reached its end.
  let tail = "";
  let whole = false;
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    tail = (tail + d).slice(-64);
    whole ||= tail.includes("</html>");
  });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  // Ready: the log was opened and read to its end (what remains is the page).
  const pid = child.pid!;
  assert.ok(await until(() => openPaths(pid)?.includes(log) === true, 60_000), "cursorlog never opened the log");
  assert.ok(await until(() => openPaths(pid)?.includes(log) === false, 60_000), "cursorlog never finished reading the log");
  const sent = Date.now();
  child.kill("SIGINT");
  assert.equal(await exitWithin(child, PAGE_EXIT_BOUND_MS), 130, err);
  assert.equal(whole, false, "the whole page was written: the signal was taken only after all the work");
  console.log(`# html page: exit ${Date.now() - sent} ms after SIGINT`);
});

test("SIGINT during the last stretch of synchronous work, the output already out: exit 130, not 0 (the signal was never read)", { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-sig-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ready = join(dir, "spinning");
  // validate writes its summary last, from the stage's finish.
  const child = spawn("node", ["--import", "./test/helpers/slow-first-write.mjs", BIN, "validate", "test/fixtures/2026-long.ndjson"], {
    env: { ...ENV, READY_FILE: ready, SENT_FILE: join(dir, "sent"), SPIN_MS: "20000", SPIN_ON: "checked " },
    stdio: ["ignore", "pipe", "pipe"],
  });
  t.after(() => child.kill("SIGKILL"));
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  assert.ok(await until(() => existsSync(ready), 30_000), "cursorlog never wrote");
  child.kill("SIGINT");
  // The spin ends only now: the signal was sent during it (on a loaded machine the spin of a fixed
  // time could end, and the run exit 0, before this test got to send it).
  writeFileSync(join(dir, "sent"), "");
  assert.equal(await exitWithin(child, 30_000), 130);
  // The output was whole before the signal took effect.
  assert.equal(out, (await uninterrupted(["validate", "test/fixtures/2026-long.ndjson"])).stdout);
});

// ---------------------------------------------------------------------------------------------
// A FIFO with no writer.

for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  test(`${signal} while a named FIFO has no writer: exit ${status} within ${EXIT_BOUND_MS / 1000} s (it hung)`, { timeout: 60_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "cursorlog-fifo-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const fifo = join(dir, "run.ndjson");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    const child = spawn("node", [BIN, "json", fifo], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    t.after(() => child.kill("SIGKILL"));
    const pid = child.pid!;
    // Ready: at the FIFO, whether opened (waiting to read) or waiting in the kernel's open.
    assert.ok(await until(() => openPaths(pid)?.includes(fifo) === true || inFifoOpen(pid), 30_000), "cursorlog never reached the FIFO");
    await sleep(100);
    child.kill(signal);
    assert.equal(await exitWithin(child, EXIT_BOUND_MS), status);
  });
}

test("a named FIFO is read to its end: what a writer sends in parts, then closes, is the whole input", { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-fifo-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const fifo = join(dir, "run.ndjson");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const log = readFileSync("test/fixtures/2026-long.ndjson");
  const want = await uninterrupted(["text", "test/fixtures/2026-long.ndjson"]);
  const child = spawn("node", [BIN, "text", fifo], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => child.kill("SIGKILL"));
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  // The writer opens after the reader, writes half, waits, writes the rest and closes.
  const writer = spawn("bash", ["-c", `{ head -c ${log.length >> 1} ${"test/fixtures/2026-long.ndjson"}; sleep 0.3; tail -c +${(log.length >> 1) + 1} ${"test/fixtures/2026-long.ndjson"}; } > ${fifo}`]);
  t.after(() => writer.kill("SIGKILL"));
  assert.equal(await exitWithin(child, 30_000), 0);
  assert.equal(out, want.stdout);
  // An empty writer: an empty input, as /dev/null.
  const empty = spawn("node", [BIN, "json", fifo], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => empty.kill("SIGKILL"));
  const pid = empty.pid!;
  assert.ok(await until(() => openPaths(pid)?.includes(fifo) === true || inFifoOpen(pid), 30_000), `cursorlog never reached the FIFO (exit ${empty.exitCode})`);
  writeFileSync(fifo, "");
  const devNull = await uninterrupted(["json", "/dev/null"]);
  assert.equal(await exitWithin(empty, 30_000), devNull.status);
});
