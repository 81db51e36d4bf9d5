import assert from "node:assert/strict";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";

// `cursorlog export --format chrome-trace`: one valid Chrome Trace Event JSON document; one process
// per run, one thread per lane exactly as the HTML timeline's Gantt assigns them, complete events
// with target, status and exit code, instant events for the agent's messages.

const F = "test/fixtures";
const DATA = /<script type="application\/json" id="timeline-data">([^]*?)<\/script>/;

type TraceEvent = { ph: string; pid: number; tid: number; name: string; ts?: number; dur?: number; cat?: string; s?: string; args: Record<string, any> };

async function trace(files: string[]): Promise<TraceEvent[]> {
  const r = await runCli(["export", "--format", "chrome-trace", "--allow-incomplete", ...files]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { traceEvents: TraceEvent[]; displayTimeUnit: string };
  assert.equal(doc.displayTimeUnit, "ms");
  return doc.traceEvents;
}

async function gantt(files: string[]): Promise<Array<{ calls: Array<{ id: string; lane: number; seq: number }> }>> {
  const r = await runCli(["timeline", "--format", "html", "--allow-incomplete", ...files]);
  return JSON.parse(DATA.exec(r.stdout)![1]!).sessions;
}

const LANE_FIXTURES = [
  `${F}/parallel-out-of-order.ndjson`,
  `${F}/timeline/parallel-30-reverse.ndjson`,
  `${F}/timeline/clocks-and-ends.ndjson`,
  `${F}/timeline/no-timestamps-2025.ndjson`,
  `${F}/2026-long.ndjson`,
  `${F}/2025-shape.ndjson`,
  `${F}/export/background-mcp.ndjson`,
  `${F}/crash-no-result.ndjson`,
];

test("each call is on the thread of its HTML Gantt lane (tid = lane + 1), in every run", async () => {
  for (const path of LANE_FIXTURES) {
    const events = await trace([path]);
    const sessions = await gantt([path]);
    sessions.forEach((s, i) => {
      const calls = events.filter((e) => e.ph === "X" && e.pid === i + 1 && e.tid > 0);
      assert.equal(calls.length, s.calls.length, path);
      for (const c of s.calls) {
        const e = calls.find((x) => x.args.seq === c.seq)!;
        assert.equal(e.args.call_id, c.id, path);
        assert.equal(e.tid, c.lane + 1, `${path}: call ${c.seq}`);
      }
      const lanes = new Set(s.calls.map((c) => c.lane));
      const named = events.filter((e) => e.ph === "M" && e.pid === i + 1 && e.name === "thread_name" && e.tid > 0);
      assert.deepEqual(named.map((e) => e.tid).sort((a, b) => a - b), [...lanes].map((l) => l + 1).sort((a, b) => a - b));
    });
  }
});

test("no two complete events overlap on one thread (Perfetto would not draw them)", async () => {
  for (const path of LANE_FIXTURES) {
    const events = (await trace([path])).filter((e) => e.ph === "X" && e.tid > 0);
    const byThread = new Map<string, TraceEvent[]>();
    for (const e of events) byThread.set(`${e.pid}/${e.tid}`, [...(byThread.get(`${e.pid}/${e.tid}`) ?? []), e]);
    for (const [key, list] of byThread) {
      list.sort((a, b) => a.ts! - b.ts!);
      for (let i = 1; i < list.length; i++) assert.ok(list[i]!.ts! >= list[i - 1]!.ts! + list[i - 1]!.dur!, `${path} ${key}: ${list[i - 1]!.name} / ${list[i]!.name}`);
    }
  }
});

test("events: the run, calls with target/status/exit code, messages as instants, process and thread names", async () => {
  const events = await trace([`${F}/parallel-out-of-order.ndjson`]);
  const meta = events.filter((e) => e.ph === "M");
  assert.deepEqual(meta.find((e) => e.name === "process_name")!.args, { name: "7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01 · test/fixtures/parallel-out-of-order.ndjson:1" });
  assert.deepEqual(meta.filter((e) => e.name === "thread_name").map((e) => [e.tid, e.args.name]), [[0, "agent"], [1, "lane 1"], [2, "lane 2"], [3, "lane 3"]]);
  const run = events.find((e) => e.ph === "X" && e.tid === 0)!;
  assert.equal(run.name, "cursor-agent run");
  assert.equal(run.args.outcome, "finished");
  const sleeps = events.filter((e) => e.ph === "X" && e.tid > 0);
  assert.deepEqual(
    sleeps.map((e) => [e.name, e.ts, e.dur, e.args.target, e.args.status, e.args.exit_code]),
    [
      ["shell sleep 6", 1767225600500000, 6000000, "sleep 6", "success", 0],
      ["shell sleep 4", 1767225600501000, 4000000, "sleep 4", "success", 0],
      ["shell sleep 1", 1767225600502000, 1000000, "sleep 1", "success", 0],
    ],
  );
  const messages = events.filter((e) => e.ph === "i");
  assert.deepEqual(messages.map((e) => [e.name, e.s, e.tid, e.args.text]), [
    ["message", "t", 0, "Running the three sleeps in parallel."],
    ["message", "t", 0, "All three finished."],
  ]);
});

test("--stream-partial-output: a message is its consolidated segment, once, at the time its deltas began", async () => {
  const events = await trace([`${F}/partial-output.ndjson`]);
  const r = await runCli(["json", `${F}/partial-output.ndjson`]);
  const texts = events.filter((e) => e.ph === "i" && e.name === "message").map((e) => e.args.text);
  assert.equal(texts.join(""), JSON.parse(r.stdout).result, "the messages make up result.result, nothing doubled");
});

test("several files and runs: one document, one process per run, in order", async () => {
  const events = await trace([`${F}/2026-long.ndjson`, `${F}/two-sessions.ndjson`]);
  const procs = events.filter((e) => e.name === "process_name");
  assert.deepEqual(procs.map((e) => e.pid), [1, 2, 3]);
  assert.match(procs[2]!.args.name, /two-sessions\.ndjson:\d+$/);
});

test("a run without times (2025): start order, zero-length calls, marked time_unknown", async () => {
  const events = await trace([`${F}/timeline/no-timestamps-2025.ndjson`]);
  const calls = events.filter((e) => e.ph === "X" && e.tid > 0);
  for (const c of calls) {
    assert.equal(c.args.time_unknown, true);
    assert.equal(c.args.duration_ms, null);
    if (c.args.status !== "incomplete") assert.equal(c.dur, 0);
  }
  assert.deepEqual(calls.map((c) => c.ts), calls.map((_, i) => i));
});

test("on a terminal, C1 controls and bidi characters are \\u escapes: the same JSON, nothing raw", async () => {
  const argv = ["export", "--format", "chrome-trace", `${F}/hostile.ndjson`];
  const tty = await runCli(argv, { stdoutIsTTY: true });
  const pipe = await runCli(argv);
  assert.doesNotMatch(tty.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  assert.deepEqual(JSON.parse(tty.stdout), JSON.parse(pipe.stdout));
});
