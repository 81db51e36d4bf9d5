import assert from "node:assert/strict";
import test from "node:test";
import { resolveStatuses, resolveTools, resolveTypes } from "../src/query/filter-words.js";

test("filter words: Cursor's tool names and bash, any case, are the log's kinds; a key keeps matching", () => {
  assert.deepEqual(resolveTools(["Shell"]), { values: ["shell", "Shell"] });
  assert.deepEqual(resolveTools(["bash"]).values, ["shell", "bash"]);
  assert.deepEqual(resolveTools(["READ", "Grep", "Delete", "Task"]).values, ["read", "grep", "delete", "task", "READ", "Grep", "Delete", "Task"]);
  assert.deepEqual(resolveTools(["Write"]).values, ["edit", "write", "Write"]);
  assert.deepEqual(resolveTools(["StrReplace"]).values, ["edit", "StrReplace"]);
  assert.deepEqual(resolveTools(["shellToolCall"]), { values: ["shell", "shellToolCall"] });
  assert.deepEqual(resolveTools(["shell"]), { values: ["shell"] });
});

test("filter words: the statuses cursorlog prints (failed, refused, denied, timed out) are the log's arms", () => {
  assert.deepEqual(resolveStatuses(["failed"]), { values: ["failure"] });
  assert.deepEqual(resolveStatuses(["FAILURE", "ok"]), { values: ["failure", "success"] });
  assert.deepEqual(resolveStatuses(["refused"]).values, ["rejected", "permissionDenied", "readPermissionDenied", "writePermissionDenied"]);
  assert.deepEqual(resolveStatuses(["timed out"]).values, ["timeout"]);
});

test("filter words: --type tool is tool_call; case does not matter", () => {
  assert.deepEqual(resolveTypes(["tool"]), { values: ["tool_call"] });
  assert.deepEqual(resolveTypes(["Tool_Call", "RESULT"]), { values: ["tool_call", "result"] });
});

test("filter words: an unknown value is matched as written and told with the known ones, with the nearest when one is near", () => {
  const t = resolveTypes(["assistnt"]);
  assert.deepEqual(t.values, ["assistnt"]);
  assert.equal(t.unknown, '--type "assistnt": no event type cursorlog knows, matched as written (did you mean "assistant"?); known: system, user, assistant, thinking, tool_call, result, connection, retry, interaction_query, stream_event, rate_limit_event, tool_progress, thread.started, turn.started, turn.completed, turn.failed, item.started, item.updated, item.completed, error, init, message, tool_use, tool_result');
  const s = resolveStatuses(["nope"]);
  assert.equal(s.unknown, '--status "nope": no result status cursorlog knows, matched as written; known: success, failure, rejected, error, permissionDenied, readPermissionDenied, writePermissionDenied, timeout, spawnError');
  const k = resolveTools(["fooToolCall", "shel"]);
  assert.deepEqual(k.values, ["fooToolCall", "shel"]);
  assert.match(k.unknown!, /^--tool "fooToolCall", "shel": no tool kind cursorlog knows, matched as written \(did you mean "shell"\?\); known: shell, /);
});
