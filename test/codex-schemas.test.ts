// Codex's bundled schemas (schemas/codex/, issue 28), held to AGENTS.md §2.2 and to the fixtures:
// 1. One file per event type of §2.2 (and the entry, defs), each with its $id; defs holds every item type.
// 2. Every line of every fixture is valid and names no field the schemas do not (--strict clean),
//    with the precompiled validators and the schemas compiled at run time (with cursor-agent's and
//    Claude Code's sets in one Ajv) agreeing.
// 3. The event and item types the fixtures do not hold (item.plan.delta, request_user_input, the
//    plan item, thread.started's timestamp) are valid as the vendor's source writes them; a wrong
//    value in each kind of item is reported at its field.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import Ajv2020Module from "ajv/dist/2020.js";
import { CODEX_ENTRY_ID, readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { loadBundledValidators } from "../src/validate/bundled-validators.js";
import { schemaErrors } from "../src/validate/schema/findings.js";
import { BUNDLED_AJV_OPTIONS } from "../src/validate/standalone-source.js";
import { UnknownFields } from "../src/validate/unknown-fields.js";
import type { ValidateFn } from "../src/validate/validators.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

const Ajv2020 = Ajv2020Module.default;
type Json = Record<string, unknown>;

const DIR = "schemas/codex/";
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ file, schema: JSON.parse(readFileSync(DIR + file, "utf8")) as Json }));

const runtime = new Ajv2020({ ...BUNDLED_AJV_OPTIONS });
for (const dir of ["schemas/", "schemas/claude-code/"]) for (const f of readdirSync(dir).filter((n) => n.endsWith(".json"))) runtime.addSchema(JSON.parse(readFileSync(dir + f, "utf8")) as object);
for (const { schema } of files) runtime.addSchema(schema);
const runtimeEntry = runtime.getSchema(CODEX_ENTRY_ID)!;
const bundled = await loadBundledValidators(CODEX_ENTRY_ID);
const unknownFields = new UnknownFields(readBundledSchemaSet(CODEX_ENTRY_ID));

function problems(ev: Json): string[] {
  const own = typeof ev.type === "string" ? bundled.byType.get(ev.type) : undefined;
  const v: ValidateFn = own ?? bundled.entry;
  const mine = v(ev) ? [] : schemaErrors(v.errors).map((e) => `${e.path || "(root)"} ${e.keyword}`);
  const theirs = runtimeEntry(ev) ? [] : schemaErrors(runtimeEntry.errors).map((e) => `${e.path || "(root)"} ${e.keyword}`);
  assert.deepEqual([...mine].sort(), [...theirs].sort(), "the precompiled validators and the entry schema disagree");
  return mine;
}
const unknown = (ev: Json) => unknownFields.find(ev).map((u) => `${u.parent}/${u.key}`);

const EVENT_TYPES = ["thread.started", "turn.started", "turn.completed", "turn.failed", "item.started", "item.updated", "item.completed", "item.plan.delta", "request_user_input", "error"];
const ITEM_DEFS = ["agentMessage", "reasoning", "plan", "commandExecution", "fileChange", "mcpToolCall", "collabToolCall", "webSearch", "todoList", "errorItem"];

test("one file per event type of AGENTS.md §2.2, the entry and defs, each with its $id; defs has every item type", () => {
  assert.deepEqual(files.map((f) => f.file), ["codex-event.schema.json", "defs.schema.json", ...EVENT_TYPES.map((t) => `${t}.schema.json`)].sort());
  for (const { file, schema } of files) assert.equal(schema.$id, `https://cursorlog.dev/schemas/codex/${file}`, file);
  const defs = files.find((f) => f.file === "defs.schema.json")!.schema.$defs as Json;
  for (const d of ITEM_DEFS) assert.ok(d in defs, d);
  assert.deepEqual([...bundled.types!].sort(), [...EVENT_TYPES].sort());
});

test("every line of every Codex fixture is valid and names no field the schemas do not", () => {
  let n = 0;
  for (const stem of CODEX_FIXTURES) {
    const lines = readFileSync(codexFixture(stem), "utf8").trimEnd().split("\n");
    lines.forEach((line, i) => {
      const ev = JSON.parse(line) as Json;
      assert.deepEqual(problems(ev), [], `${stem}:${i + 1}`);
      assert.deepEqual(unknown(ev), [], `${stem}:${i + 1}`);
      n++;
    });
  }
  assert.ok(n > 100);
});

test("the shapes the fixtures do not hold are valid as the vendor's source writes them; a wrong value is reported at its field", () => {
  const ok: Json[] = [
    { type: "thread.started", thread_id: "t", timestamp: "2026-10-03T14:54:28Z" },
    { type: "item.plan.delta", item_id: "item_3", delta: "1. Fix" },
    { type: "request_user_input", id: "turn_1", call_id: "call_1", questions: [{ id: "q", question: "Which?" }] },
    { type: "item.completed", item: { id: "item_3", type: "plan", text: "1. Fix sum" } },
    { type: "item.completed", item: { id: "item_4", type: "mcp_tool_call", server: "s", tool: "t", arguments: {}, result: { content: [], structured_content: { a: 1 }, _meta: {} }, error: null, status: "completed" } },
    { type: "item.completed", item: { id: "item_5", type: "web_search", id: "ws_1", query: "", action: { type: "search", queries: ["a", "b"] } } },
    { type: "item.completed", item: { id: "item_6", type: "image_generation" } },
  ];
  for (const ev of ok) {
    assert.deepEqual(problems(ev), [], JSON.stringify(ev));
    assert.deepEqual(unknown(ev), [], JSON.stringify(ev));
  }
  const bad: Array<[Json, string]> = [
    [{ type: "item.completed", item: { id: "item_0", type: "command_execution", command: "ls", aggregated_output: "", exit_code: 1.5, status: "failed" } }, "/item/exit_code type"],
    [{ type: "item.completed", item: { id: "item_0", type: "command_execution", command: "ls", aggregated_output: "", exit_code: 0, status: "ok" } }, "/item/status enum"],
    [{ type: "item.completed", item: { id: "item_0", type: "collab_tool_call", tool: "fork", sender_thread_id: "t", receiver_thread_ids: [], prompt: null, agents_states: {}, status: "completed" } }, "/item/tool enum"],
    [{ type: "item.completed", item: { id: "item_0", type: "todo_list", items: [{ text: "a" }] } }, "/item/items/0 required"],
    [{ type: "item.completed", item: { id: "item_0", type: "web_search", query: "q", action: { type: "browse" } } }, "/item/action/type enum"],
    [{ type: "turn.failed", error: "boom" }, "/error type"],
    [{ type: "thread.started" }, "(root) required"],
  ];
  for (const [ev, want] of bad) assert.ok(problems(ev).includes(want), `${JSON.stringify(ev)}: ${problems(ev).join("; ")}`);
});
