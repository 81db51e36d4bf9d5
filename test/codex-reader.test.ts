// The Codex dialect (src/dialects/codex/), driven directly over the fixtures
// (test/fixtures/codex/, shapes of /work/shared/AGENTS.md §2) and a few hand-built lines:
// recognition, runs and their boundaries, calls and their facts (kinds, labels, targets, statuses,
// exit codes, file changes), no time anywhere, usage, the result object json prints, text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { codexDialect } from "../src/dialects/codex/reader.js";
import { recogniseCodex } from "../src/dialects/codex/recognise.js";
import { unwrapCommand } from "../src/dialects/codex/items.js";
import type { ReaderOptions } from "../src/dialects/dialect.js";
import type { JsonObject, JsonRecord } from "../src/input/record.js";
import type { Call } from "../src/model/call.js";
import type { Run, Step } from "../src/model/run.js";
import { RunText } from "../src/model/text.js";
import { fixtureRecords, recordsOf } from "./helpers/records.js";
import { runFed } from "./helpers/run-chunks.js";

const fixture = (stem: string): string => `test/fixtures/codex/${stem}.ndjson`;

interface Read {
  steps: Step[];
  runs: Run[];
}

function readRecords(recs: JsonRecord[], opts: ReaderOptions = {}): Read {
  const reader = codexDialect.reader(opts);
  const steps = recs.map((r) => reader.read(r));
  const last = reader.endFile(recs.length === 0 ? 0 : recs[recs.length - 1]!.line);
  const runs: Run[] = [];
  for (const s of steps) if (!runs.includes(s.run)) runs.push(s.run);
  if (last !== undefined && !runs.includes(last)) runs.push(last);
  return { steps, runs };
}

const readFixture = (stem: string, opts?: ReaderOptions): Read => readRecords(fixtureRecords(fixture(stem)), opts);
const readEvents = (events: JsonObject[]): Read => readRecords(recordsOf(events, "x.ndjson"));

/** The completed calls, in the order completed. */
function done(steps: Step[]): Call[] {
  return steps.flatMap((s) => (s.calls ?? []).filter((e) => e.what === "done").map((e) => e.call));
}

/** A call's facts in one line: kind, label, target, status, arm, note, exit code. */
function facts(c: Call): string {
  return [c.id, c.kind, c.label, JSON.stringify(c.target), c.status, c.arm ?? "-", JSON.stringify(c.note()), c.exitStatus ?? "-"].join(" | ");
}

test("recognise: Codex's dotted types and its bare error; not Cursor, Claude Code or Gemini CLI lines", () => {
  assert.equal(recogniseCodex({ type: "thread.started", thread_id: "t" }), true);
  assert.equal(recogniseCodex({ type: "turn.started" }), true);
  assert.equal(recogniseCodex({ type: "item.completed", item: { id: "item_0", type: "agent_message", text: "x" } }), true);
  assert.equal(recogniseCodex({ type: "item.completed" }), false);
  assert.equal(recogniseCodex({ type: "error", message: "Reconnecting... 1/5" }), true);
  assert.equal(recogniseCodex({ type: "error", timestamp: "2026-03-19T04:50:00.100Z", severity: "warning", message: "Loop detected" }), false);
  assert.equal(recogniseCodex({ type: "system", subtype: "init", session_id: "s" }), false);
  assert.equal(recogniseCodex({ type: "init", timestamp: "2026-03-19T04:50:00.100Z", session_id: "s", model: "m" }), false);
  assert.equal(recogniseCodex({ msg: { type: "agent_message" }, id: "0" }), undefined);
});

test("unwrapCommand: the login shell's wrapper and one quoting layer taken off; anything else as logged", () => {
  assert.equal(unwrapCommand("/bin/bash -lc 'npm test'"), "npm test");
  assert.equal(unwrapCommand("/bin/zsh -lc 'npm test'"), "npm test");
  assert.equal(unwrapCommand(`/bin/bash -lc 'sed -n '\\''1,200p'\\'' src/app.ts'`), "sed -n '1,200p' src/app.ts");
  assert.equal(unwrapCommand("bash -lc ls"), "ls");
  assert.equal(unwrapCommand("bash -lc ls;rm"), "bash -lc ls;rm");
  assert.equal(unwrapCommand("npm test"), "npm test");
  assert.equal(unwrapCommand("/bin/bash -lc 'a' 'b'"), "/bin/bash -lc 'a' 'b'");
  assert.equal(unwrapCommand("/bin/bash -c 'npm test'"), "/bin/bash -c 'npm test'");
});

