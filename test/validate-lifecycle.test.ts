// LifecycleChecker on arrays of events (no streams): what real logs do passes, each break is one
// finding that names the lines involved.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../src/validate/finding.js";
import { LifecycleChecker } from "../src/validate/lifecycle.js";
import * as ev from "./helpers/events.js";
import { recordsOf } from "./helpers/records.js";

const S = "5b1c7e0a-3f2d-4e8b-9a61-2c4d8e0f7a13";
const init = (sid = S) => ev.init(sid);
const user = (sid = S) => ev.user(sid);
const think = (t: number, sid = S) => ev.thinkingDelta(sid, t);
const result = (sid = S) => ev.result(sid);
const call = (subtype: "started" | "completed", id: string, kind = "readToolCall", t?: number) =>
  subtype === "completed" ? ev.completed(S, id, kind, { result: { success: {} } }, t) : ev.started(S, id, kind, {}, t);

/** Runs the checker over files of events; returns "line rule (related)" per finding. */
function check(...files: ev.Ev[][]): string[] {
  const c = new LifecycleChecker();
  const out: Finding[] = [];
  files.forEach((events, n) => {
    const file = `f${n + 1}`;
    for (const rec of recordsOf(events, file, () => "")) out.push(...(c.observe(rec) ?? []));
    out.push(...(c.endFile(file, events.length) ?? []));
  });
  return out.map((f) => `${f.file}:${f.line} ${f.severity === "warning" ? "warning " : ""}${f.rule}${f.related ? ` ${f.related.join(",")}` : ""}`);
}

test("a complete session with parallel calls completing out of order: nothing", () => {
  assert.deepEqual(check([init(), user(), call("started", "a", "shellToolCall", 1), call("started", "b", "shellToolCall", 2), call("completed", "b", "shellToolCall", 3), call("completed", "a", "shellToolCall", 4), result()]), []);
});

test("Kimi ids repeat across sessions (Read_0 in every run), and a --resume keeps its session_id: nothing", () => {
  const run = [init(), user(), call("started", "Read_0"), call("completed", "Read_0"), result()];
  assert.deepEqual(check([...run, ...run, ...run]), []);
});

test("a call id may be reused within a session after its call completed", () => {
  assert.deepEqual(check([init(), call("started", "x"), call("completed", "x"), call("started", "x"), call("completed", "x"), result()]), []);
});

test("the 2025 shape (no timestamps) and a completion without args pass", () => {
  assert.deepEqual(check([init(), user(), { type: "tool_call", subtype: "started", call_id: "t", tool_call: { function: { name: "list_dir", arguments: "{}" } }, session_id: S }, { type: "tool_call", subtype: "completed", call_id: "t", tool_call: { function: { name: "list_dir", arguments: "{}" } }, session_id: S }, result()]), []);
});

test("sessions end with their file: a call started in one file is not completed by the next", () => {
  assert.deepEqual(check([init(), call("started", "a")], [init(), call("completed", "a"), result()]), [
    "f1:2 unfinished-call 2",
    "f1:2 no-result 1",
    "f2:2 warning orphan-completion",
  ]);
});

test("no init: at the start of a file, and after a result", () => {
  assert.deepEqual(check([user(), result(), think(5), result()]), ["f1:1 no-init", "f1:3 no-init 2"]);
});

test("no result: the session is named, the lines it spans are given", () => {
  assert.deepEqual(check([init(), user(), init(), result()]), ["f1:2 no-result 1"]);
});

test("a completion twice names the first completion and the start", () => {
  assert.deepEqual(check([init(), call("started", "a"), call("completed", "a"), call("completed", "a"), result()]), ["f1:4 double-completion 3,2"]);
});

test("a completion without start is a warning; completing it again is an error", () => {
  assert.deepEqual(check([init(), call("completed", "a", "taskToolCall"), call("completed", "a", "taskToolCall"), result()]), [
    "f1:2 warning orphan-completion",
    "f1:3 double-completion 2",
  ]);
});

test("a start while the same call is open; then its one completion", () => {
  assert.deepEqual(check([init(), call("started", "a"), call("started", "a"), call("completed", "a"), result()]), ["f1:3 duplicate-start 2"]);
});

test("completed as another kind", () => {
  assert.deepEqual(check([init(), call("started", "a", "shellToolCall"), call("completed", "a", "readToolCall"), result()]), ["f1:3 kind-mismatch 2"]);
});

test("a completion that names no kind takes its start's (no mismatch)", () => {
  const done = { type: "tool_call", subtype: "completed", call_id: "a", tool_call: { toolCallId: "a" }, session_id: S };
  assert.deepEqual(check([init(), call("started", "a", "shellToolCall"), done, result()]), []);
});

test("session_id changes: reported once per new id, naming the line of the first", () => {
  assert.deepEqual(check([init(), think(1, "other"), think(2, "other"), think(3, "third"), think(4), result()]), ["f1:2 session-id-change 1", "f1:4 session-id-change 1"]);
});

