// test-run: scaled
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { KEPT_ARG_MAX } from "../src/dialects/cursor/action.js";
import { openCount, SessionTracker, type OpenCall } from "../src/dialects/cursor/sessions.js";
import type { JsonObject } from "../src/input/record.js";
import { MAX_OPEN_KEPT } from "../src/outputs/json/index.js";
import { runCli } from "./helpers/run-cli.js";
import { scaled } from "./helpers/scale.js";

// Calls that start and never complete were kept whole (their event, args and all): a million of
// them took ~900 MB, 200 000 with 5 KB of args 2.2 GB. An open call now holds what its outputs
// need: kind, tool, times, line numbers, and the arguments a target or path is made of, cut.

const big = "y".repeat(5000);
let n = 0;
const started = (callId: string, toolCall: JsonObject, extra: JsonObject = {}) => ({
  file: "f.ndjson",
  line: ++n,
  text: "",
  value: { type: "tool_call", subtype: "started", call_id: callId, tool_call: toolCall, session_id: "s", ...extra } as JsonObject,
});

test("an open call keeps no event and no argument beyond what a target or path is made of, each cut", () => {
  const t = new SessionTracker();
  t.observe({ file: "f.ndjson", line: ++n, text: "", value: { type: "system", subtype: "init", session_id: "s" } });
  const step = t.observe(
    started("c1", { shellToolCall: { args: { command: `cat <<EOF\n${big}`, workingDirectory: big, timeout: 1, description: big, env: { A: big } } }, startedAtMs: "17" }, { timestamp_ms: 5, model_call_id: "m-0-ab" }),
  );
  const open = step.started as OpenCall;
  assert.deepEqual(Object.keys(open).sort(), ["args", "callId", "kind", "line", "modelCallId", "seq", "startedAtMs", "timestampMs", "tool"]);
  assert.deepEqual(Object.keys(open.args!), ["command"]);
  assert.equal((open.args!.command as string).length, KEPT_ARG_MAX);
  assert.equal(open.args!.command, `cat <<EOF\n${big}`.slice(0, KEPT_ARG_MAX - 1) + "…");
  assert.equal(open.startedAtMs, 17);
  assert.equal(open.timestampMs, 5);
  assert.equal(open.modelCallId, "m-0-ab");
  // Nothing in it is an object of the event: only strings, numbers and the cut args.
  for (const [k, v] of Object.entries(open)) if (k !== "args") assert.notEqual(typeof v, "object", k);
  // Other kinds keep the members their target reads: grep its pattern and path, a read its path.
  const grep = t.observe(started("c2", { grepToolCall: { args: { pattern: big, path: "src", outputMode: big } } })).started!;
  assert.deepEqual(Object.keys(grep.args!).sort(), ["path", "pattern"]);
  const lints = t.observe(started("c3", { readLintsToolCall: { args: { paths: ["a.ts", 3, "b.ts"] } } })).started!;
  assert.deepEqual(lints.args, { paths: ["a.ts b.ts"] });
  const todos = t.observe(started("c4", { updateTodosToolCall: { args: { todos: [{ content: big }, { content: big }] } } })).started!;
  assert.equal((todos.args!.todos as unknown[]).length, 2);
  assert.equal((todos.args!.todos as unknown[]).some((x) => x !== undefined), false);
});

test("a completion without args takes its start's target, cut to KEPT_ARG_MAX characters", () => {
  const t = new SessionTracker();
  t.observe(started("c1", { readToolCall: { args: { path: "src/a.ts", limit: 10 } } }));
  const done = t.observe({ file: "f.ndjson", line: ++n, text: "", value: { type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { readToolCall: { result: { error: { errorMessage: "no" } } } } } });
  assert.deepEqual(done.completed!.call.args, { path: "src/a.ts" });
  assert.equal(done.completed!.started!.line, n - 1);
});

interface Heap {
  perCall: number;
  perId: number;
  kept: number;
  counted: number;
}

// What the heap measures (heap used after a full gc, in a child of its own) does not depend on the
// load of the machine, nor on when the collector would have run: this file shares the machine.
// Calls (test/helpers/scale.ts): 10 000 in make test, 20 000 in make stress (CURSORLOG_STRESS=1).
const CALLS = scaled(10_000, 20_000);
const HEAP_CASES = [[CALLS, 40], [CALLS, 5000], [CALLS, 5000, MAX_OPEN_KEPT]] as const;
let measured: Heap[] | undefined;