test("commands: a read, a failure with its exit code, a command declined; reasoning, messages; the run finished", () => {
  const { steps, runs } = readFixture("commands");
  assert.equal(runs.length, 1);
  const run = runs[0]!;
  assert.deepEqual(done(steps).map(facts), [
    `item_1 | shell | Ran terminal command | "sed -n '1,200p' src/app.ts" | ok | completed | "" | 0`,
    `item_3 | shell | Ran terminal command | "npm test" | failed | failed | "failed, exit 1" | 1`,
    `item_4 | shell | Ran terminal command | "grep -rn 'TODO' src" | ok | completed | "" | 0`,
    `item_5 | shell | Ran terminal command | "git push --force origin main" | refused | declined | "declined" | -`,
  ]);
  const failed = done(steps)[1]!;
  assert.equal(failed.failureText()?.from, "output");
  assert.match(failed.failureText()!.text, /not ok 1 - sum adds/);
  // The declined command is told by its item.completed alone: it starts and completes on that line.
  const declined = steps.find((s) => s.calls?.some((e) => e.call.id === "item_5"))!;
  assert.deepEqual(declined.calls!.map((e) => e.what), ["started", "done"]);
  assert.equal(run.outcome, "finished");
  assert.equal(run.sessionId, "01a10250-1fd6-7629-be2d-3f4da109a558");
  assert.equal(run.startedCount, 4);
  assert.equal(run.openCount, 0);
  assert.equal(steps.filter((s) => s.thinking !== undefined).length, 1);
  assert.equal(steps[0]!.init, true);
});

test("no time anywhere: no line, call or run has one", () => {
  for (const stem of ["commands", "file-changes", "mcp-web", "todo-subagents", "resumed", "early-2026"]) {
    const { steps, runs } = readFixture(stem);
    for (const s of steps) assert.equal(s.at, undefined);
    for (const c of done(steps)) assert.deepEqual({ ...c.timing }, {});
    for (const r of runs) {
      assert.equal(r.start, undefined);
      assert.equal(r.end, undefined);
      assert.equal(r.statedDurationMs, undefined);
    }
  }
});

test("file_change: one call per change, Created new file / Edited file / Deleted file; a failed patch changes nothing", () => {
  const { steps } = readFixture("file-changes");
  const calls = done(steps).filter((c) => c.writesFiles);
  assert.deepEqual(calls.map(facts), [
    `item_1 | write | Created new file | "/home/dev/app/src/empty.ts" | ok | completed | "" | -`,
    `item_1#2 | edit | Edited file | "/home/dev/app/src/sum.ts" | ok | completed | "" | -`,
    `item_1#3 | delete | Deleted file | "/home/dev/app/src/old.ts" | ok | completed | "" | -`,
    `item_2 | edit | Edited file | "/home/dev/app/src/missing.ts" | failed | failed | "failed" | -`,
  ]);
  assert.deepEqual(
    calls.map((c) => c.fileChange()),
    [{ op: "create", path: "/home/dev/app/src/empty.ts" }, { op: "edit", path: "/home/dev/app/src/sum.ts" }, { op: "delete", path: "/home/dev/app/src/old.ts" }, undefined],
  );
  assert.equal(calls[0]!.targetWith((p) => p.replace("/home/dev/app/", "")), "src/empty.ts");
  assert.equal(calls[0]!.targetIsPath, true);
  // The started frame started the three; its completion completed them, each with its start.
  for (const c of calls) assert.notEqual(c.startLine, c.endLine);
});

