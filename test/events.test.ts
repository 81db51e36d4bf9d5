import assert from "node:assert/strict";
import { test } from "node:test";
import { actionLabel, actionTarget, statusNote } from "../src/dialects/cursor/action.js";
import { AssistantText } from "../src/dialects/cursor/assistant-text.js";
import { toolCallOf } from "../src/dialects/cursor/tool-call.js";
import * as ev from "./helpers/events.js";
import { runCli } from "./helpers/run-cli.js";

test("toolCallOf: the kind is the key ending in ToolCall, never a metadata sibling", () => {
  const call = toolCallOf({
    completedAtMs: "1767225600900",
    hookAdditionalContexts: [],
    shellToolCall: { args: { command: "ls" }, result: { failure: { exitCode: 2 } } },
    startedAtMs: "1767225600100",
    toolCallId: "x",
    zzzToolCallish: 1,
  });
  assert.deepEqual(call, {
    tool: "shellToolCall",
    kind: "shell",
    args: { command: "ls" },
    status: "failure",
    outcome: { exitCode: 2 },
    startedAtMs: 1767225600100,
    completedAtMs: 1767225600900,
  });
  assert.equal(statusNote(call), "failed, exit 2");
});

test("toolCallOf: the {function:{name,arguments}} and {tool:{case,value}} envelopes", () => {
  assert.deepEqual(toolCallOf({ function: { name: "read_file", arguments: '{"path":"a.ts"}' } }), {
    tool: "read_file",
    kind: "read_file",
    args: { path: "a.ts" },
  });
  assert.deepEqual(toolCallOf({ function: { name: "x", arguments: "not json" } }).args, { arguments: "not json" });
  const sdk = toolCallOf({ tool: { case: "readToolCall", value: { args: { path: "b.ts" }, result: { result: { case: "error", value: { errorMessage: "File not found" } } } } } });
  assert.deepEqual(sdk, { tool: "readToolCall", kind: "read", args: { path: "b.ts" }, status: "error", outcome: { errorMessage: "File not found" } });
  assert.equal(actionLabel(sdk), "Read file");
  assert.equal(actionTarget(sdk), "b.ts");
  const keyed = toolCallOf({ tool: { case: "shellToolCall", value: { args: { command: "true" }, result: { success: { exitCode: 0 } } } } });
  assert.equal(keyed.status, "success");
  assert.deepEqual(toolCallOf({ toolCallId: "x" }), { tool: "unknown", kind: "unknown" });
});

test("edit creates vs edits, and the fallback label for an unknown kind", () => {
  const edit = (result: object) => actionLabel(toolCallOf({ editToolCall: { args: { path: "a" }, result: { success: result } } }));
  assert.equal(edit({ diffString: "--- /dev/null\n+++ b/a\n", afterFullFileContent: "x" }), "Created new file");
  assert.equal(edit({ message: "Wrote contents to /a" }), "Created new file");
  assert.equal(edit({ afterFullFileContent: "x" }), "Created new file");
  assert.equal(edit({ beforeFullFileContent: "w", afterFullFileContent: "x", diffString: "--- a/a\n" }), "Edited file");
  assert.equal(actionLabel(toolCallOf({ writeToolCall: { args: { path: "a" } } })), "Created new file");
  assert.equal(actionLabel(toolCallOf({ quantumToolCall: {} })), "Used tool quantumToolCall");
});

test("assistant text: --stream-partial-output repetitions are not doubled; 2025 split messages are joined", () => {
  const a = new AssistantText();
  const say = (text: string, extra: ev.AssistantFields = {}) => a.observe(ev.assistant(text, extra));
  say("Hel", { timestamp_ms: 1 });
  say("lo.", { timestamp_ms: 2 });
  say("Hello.", { timestamp_ms: 3, model_call_id: "m-0" });
  a.observe(ev.toolCallEvent(undefined, "started", "c", {}));
  say("By", { timestamp_ms: 4 });
  say("e", { timestamp_ms: 5 });
  say("Bye");
  assert.equal(a.text(), "Hello.Bye");
  assert.equal(a.finalMessage(), "Bye");
  const b = new AssistantText();
  b.observe(ev.assistant("I'll "));
  b.observe(ev.assistant("read it"));
  assert.equal(b.text(), "I'll read it");
});

const S = ev.line(ev.init("s"));
const R = (isError: boolean) => ev.line(ev.result("s", { duration_ms: 1, duration_api_ms: 1, is_error: isError, result: "x" }, { request_id: "r" }));

test("a result with is_error:true is printed and exits 1, saying why in one line", async () => {
  const r = await runCli(["json"], { stdin: S + R(true) });
  const why = "cursorlog: error (at <stdin>:2): session s ended with an error (is_error: true, subtype success): x\n";
  assert.deepEqual(r, { stdout: R(true).replace('"duration_ms":1,"duration_api_ms":1,"is_error":true', '"is_error":true,"duration_ms":1,"duration_api_ms":1'), stderr: why, code: 1 });
  assert.deepEqual(await runCli(["text"], { stdin: S + R(true) }), { stdout: "", stderr: why, code: 1 });
});

test("colour: only when asked or on a terminal, through picocolors, never with NO_COLOR", async () => {
  const log = S + ev.line(ev.completed("s", "c", "shellToolCall", { args: { command: "x" }, result: { failure: { exitCode: 3 } } })) + R(false);
  const plain = "Ran terminal command (failed, exit 3)\n";
  assert.equal((await runCli(["text"], { stdin: log })).stdout, plain);
  assert.equal((await runCli(["text"], { stdin: log, env: { NO_COLOR: "1" }, stdoutIsTTY: true })).stdout, plain);
  assert.equal((await runCli(["text", "--color", "never"], { stdin: log, env: { FORCE_COLOR: "1" } })).stdout, plain);
  const colored = "\u001b[1mRan terminal command\u001b[22m \u001b[31m(failed, exit 3)\u001b[39m\n";
  assert.equal((await runCli(["text", "--color", "always"], { stdin: log, env: {} })).stdout, colored);
  assert.equal((await runCli(["text"], { stdin: log, env: {}, stdoutIsTTY: true })).stdout, colored);
  assert.equal((await runCli(["text"], { stdin: log, env: { FORCE_COLOR: "1" } })).stdout, colored);
  assert.equal((await runCli(["text"], { stdin: log, env: { CI: "true" } })).stdout, plain, "CI alone never forces colour");
});

test("a session cut off in a run of skipped thinking lines ends at the run's last line, and a run after a result starts the next session", async () => {
  const think = (n: number) => ev.line(ev.thinkingDelta("s2", n, `t${n}`));
  const init = ev.line(ev.init("s1"));
  const result = ev.line(ev.result("s1", { is_error: false, result: "ok" }));
  // Lines 3-5 are thinking after a result: a second session, cut off at line 5.
  const log = init + result + think(1) + think(2) + think(3);
  for (const cmd of ["json", "text", "timeline"]) {
    const r = await runCli([cmd], { stdin: log });
    assert.equal(r.code, 4, cmd);
    assert.equal(r.stderr, "cursorlog: error (at <stdin>:5): session #2 has no result: its lines end at line 5, no tool call open\n", cmd);
  }
});
