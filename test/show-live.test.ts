import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mock, test } from "node:test";
import pc from "picocolors";
import { Reporter } from "../src/diagnostics.js";
import type { JsonRecord } from "../src/input/record.js";
import { toShow, type ShowOptions } from "../src/outputs/show/index.js";

const S = "5a1c9e3b-77d2-4f0a-9b6e-0c4d2e8f1a23";
const ID = "call_1\nfc_1";
const EVENTS = {
  init: { type: "system", subtype: "init", cwd: "/app", session_id: S, model: "Auto" },
  user: { type: "user", message: { role: "user", content: [{ type: "text", text: "wait a bit" }] }, session_id: S },
  say: { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Sleeping." }] }, session_id: S, model_call_id: "m-0", timestamp_ms: 1000 },
  started: { type: "tool_call", subtype: "started", call_id: ID, tool_call: { shellToolCall: { args: { command: "sleep 5" } }, startedAtMs: "1000" }, session_id: S, timestamp_ms: 1000 },
  completed: {
    type: "tool_call",
    subtype: "completed",
    call_id: ID,
    tool_call: { shellToolCall: { args: { command: "sleep 5" }, result: { success: { exitCode: 0, stdout: "", stderr: "" } } }, startedAtMs: "1000", completedAtMs: "6000" },
    session_id: S,
    timestamp_ms: 6000,
  },
  result: { type: "result", subtype: "success", duration_ms: 5100, is_error: false, result: "Sleeping.", session_id: S },
};
const ERASE = "\r\u001b[2K";

function rec(value: object, line: number): JsonRecord {
  return { file: "live.ndjson", line, text: JSON.stringify(value), value: value as JsonRecord["value"] };
}

function stage(live: boolean) {
  const opts: ShowOptions = { format: "text", colors: pc.createColors(false), width: 80, thinking: false, lines: 5, diff: false, exitStatus: false, live };
  const s = toShow(opts, new Reporter(() => {}, pc.createColors(false), false));
  const pushed: string[] = [];
  s.attach?.((t) => pushed.push(t));
  return { s, pushed };
}

test("live line: a call still running after a second is drawn, redrawn each second, then replaced in place by its result line", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const { s, pushed } = stage(true);
    let n = 0;
    for (const ev of [EVENTS.init, EVENTS.user, EVENTS.say, EVENTS.started]) s.record(rec(ev, ++n));
    mock.timers.tick(999);
    assert.deepEqual(pushed, [], "nothing before a second");
    mock.timers.tick(1);
    // The blank line due before a call line is written for good with the first drawing.
    assert.deepEqual(pushed, [`${ERASE}\n… Ran terminal command: sleep 5 · running 1s`]);
    mock.timers.tick(1000);
    assert.equal(pushed[1], `${ERASE}… Ran terminal command: sleep 5 · running 2s`);
    const out = s.record(rec(EVENTS.completed, ++n));
    assert.equal(out, `${ERASE}✓ Ran terminal command: sleep 5 · 5.0s · exit 0\n`);
    mock.timers.tick(5000);
    assert.equal(pushed.length, 2, "no live line once no call is open");
    assert.equal(s.finish?.(), undefined, "nothing left to erase");
  } finally {
    mock.timers.reset();
  }
});

const FAILED = {
  ...EVENTS.completed,
  tool_call: { shellToolCall: { args: { command: "sleep 5" }, result: { failure: { exitCode: 1, stdout: "", stderr: "boom\n" } } }, startedAtMs: "1000", completedAtMs: "6000" },
};

test("live line: a result with lines below it takes the live line's place, with the one blank line due before it", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    // After a paragraph: the blank line is drawn with the live line, and not again.
    let { s, pushed } = stage(true);
    let n = 0;
    for (const ev of [EVENTS.init, EVENTS.user, EVENTS.say, EVENTS.started]) s.record(rec(ev, ++n));
    mock.timers.tick(1000);
    mock.timers.tick(1000);
    assert.equal(pushed.length, 2);
    assert.equal(s.record(rec(FAILED, ++n)), `${ERASE}✗ Ran terminal command: sleep 5 · failed, exit 1 · 5.0s\n    │ boom\n`);
    // After a call line: no blank line before the live line; the failed call's block needs one.
    ({ s, pushed } = stage(true));
    n = 0;
    const first = { ...EVENTS.completed, call_id: "other", tool_call: { ...EVENTS.completed.tool_call } };
    for (const ev of [EVENTS.init, EVENTS.user, { ...EVENTS.started, call_id: "other" }, first, EVENTS.started]) s.record(rec(ev, ++n));
    mock.timers.tick(1000);
    assert.deepEqual(pushed, [`${ERASE}… Ran terminal command: sleep 5 · running 1s`]);
    assert.equal(s.record(rec(FAILED, ++n)), `${ERASE}\n✗ Ran terminal command: sleep 5 · failed, exit 1 · 5.0s\n    │ boom\n`);
  } finally {
    mock.timers.reset();
  }
});