test("mcp and web searches: server/tool, failure's message in the note; the duplicated id; search, open_page, find_in_page", () => {
  const { steps } = readFixture("mcp-web");
  assert.deepEqual(done(steps).map(facts), [
    `item_0 | mcp | Called MCP tool | "linear/list_issues" | ok | completed | "" | -`,
    `item_1 | mcp | Called MCP tool | "github/create_issue" | failed | failed | "error: MCP tool call requires approval, but approval policy is never" | -`,
    `ws_54ad65d2311f492aa7134d17cf9dfdaddceb83ef | webSearch | Searched the web | "node test runner empty array reduce TypeError" | ok | - | "" | -`,
    `ws_0f93e78ce3fcf8dfa3604bddec5e47cf41a98f0e | webFetch | Fetched web page | "https://nodejs.org/api/test.html" | ok | - | "" | -`,
    `ws_6ffe21e4d28b9f483eb6ccd56aa0cd2b30e140dd | webFetch | Fetched web page | "describe in https://nodejs.org/api/test.html" | ok | - | "" | -`,
  ]);
  const mcp = done(steps)[1]!;
  assert.deepEqual(mcp.mcp, { server: "github", tool: "create_issue" });
  assert.deepEqual(mcp.failureText(), { text: "MCP tool call requires approval, but approval policy is never", from: "error", inNote: true });
  assert.deepEqual(mcp.args, { server: "github", tool: "create_issue", arguments: { repo: "dev/app", title: "Flaky test" } });
  // Each web search paired its two frames (the id JSON.parse keeps is in both).
  assert.equal(steps[0]!.run.openCount, 0);
  assert.equal(done(steps)[2]!.startTool, "web_search");
});

test("todo list and subagents: an update of the open list tells no call event; collab calls are subagent tasks", () => {
  const { steps } = readFixture("todo-subagents");
  assert.deepEqual(done(steps).map(facts), [
    `item_1 | task | Ran subagent task | "spawn_agent 01a10249-4a40-74a7-98fb-24f240dd933f" | ok | completed | "" | -`,
    `item_2 | task | Ran subagent task | "wait 01a10249-4a40-74a7-98fb-24f240dd933f" | ok | completed | "" | -`,
    `item_3 | edit | Edited file | "/home/dev/app/src/sum.ts" | ok | completed | "" | -`,
    `item_4 | shell | Ran terminal command | "npm test" | ok | completed | "" | 0`,
    `item_5 | task | Ran subagent task | "send_input 01a10249-4a40-74a7-98fb-24f240dd933f" | ok | completed | "" | -`,
    `item_6 | task | Ran subagent task | "close_agent 01a10249-4a40-74a7-98fb-24f240dd933f" | ok | completed | "" | -`,
    `item_0 | updateTodos | Updated todos | "3 todos" | ok | - | "" | -`,
  ]);
  // Lines 8 and 11 are the list's item.updated.
  assert.equal(steps[7]!.calls, undefined);
  assert.equal(steps[10]!.calls, undefined);
  assert.equal(steps.filter((s) => s.calls?.some((e) => e.what === "restarted")).length, 0);
  assert.equal(done(steps)[0]!.subagent?.agentId, "01a10249-4a40-74a7-98fb-24f240dd933f");
  assert.equal(done(steps)[0]!.tool, "spawn_agent");
  // send_input: the subagent it sends to, the tool as Codex names it.
  assert.equal(done(steps)[4]!.tool, "send_input");
  assert.equal(done(steps)[4]!.subagent?.agentId, "01a10249-4a40-74a7-98fb-24f240dd933f");
  // The list's seq is its start's: the first call of the run.
  assert.equal(done(steps)[6]!.seq, 1);
});

test("turn.failed: the run failed with its message; reconnections are notices of their lines, not the CLI's text; no usage", () => {
  const { steps, runs } = readFixture("turn-failed");
  const run = runs[0]!;
  assert.equal(run.outcome, "failed");
  assert.match(run.failure!, /^stream disconnected before completion/);
  assert.equal(run.said, undefined);
  assert.deepEqual(steps.map((s, k) => [k + 1, s.notice]).filter(([, n]) => n !== undefined).map(([l]) => l), [5, 6]);
  assert.deepEqual(steps.filter((s) => s.notice !== undefined).map((s) => s.notice), [
    { kind: "reconnecting", attempt: 1 },
    { kind: "reconnecting", attempt: 2 },
  ]);
  assert.equal(run.usage, undefined);
  assert.deepEqual(run.result!.value, { type: "result", subtype: "error", is_error: true, result: "", session_id: run.sessionId });
  assert.equal(run.stated!.text, undefined);
});