/** The heap per open call for each of HEAP_CASES (calls, args bytes[, max open]), measured in one child. */
function heap(): Heap[] {
  const args = ["--expose-gc", "--import", "tsx", "test/helpers/open-call-heap.ts", ...HEAP_CASES.flatMap((c, i) => [...(i > 0 ? ["--"] : []), ...c.map(String)])];
  measured ??= execFileSync(process.execPath, args, { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l) as Heap);
  assert.equal(measured.length, HEAP_CASES.length);
  return measured;
}

// The promise (docs/RELIABILITY.md): at most about 300 bytes per open call beyond its id. Measured
// ~165 with a short command, ~310 with 5 KB of args (100 000 calls); before, ~740 and ~10 800.
test(`heap per open call, beyond its id, is bounded whatever the size of its args (measured after gc over ${CALLS} calls)`, { timeout: 120_000 }, () => {
  for (const [i, argsBytes] of [40, 5000].entries()) {
    const h = heap()[i]!;
    assert.equal(h.kept, CALLS);
    assert.ok(h.perCall - h.perId < 400, `${argsBytes}-byte args: ${Math.round(h.perCall)} bytes per open call, ${Math.round(h.perId)} of them its id`);
  }
});

test("json's tracker: memory does not grow with the open calls past MAX_OPEN_KEPT; they are counted", { timeout: 120_000 }, () => {
  const h = heap()[2]!;
  assert.equal(h.kept, MAX_OPEN_KEPT);
  assert.equal(h.counted, CALLS - MAX_OPEN_KEPT);
  // 1000 kept calls: well under 1 MB in all (under 50 bytes per call of 20 000).
  assert.ok(h.perCall * CALLS < 1_000_000, `${Math.round(h.perCall)} bytes per open call, ${Math.round(h.perCall * CALLS)} in all`);
});

test("maxOpen: the count stays exact with completions in any order, and the calls kept are the first still open", () => {
  const t = new SessionTracker({ maxOpen: 3 });
  const obs = (sub: string, id: string) =>
    t.observe({ file: "f.ndjson", line: ++n, text: "", value: { type: "tool_call", subtype: sub, call_id: id, tool_call: { shellToolCall: { args: { command: id } } } } });
  for (const id of ["a", "b", "c", "d", "e"]) obs("started", id);
  let s = obs("completed", "d").session; // not kept: closes a counted one
  assert.equal(openCount(s), 4);
  obs("completed", "a");
  obs("started", "f"); // counted calls are still open: f is counted too, so that the kept ones stay the first
  s = obs("completed", "b").session;
  assert.equal(openCount(s), 3);
  assert.deepEqual([...s.open.keys()], ["c"]);
  assert.equal(s.untracked, 2);
});

test("json: the message and --allow-incomplete count every open call, past the calls it keeps", async () => {
  const total = MAX_OPEN_KEPT + 500;
  const lines = [JSON.stringify({ type: "system", subtype: "init", session_id: "s" })];
  for (let i = 0; i < total; i++) lines.push(JSON.stringify({ type: "tool_call", subtype: "started", call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: `echo ${i}` } } }, session_id: "s" }));
  // Some complete, of those kept and of those only counted.
  for (const i of [0, 5, total - 1, total - 2]) lines.push(JSON.stringify({ type: "tool_call", subtype: "completed", call_id: `c${i}`, tool_call: { shellToolCall: { result: { success: {} } } }, session_id: "s" }));
  const stdin = lines.join("\n") + "\n";
  const r = await runCli(["json"], { stdin });
  assert.equal(r.code, 4);
  assert.equal(r.stderr, `cursorlog: error (at <stdin>:${lines.length}): session s has no result: its lines end at line ${lines.length}, ${total - 4} tool calls still open: Ran terminal command "echo 1" (line 3), Ran terminal command "echo 2" (line 4), Ran terminal command "echo 3" (line 5), …\n`);
  const a = await runCli(["json", "--allow-incomplete"], { stdin });
  assert.equal((JSON.parse(a.stdout) as { incomplete: { open_tool_calls: number } }).incomplete.open_tool_calls, total - 4);
  // text, which keeps them all, says the same.
  const t = await runCli(["text"], { stdin });
  assert.equal(t.stderr, r.stderr);
});