test("timestamp_ms going back is a warning against the event before; equal is fine; sessions start afresh", () => {
  assert.deepEqual(check([init(), think(10), think(10), think(5), think(7), result(), init(), think(1), result()]), ["f1:4 warning timestamp-backwards 3"]);
});

test("unknown event types and events without type go through without breaking sessions", () => {
  assert.deepEqual(check([init(), { type: "hologram" }, { subtype: "x" }, result()]), []);
});

test("a session that ends with many calls open: its findings come from a generator, in order, the next session's after them", () => {
  const n = 1000;
  const opens = Array.from({ length: n }, (_, i) => call("started", `c${i}`));
  const events = [init(), ...opens, init(), call("started", "x")];
  const c = new LifecycleChecker();
  let lazy = 0;
  const out: Finding[] = [];
  for (const rec of recordsOf(events, "f", () => "")) {
    const found = c.observe(rec);
    if (found !== undefined && !Array.isArray(found)) lazy++;
    out.push(...(found ?? []));
  }
  const last = c.endFile(events.length);
  assert.ok(Array.isArray(last), "one open call: an array");
  out.push(...(last ?? []));
  assert.equal(lazy, 1, "the end of the session of 1000 open calls");
  const got = out.map((f) => `${f.line} ${f.rule}`);
  assert.deepEqual(got, [
    ...Array.from({ length: n }, (_, i) => `${i + 2} unfinished-call`),
    `${n + 1} no-result`,
    `${n + 3} unfinished-call`,
    `${n + 3} no-result`,
  ]);
  // The same findings as through check(), which takes them as they come.
  assert.equal(check(events).length, got.length);
});

// A call left open in a run that finished: an error, but for a command of a dialect that says why
// that is its CLI's way (Dialect.reapedAtExit: Codex reaps a command left running in the
// background when it exits, and turn.completed still follows, AGENTS.md §2.3 bg-bash-reaped-at-exit).

const T = "01a1024c-ad9b-78fb-bf9e-39af29dc3785";
const codexCommand = (id: string) => ({ type: "item.started", item: { id, type: "command_execution", command: "/bin/bash -lc 'npm run dev &'", aggregated_output: "", exit_code: null, status: "in_progress" } });
const codexRun = (open: ev.Ev, end: ev.Ev[]): ev.Ev[] => [{ type: "thread.started", thread_id: T }, { type: "turn.started" }, open, { type: "item.completed", item: { id: "item_1", type: "agent_message", text: "Started." } }, ...end];
const turnCompleted = { type: "turn.completed", usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10 } };
const turnFailed = { type: "turn.failed", error: { message: "stream disconnected before completion" } };

test("Codex: a command left open in a run that ended with turn.completed is a warning that says Codex reaps it", () => {
  const c = new LifecycleChecker();
  const out: Finding[] = [];
  const events = codexRun(codexCommand("item_0"), [turnCompleted]);
  for (const rec of recordsOf(events, "r.ndjson")) out.push(...(c.observe(rec) ?? []));
  out.push(...(c.endFile("r.ndjson", events.length) ?? []));
  assert.deepEqual(out, [
    {
      file: "r.ndjson",
      line: 3,
      severity: "warning",
      rule: "unfinished-call",
      path: "",
      message: 'tool call "item_0" (command_execution) never completes, its session ends at line 5: the turn completed without it; Codex reaps a command left running in the background when it exits',
      related: [5],
    },
  ]);
});

test("Codex: an item left open stays an error in a run that failed, one cut off, and for an item that is no command", () => {
  assert.deepEqual(check(codexRun(codexCommand("item_0"), [turnFailed])), ["f1:3 unfinished-call 5"]);
  assert.deepEqual(check(codexRun(codexCommand("item_0"), [])), ["f1:3 unfinished-call 4", "f1:4 no-result 1"]);
  const change = { type: "item.started", item: { id: "item_0", type: "file_change", changes: [{ path: "/repo/a.ts", kind: "update" }], status: "in_progress" } };
  assert.deepEqual(check(codexRun(change, [turnCompleted])), ["f1:3 unfinished-call 5"]);
});

test("Claude Code and cursor-agent: a command never answered in a run that finished is an error", () => {
  const sid = "bb5bc0f1-c618-40fb-b9ae-95157d75e4bd";
  const claude = [
    { type: "system", subtype: "init", session_id: sid, tools: ["Bash"], claude_code_version: "2.1.285", model: "claude-haiku-4-5-20251001" },
    { type: "assistant", session_id: sid, message: { id: "msg_01", role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "Bash", input: { command: "npm run dev &" } }] } },
    { type: "result", subtype: "success", is_error: false, result: "Started.", session_id: sid, num_turns: 1, total_cost_usd: 0.01 },
  ];
  assert.deepEqual(check(claude), ["f1:2 unfinished-call 3"]);
  assert.deepEqual(check([init(), user(), call("started", "a", "shellToolCall"), result()]), ["f1:3 unfinished-call 4"]);
});