test("an item never completed: open at a finished run's end (reaped), and a run with no terminal event is cut off", () => {
  const reaped = readFixture("reaped");
  assert.equal(reaped.runs[0]!.outcome, "finished");
  assert.deepEqual(reaped.runs[0]!.openCalls().map((c) => [c.id, c.status, c.target, c.startLine]), [["item_0", "open", "npm run dev > /tmp/dev.log 2>&1", 3]]);
  const cut = readFixture("interrupted");
  assert.equal(cut.runs[0]!.outcome, "cut-off");
  assert.equal(cut.runs[0]!.result, undefined);
  assert.equal(cut.runs[0]!.lastLine, 4);
  assert.deepEqual(cut.runs[0]!.openCalls().map((c) => [c.label, c.target]), [["Ran terminal command", "npm run build"]]);
});

test("two processes appended: two runs of one thread, ids restarting at item_0 never paired across them; usage the thread's, input less the cache's (nested), raw as logged", () => {
  const { steps, runs } = readFixture("resumed");
  assert.equal(runs.length, 2);
  assert.equal(runs[0]!.sessionId, runs[1]!.sessionId);
  assert.deepEqual(runs.map((r) => [r.startLine, r.lastLine, r.outcome, r.startedCount, r.openCount]), [
    [1, 6, "finished", 1, 0],
    [7, 12, "finished", 1, 0],
  ]);
  const calls = done(steps);
  assert.deepEqual(calls.map((c) => [c.id, c.target, c.startLine, c.endLine]), [
    ["item_0", "cat package.json", 3, 4],
    ["item_0", "npm version patch --no-git-tag-version", 9, 10],
  ]);
  assert.deepEqual(runs.map((r) => r.usage), [
    { scope: "thread", inputTokens: 4835, outputTokens: 310, cacheReadTokens: 18944, cacheWriteTokens: 0, raw: { input_tokens: 23779, cached_input_tokens: 18944, cache_write_input_tokens: 0, output_tokens: 310, reasoning_output_tokens: 64 } },
    { scope: "thread", inputTokens: 6510, outputTokens: 655, cacheReadTokens: 30720, cacheWriteTokens: 0, raw: { input_tokens: 37230, cached_input_tokens: 30720, cache_write_input_tokens: 0, output_tokens: 655, reasoning_output_tokens: 192 } },
  ]);
  assert.equal(steps[6]!.begun, true);
  assert.equal(steps[6]!.ended, runs[0]);
});

test("the result object: Cursor's keys, the last agent_message, the thread id, the last usage as logged; nothing else", () => {
  const { runs } = readFixture("commands");
  const r = runs[0]!.result!;
  assert.equal(r.line, 13);
  assert.equal(
    r.text,
    '{"type":"result","subtype":"success","is_error":false,"result":"The test `sum adds` fails: `sum` returns `undefined` for an empty array. I did not push.","session_id":"01a10250-1fd6-7629-be2d-3f4da109a558","usage":{"input_tokens":24811,"cached_input_tokens":19200,"cache_write_input_tokens":0,"output_tokens":612,"reasoning_output_tokens":256}}',
  );
  assert.equal(runs[0]!.stated!.text, "The test `sum adds` fails: `sum` returns `undefined` for an empty array. I did not push.");
  assert.deepEqual(codexDialect.jsonKeyOrder, ["type", "subtype", "is_error", "result", "session_id", "usage"]);
  // Early 2026: three counts, no cache write.
  const early = readFixture("early-2026").runs[0]!;
  assert.deepEqual(early.usage, { scope: "thread", inputTokens: 4246, outputTokens: 701, cacheReadTokens: 9984, raw: { input_tokens: 14230, cached_input_tokens: 9984, output_tokens: 701 } });
});

