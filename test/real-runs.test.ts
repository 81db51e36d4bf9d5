// Issue 12: cursorlog on real cursor-agent runs as they really end (FORMAT.md §5.4, §9). The
// golden outputs of every command over these fixtures are in real-runs.golden.test.ts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { actionTarget } from "../src/dialects/cursor/action.js";
import { toolCallOf } from "../src/dialects/cursor/tool-call.js";
import { runCli } from "./helpers/run-cli.js";

const F = "test/fixtures";

test("a log holding every shape of FORMAT.md's real-capture section passes validate --strict with no error or warning", async () => {
  const got = await runCli(["validate", "--strict", `${F}/real-2026.ndjson`]);
  assert.equal(got.stdout, "checked 31 lines in 1 file: 31 valid, 0 invalid; 0 errors, 0 warnings\n");
  assert.equal(got.code, 0);
});

test("the real-capture log holds each §5.4 shape (so the validate test above tests them)", () => {
  const text = readFileSync(`${F}/real-2026.ndjson`, "utf8");
  for (const needle of ['"contentBlobId":', '"offset":200,"limit":400', '"headLimit":20', '"headLimitApplied":20', '"C:\\\\dev\\\\app":{', '{"pattern":"Task|task|subagent","toolCallId"', '"isBackground":true', '"shellId":41', '"subtype":"task_notification","task_id":"41"', '"detail":', '"taskId":""', "*** Begin Patch", '"call_id":"Read_0"', "\\nctc_", "-aws_ue1_0", "Kimi K2.7 Code", "GPT-5.1 Medium"]) {
    assert.ok(text.includes(needle), `real-2026.ndjson lacks ${needle}`);
  }
});

test("a read answered with contentBlobId alone is valid; a wrong type there is still an error", async () => {
  const ev = (success: unknown) =>
    JSON.stringify({ type: "tool_call", subtype: "completed", call_id: "Read_0", tool_call: { readToolCall: { args: { path: "a" }, result: { success } } }, session_id: "s" }) + "\n";
  let got = await runCli(["validate", "--no-lifecycle", "--strict"], { stdin: ev({ contentBlobId: "8hQt=", fileSize: 52311, path: "a" }) });
  assert.equal(got.code, 0, got.stdout);
  got = await runCli(["validate", "--no-lifecycle"], { stdin: ev({ contentBlobId: 7 }) });
  assert.equal(got.code, 1);
  assert.match(got.stdout, /contentBlobId: must be string/);
});

test("getMcpTools in search mode: the pattern is the target; server/tool when named", () => {
  const search = toolCallOf({ getMcpToolsToolCall: { args: { pattern: "Task|task|subagent", toolCallId: "x" }, result: { success: { content: "{}" } } } });
  assert.equal(actionTarget(search), "Task|task|subagent");
  const named = toolCallOf({ getMcpToolsToolCall: { args: { server: "github", toolName: "create_issue", pattern: "x" } } });
  assert.equal(actionTarget(named), "github/create_issue");
});

test("a result's arm is the first key holding an object: a background shell's siblings may come first", () => {
  const call = toolCallOf({ shellToolCall: { args: { command: "sleep 60" }, result: { isBackground: true, terminalsFolder: "/t", success: { exitCode: 0, shellId: 3 } } } });
  assert.equal(call.status, "success");
  assert.deepEqual(call.outcome, { exitCode: 0, shellId: 3 });
});
