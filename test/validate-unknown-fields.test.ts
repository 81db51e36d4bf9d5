// --strict's walk of an event alongside the schemas: the fields no schema names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { schemaFacts } from "../src/validate/schema/facts.js";
import { SchemaPlans } from "../src/validate/schema/plan.js";
import type { SchemaFile, SchemaSet } from "../src/validate/schema/set.js";
import { UnknownFields } from "../src/validate/unknown-fields.js";
import * as events from "./helpers/events.js";

const bundled = new UnknownFields(readBundledSchemaSet());
const S = "5b1c7e0a-3f2d-4e8b-9a61-2c4d8e0f7a13";
const find = (u: UnknownFields, ev: Record<string, unknown>) => u.find(ev).map((f) => `${f.parent}|${f.key}`);

test("each subtype knows its own fields only: task_id is a task_notification field, not an init one", () => {
  const init = events.init(S, { apiKeySource: "login", cwd: "/", model: "m", permissionMode: "default" });
  assert.deepEqual(find(bundled, init), []);
  assert.deepEqual(find(bundled, { ...init, task_id: "7" }), ["|task_id"]);
  assert.deepEqual(find(bundled, { type: "system", subtype: "task_notification", task_id: "7", status: "success", session_id: S, timestamp_ms: 1 }), []);
});

test("nested: tool kind args, result arms, arrays of objects, recursive directory trees; keys are JSON-Pointer escaped", () => {
  const tree = { absPath: "/", childrenDirs: [{ absPath: "/a", childrenDirs: [], childrenFiles: [{ name: "x", mode: 1 }], surprise: 1 }], childrenFiles: [] };
  const ev = events.completed(S, "c", "lsToolCall", { args: { path: "/", "new/flag~": true }, result: { success: { directoryTreeRoot: tree } } });
  assert.deepEqual(find(bundled, ev), [
    "/tool_call/lsToolCall/args|new/flag~",
    "/tool_call/lsToolCall/result/success/directoryTreeRoot/childrenDirs/0/childrenFiles/0|mode",
    "/tool_call/lsToolCall/result/success/directoryTreeRoot/childrenDirs/0|surprise",
  ]);
});

test("what the schemas leave open is not looked into: an unknown kind's body, a oneof object", () => {
  const ev = events.started(S, "c", "gizmoToolCall", { anything: 1 });
  assert.deepEqual(find(bundled, ev), []);
  const task = events.started(S, "c", "taskToolCall", { subagentType: { brandNew: {} } });
  assert.deepEqual(find(bundled, task), []);
});

function userSet(schema: object): SchemaSet {
  const file: SchemaFile = { path: "s.json", name: "s.json", base: "file:///s.json", schema };
  return { files: [file], entry: file };
}

test("additionalProperties: false is ajv's to report; additionalProperties: true allows everything", () => {
  const closed = new UnknownFields(userSet({ type: "object", properties: { type: {} }, additionalProperties: false }));
  assert.deepEqual(find(closed, { type: "x", extra: 1 }), []);
  const open = new UnknownFields(userSet({ type: "object", properties: { type: {} }, additionalProperties: true }));
  assert.deepEqual(find(open, { type: "x", extra: 1 }), []);
  const named = new UnknownFields(userSet({ type: "object", properties: { type: {} } }));
  assert.deepEqual(find(named, { type: "x", extra: 1 }), ["|extra"]);
});

test("a $ref that cannot be followed leaves the object open rather than guessing", () => {
  const u = new UnknownFields(userSet({ properties: { type: {} }, allOf: [{ $ref: "elsewhere.json" }] }));
  assert.deepEqual(find(u, { type: "x", extra: 1 }), []);
});

test("facts read from a schema: the types its if/then dispatches on, the kinds it names under tool_call", () => {
  const set = readBundledSchemaSet();
  const facts = schemaFacts(new SchemaPlans(set.files).root(set.entry));
  assert.ok(facts.types!.includes("tool_call") && facts.types!.includes("retry") && !facts.types!.includes("hologram"));
  assert.ok(facts.toolKinds!.includes("shellToolCall") && facts.toolKinds!.every((k) => k.endsWith("ToolCall")));
  const plain = userSet({ type: "object", required: ["type"] });
  assert.deepEqual(schemaFacts(new SchemaPlans(plain.files).root(plain.entry)), {});
});