test("error items are warnings of the run, each a notice of its own line: before turn.started and after", () => {
  const { runs, steps } = readFixture("warnings");
  assert.equal(runs.length, 1);
  const trust = "--dangerously-bypass-hook-trust is set: hooks from untrusted projects will run without confirmation";
  assert.deepEqual(
    steps.map((s, k) => [k + 1, s.notice]).filter(([, n]) => n !== undefined),
    [
      [2, { kind: "warning", text: trust, severity: undefined }],
      [3, { kind: "warning", text: trust, severity: undefined }],
      [5, { kind: "warning", text: "Model gpt-5.5-codex is at capacity; this turn uses gpt-5.4-codex instead.", severity: undefined }],
    ],
  );
  // Not the CLI's own text lines too (told once, where it came).
  assert.equal(runs[0]!.said, undefined);
  assert.equal(runs[0]!.outcome, "finished");
  // A top-level error that is not a reconnection is a warning too; a reconnection, its notice only.
  const top = readEvents([{ type: "thread.started", thread_id: "t" }, { type: "turn.started" }, { type: "error", message: "a warning written for this test" }, { type: "error", message: "Reconnecting... 3/5" }]);
  assert.deepEqual(top.steps.map((s) => s.notice), [undefined, undefined, { kind: "warning", text: "a warning written for this test", severity: undefined }, { kind: "reconnecting", attempt: 3 }]);
  assert.equal(top.runs[0]!.said, undefined);
  assert.equal(done(steps).length, 1);
});

test("early 2026: a file_change and a web_search told by item.completed alone; the search's query", () => {
  const { steps } = readFixture("early-2026");
  assert.deepEqual(done(steps).map(facts), [
    `item_1 | shell | Ran terminal command | "rg -n 'export function sum' src" | ok | completed | "" | 0`,
    `item_2 | webSearch | Searched the web | "Array.prototype.reduce initial value" | ok | - | "" | -`,
    `item_3 | edit | Edited file | "/home/dev/app/src/sum.ts" | ok | completed | "" | -`,
    `item_4 | shell | Ran terminal command | "npm test" | ok | completed | "" | 0`,
  ]);
  for (const c of done(steps).slice(1, 3)) assert.equal(c.startLine, c.endLine);
});

test("text: agent messages whole; the final message is the last one after the last call", () => {
  const { steps } = readFixture("commands");
  const text = new RunText();
  for (const s of steps) text.observe(s);
  text.end();
  assert.equal(text.finalMessage(), "The test `sum adds` fails: `sum` returns `undefined` for an empty array. I did not push.");
});