test("live line: never wider than the terminal (a wrapped line could not be erased in place)", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const opts: ShowOptions = { format: "text", colors: pc.createColors(true), width: 24, thinking: false, lines: 5, diff: false, exitStatus: false, live: true };
    const s = toShow(opts, new Reporter(() => {}, pc.createColors(false), false));
    const pushed: string[] = [];
    s.attach?.((t) => pushed.push(t));
    let n = 0;
    for (const ev of [EVENTS.init, EVENTS.user, EVENTS.started]) s.record(rec(ev, ++n));
    mock.timers.tick(1000);
    const visible = pushed[0]!.replace(/\u001b\[\d+m/g, "").replace(ERASE, "").replace(/^\n/, "");
    assert.equal(visible, "… Ran terminal command…");
    assert.ok([...visible].length < 24);
    // --width 0 (no wrapping): the live line still fits the terminal's own width.
    const s0 = toShow({ ...opts, width: 0, terminalColumns: 24 }, new Reporter(() => {}, pc.createColors(false), false));
    const pushed0: string[] = [];
    s0.attach?.((t) => pushed0.push(t));
    for (const [i, ev] of [EVENTS.init, EVENTS.user, EVENTS.started].entries()) s0.record(rec(ev, i + 1));
    mock.timers.tick(1000);
    assert.equal(pushed0[0]!.replace(/\u001b\[\d+m/g, "").replace(ERASE, "").replace(/^\n/, ""), "… Ran terminal command…");
  } finally {
    mock.timers.reset();
  }
});

test("live line: off (a pipe, a CI log, a finished file), nothing is ever rewritten", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const { s, pushed } = stage(false);
    let out = "";
    let n = 0;
    for (const ev of [EVENTS.init, EVENTS.user, EVENTS.say, EVENTS.started]) out += s.record(rec(ev, ++n)) ?? "";
    mock.timers.tick(10_000);
    out += s.record(rec(EVENTS.completed, ++n)) ?? "";
    assert.deepEqual(pushed, []);
    assert.ok(!out.includes("\r") && !out.includes("\u001b"), JSON.stringify(out));
  } finally {
    mock.timers.reset();
  }
});

test("live line: the run ends while it shows: erased at the end", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const { s, pushed } = stage(true);
    let n = 0;
    for (const ev of [EVENTS.init, EVENTS.user, EVENTS.started]) s.record(rec(ev, ++n));
    mock.timers.tick(1000);
    assert.equal(pushed.length, 1);
    const end = s.fileEnd?.("live.ndjson", n) ?? "";
    assert.ok(end.startsWith(ERASE + "… Ran terminal command: sleep 5 · no result"), JSON.stringify(end));
    mock.timers.tick(5000);
    assert.equal(pushed.length, 1);
  } finally {
    mock.timers.reset();
  }
});

/**
 * Output so far of a process: `until` resolves when `pred` holds (checked as output comes), `exit`
 * with the exit status; each fails after its bound and clears its timer either way, so nothing is
 * left to hold the test process open once the test is done.
 */
function watch(child: ReturnType<typeof spawn>) {
  let out = "";
  const waiters = new Set<() => void>();
  const add = (d: Buffer) => {
    out += d.toString("utf8");
    for (const w of waiters) w();
  };
  child.stdout!.on("data", add);
  child.stderr!.on("data", add);
  const exited = new Promise<number>((res) => child.on("exit", (code) => res(code ?? -1)));
  /** `p`, or a failure naming `what` after `ms`; the timer is cleared when `p` settles first. */
  const bounded = <T>(p: Promise<T>, what: string, ms: number): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; output so far: ${JSON.stringify(out)}`)), ms);
    });
    return Promise.race([p, bound]).finally(() => clearTimeout(timer));
  };
  return {
    text: () => out,
    until(pred: (s: string) => boolean, what: string, ms = 15_000): Promise<void> {
      let w: () => void = () => {};
      const met = new Promise<void>((resolve) => {
        w = () => pred(out) && resolve();
        waiters.add(w);
        w();
      });
      return bounded(met, what, ms).finally(() => waiters.delete(w));
    },
    exit: (ms = 20_000): Promise<number> => bounded(exited, "the exit", ms),
  };
}

for (const follow of ["--follow", "-F"]) {
test(`under a pseudo-terminal, show ${follow} draws the running call and replaces it with its result line`, { skip: process.platform !== "linux" }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-live-"));
  const log = join(dir, "run.ndjson");
  writeFileSync(log, [EVENTS.init, EVENTS.user, EVENTS.say, EVENTS.started].map((e) => JSON.stringify(e) + "\n").join(""));
  // script(1) gives the command a terminal for its standard output (util-linux).
  const child = spawn("script", ["-qfec", `node bin/cursorlog.js show ${follow} ${log}`, "/dev/null"], {
    env: { ...process.env, TERM: "xterm", COLUMNS: "80", NO_COLOR: "1", CI: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const w = watch(child);
  try {
    await w.until((s) => s.includes("running 1s"), "the live line");
    assert.ok(w.text().replace(/\r\n/g, "\n").includes(`${ERASE}\n… Ran terminal command: sleep 5 · running 1s`), JSON.stringify(w.text()));
    appendFileSync(log, JSON.stringify(EVENTS.completed) + "\n" + JSON.stringify(EVENTS.result) + "\n");
    const code = await w.exit();
    assert.equal(code, 0, w.text());
    const out = w.text().replace(/\r\n/g, "\n");
    const drawn = out.lastIndexOf("running");
    const done = out.indexOf(`${ERASE}✓ Ran terminal command: sleep 5 · 5.0s · exit 0\n`);
    assert.ok(drawn !== -1 && done > drawn, `the result line replaces the live line: ${JSON.stringify(out)}`);
    assert.ok(out.includes("── ✓ finished · 5.1s"), out);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
}
