// test-run: scaled
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { SessionTracker } from "../src/dialects/cursor/sessions.js";
import { StartOrderQueue } from "../src/outputs/timeline/start-order-queue.js";
import { runCli } from "./helpers/run-cli.js";
import { scaled } from "./helpers/scale.js";

// Issue 26 (E): timeline held about 800 bytes of RSS per call that started and never completed
// (238 MB at 300,000 calls, json ~100 MB): the tracker's OpenCall, and in its queue a place object
// per call and a second map from the call to its place. A place is now one array slot found by the
// call's seq (the tracker numbers completions without a start too), and a start's one-member args
// are a literal of that member. Heap per open call, measured as test/open-calls-memory.test.ts
// measures the tracker's (after a full gc, in a child: the machine's load does not change it):
// before 365 bytes beyond the id with a short command, 528 with 5 KB of args; now 259 and 410.
// (RSS of `cursorlog timeline` over 300,000 such calls, test/stress/calls-log.mjs --open:
// 256 MB before, 212 MB after; json 105 MB.) What is measured does not depend on the load: this
// file runs beside others in make test.

// make test 10 000 calls, make stress 20 000 (test/helpers/scale.ts): a heap after a full gc in one
// process, over 10 000 calls, is exact to a few bytes a call (the map of open calls is at the same
// load at both: 10 000 in 16 384 slots, 20 000 in 32 768), well inside the 40 bytes the bounds
// leave above what is measured.
const CALLS = scaled(10_000, 20_000);

interface Heap {
  perCall: number;
  perId: number;
  rows: number;
  bytes: number;
}

test(`timeline: heap per open call, beyond its id, is what its row needs (measured after gc over ${CALLS} calls)`, { timeout: 120_000 }, () => {
  // The TypeScript through the test runner's loader (test/helpers/ts-loader.mjs): less CPU than tsx.
  const args = ["--expose-gc", "--import", "./test/helpers/ts-loader.mjs", "test/helpers/timeline-open-heap.ts", String(CALLS), "40", "--", String(CALLS), "5000"];
  const measured = execFileSync(process.execPath, args, { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l) as Heap);
  const bounds = [300, 450];
  for (const [i, argsBytes] of [40, 5000].entries()) {
    const h = measured[i]!;
    // Every open call still gets its row, at the end of its file.
    assert.equal(h.rows, CALLS, `${argsBytes}-byte args: rows written at the end`);
    const beyond = h.perCall - h.perId;
    assert.ok(beyond < bounds[i]!, `${argsBytes}-byte args: ${Math.round(h.perCall)} bytes per open call, ${Math.round(h.perId)} of them its id (bound: ${bounds[i]} beyond it)`);
  }
});

test("the tracker numbers a completion without a start as timeline numbers its row; the queue finds a place by that seq", () => {
  const t = new SessionTracker({ numberUnstarted: true });
  let line = 0;
  const ev = (subtype: string, id: string) =>
    t.observe({ file: "f", line: ++line, text: "", value: { type: "tool_call", subtype, call_id: id, tool_call: { shellToolCall: { args: { command: id } } } } });
  const q = new StartOrderQueue<object>();
  const a = ev("started", "a").started!;
  assert.equal(q.start(a), a.seq);
  const orphan = ev("completed", "x").completed!;
  assert.equal(orphan.seq, 2);
  assert.equal(q.completeUnstarted((seq) => `x${seq}\n`), "");
  const b = ev("started", "b").started!;
  assert.equal(b.seq, 3);
  assert.equal(q.start(b), 3);
  assert.equal(ev("started", "a").restarted, a, "a restart takes no number");
  assert.equal(q.complete(b.seq, (seq) => `b${seq}\n`), "");
  assert.equal(q.complete(ev("completed", "a").completed!.started!.seq, (seq) => `a${seq}\n`), "a1\nx2\nb3\n");
  // Without the option the tracker numbers starts only, as before.
  const plain = new SessionTracker();
  plain.observe({ file: "f", line: 1, text: "", value: { type: "tool_call", subtype: "completed", call_id: "x", tool_call: {} } });
  const s = plain.observe({ file: "f", line: 2, text: "", value: { type: "tool_call", subtype: "started", call_id: "a", tool_call: {} } });
  assert.equal(s.started!.seq, 1);
});

test("timeline rows keep their numbers and order with completions without a start, out of order, across sessions", async () => {
  const S = "s1";
  const started = (id: string) => JSON.stringify({ type: "tool_call", subtype: "started", call_id: id, tool_call: { readToolCall: { args: { path: id } } }, session_id: S });
  const completed = (id: string) => JSON.stringify({ type: "tool_call", subtype: "completed", call_id: id, tool_call: { readToolCall: { args: { path: id }, result: { success: {} } } }, session_id: S });
  const lines = [
    JSON.stringify({ type: "system", subtype: "init", session_id: S }),
    started("a"),
    started("b"),
    completed("orphan"),
    completed("b"),
    started("c"),
    completed("a"),
    JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "", session_id: S }),
    JSON.stringify({ type: "system", subtype: "init", session_id: S }),
    started("d"),
    completed("d"),
  ];
  const r = await runCli(["timeline", "--allow-incomplete", "--columns", "seq,target,status,started_line,completed_line"], { stdin: lines.join("\n") + "\n" });
  assert.equal(r.stderr, "");
  assert.equal(r.stdout, "seq,target,status,started_line,completed_line\n1,a,success,2,7\n2,b,success,3,5\n3,orphan,success,,4\n4,c,incomplete,6,\n1,d,success,10,11\n");
});