test("boundaries: a thread.started while a run is open cuts it off; a turn after a terminal event is a new run of the same thread", () => {
  const t = "019a0000-0000-7000-8000-000000000001";
  const { runs } = readEvents([
    { type: "thread.started", thread_id: t },
    { type: "turn.started" },
    { type: "item.started", item: { id: "item_0", type: "command_execution", command: "sleep 9", aggregated_output: "", exit_code: null, status: "in_progress" } },
    { type: "thread.started", thread_id: t },
    { type: "turn.started" },
    { type: "item.completed", item: { id: "item_0", type: "command_execution", command: "ls", aggregated_output: "", exit_code: 0, status: "completed" } },
    { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    { type: "turn.started" },
    { type: "turn.completed", usage: { input_tokens: 2, cached_input_tokens: 0, output_tokens: 2 } },
  ]);
  assert.deepEqual(runs.map((r) => [r.startLine, r.lastLine, r.outcome, r.sessionId, r.openCount]), [
    [1, 3, "cut-off", t, 1],
    [4, 7, "finished", t, 0],
    [8, 9, "finished", t, 0],
  ]);
});

test("maxOpen: past it, starts are counted and their completions close them", () => {
  const events: JsonObject[] = [{ type: "thread.started", thread_id: "t" }, { type: "turn.started" }];
  for (let i = 0; i < 5; i++) events.push({ type: "item.started", item: { id: `item_${i}`, type: "command_execution", command: `c${i}`, aggregated_output: "", exit_code: null, status: "in_progress" } });
  events.push({ type: "item.completed", item: { id: "item_4", type: "command_execution", command: "c4", aggregated_output: "", exit_code: 0, status: "completed" } });
  const reader = codexDialect.reader({ maxOpen: 2 });
  let last: Step | undefined;
  for (const r of recordsOf(events)) last = reader.read(r);
  assert.equal(last!.run.openCount, 4);
  assert.equal(last!.run.openCalls().length, 2);
});

test("item.updated: an open call keeps the item as updated; one whose start was not seen starts there", () => {
  const list = (n: number) => ({ id: "item_0", type: "todo_list", items: Array.from({ length: n }, (_, i) => ({ text: `t${i}`, completed: false })) });
  const { steps, runs } = readEvents([
    { type: "thread.started", thread_id: "t" },
    { type: "turn.started" },
    { type: "item.started", item: list(2) },
    { type: "item.updated", item: list(3) },
    { type: "item.updated", item: { id: "item_1", type: "todo_list", items: [] } },
  ]);
  assert.equal(steps[3]!.calls, undefined);
  assert.deepEqual(steps[4]!.calls!.map((e) => [e.what, e.call.id]), [["started", "item_1"]]);
  assert.deepEqual(runs[0]!.openCalls().map((c) => c.target), ["3 todos", "0 todos"]);
});

test("usage: the input not from the cache is input_tokens less cached_input_tokens and cache_write_input_tokens; absent when not stated or negative", () => {
  const usageOf = (usage: JsonObject) => readEvents([{ type: "thread.started", thread_id: "t" }, { type: "turn.completed", usage }]).runs[0]!.usage;
  assert.equal(usageOf({ input_tokens: 38120, cached_input_tokens: 30976, cache_write_input_tokens: 1024, output_tokens: 1 })!.inputTokens, 6120);
  assert.equal(usageOf({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 1 })!.inputTokens, 6);
  assert.equal(usageOf({ input_tokens: 10, output_tokens: 1 })!.inputTokens, undefined);
  assert.equal(usageOf({ input_tokens: 10, cached_input_tokens: 11, output_tokens: 1 })!.inputTokens, undefined);
  assert.deepEqual(usageOf({ input_tokens: 10, cached_input_tokens: 11, output_tokens: 1 })!.raw, { input_tokens: 10, cached_input_tokens: 11, output_tokens: 1 });
});

test("an item of a type cursorlog has no word for is a call of its own kind (Used tool <type>); a plan item is not a call", () => {
  const { steps, runs } = readEvents([
    { type: "thread.started", thread_id: "t" },
    { type: "item.started", item: { id: "item_0", type: "image_generation", prompt: "a cat", status: "in_progress" } },
    { type: "item.completed", item: { id: "item_0", type: "image_generation", prompt: "a cat", status: "completed" } },
    { type: "item.completed", item: { id: "item_1", type: "plan", text: "1. Fix" } },
    { type: "item.completed", item: { id: "item_2", type: "screenshot" } },
    { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
  ]);
  assert.deepEqual(done(steps).map(facts), [`item_0 | image_generation | Used tool image_generation | "" | ok | completed | "" | -`, `item_2 | screenshot | Used tool screenshot | "" | no-result | - | "no result" | -`]);
  assert.equal(steps[3]!.calls, undefined);
  assert.equal(runs[0]!.startedCount, 2);
});

test("a turn.started that begins a run (another turn of the same process) opens it as thread.started does: validate finds no missing init", async () => {
  const events: JsonObject[] = [
    { type: "thread.started", thread_id: "t" },
    { type: "turn.started" },
    { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    { type: "turn.started" },
    { type: "turn.completed", usage: { input_tokens: 2, cached_input_tokens: 0, output_tokens: 2 } },
  ];
  const { steps } = readEvents(events);
  const name = "turns.ndjson";
  const r = await runFed(["validate", name], { files: { [name]: { bytes: Buffer.from(events.map((e) => JSON.stringify(e) + "\n").join("")) } } });
  assert.deepEqual([r.code, r.stdout], [0, "checked 5 lines in 1 file: 5 valid, 0 invalid; 0 errors, 0 warnings\n"]);
  assert.deepEqual(steps.map((s) => [s.begun === true, s.init === true]), [
    [true, true],
    [false, false],
    [false, false],
    [true, true],
    [false, false],
  ]);
});
