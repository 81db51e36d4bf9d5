// test-run: scaled
// Codex logs never crash a command (the promise of robust-fuzz.test.ts: no crash, no hang, no stack
// trace, a status from the README table, every message in its grammar) through every command that
// reads logs (logCommands()):
//
//  - every field of every line of every Codex fixture (test/fixtures/codex/: the event's own and
//    those inside its item, usage and error) removed, or given a wrong type (make test: each line
//    shape of the fixtures once, one wrong value per field in turn; make stress: every line, every
//    value);
//  - Object.prototype names as item ids and tool names, an id started twice, completions without
//    starts, a file_change of many changes, a web search's id written three times, items inside
//    out (an item.completed before its thread.started);
//  - the dialect's facts (every Call member) asked of every call of every mutated log, directly.
//
// Every line of these inputs is a JSON object: no run may exit 5, nor 2 (the input is readable).
import assert from "node:assert/strict";
import { test } from "node:test";
import { codexDialect } from "../src/dialects/codex/reader.js";
import type { JsonObject } from "../src/input/record.js";
import type { Run } from "../src/model/run.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";
import { eachFieldMutation, readAll as readAllOf } from "./helpers/dialect-mutations.js";
import { fixtureRecords } from "./helpers/records.js";
import { logCommands, runFed, type RunResult } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";
import { assertContract } from "./helpers/verdict.js";

const COMMANDS = logCommands().map((c) => [c.name]);
const NAME = "codex.ndjson";

async function judge(bytes: Buffer, context: string): Promise<void> {
  for (const argv of COMMANDS) {
    const r: RunResult = await runFed([...argv, NAME], { files: { [NAME]: { bytes } }, timeoutMs: 10_000 });
    const what = `cursorlog ${argv.join(" ")} (${context})`;
    assertContract(r, what, [NAME]);
    assert.notEqual(r.code, 5, `${what}: every line is a JSON object, yet exit 5:\n${r.stderr}`);
    // diff refuses a Codex run's patch (exit 2, one line saying why): the one 2 a readable Codex log may give.
    if (!(argv[0] === "diff" && /: no patch: a Codex log names the files/.test(r.stderr))) assert.notEqual(r.code, 2, `${what}: exit 2 for a readable input:\n${r.stderr}`);
  }
}

const readAll = (events: JsonObject[]): Run[] => readAllOf(codexDialect, events, NAME);

const shapeOf = (e: JsonObject): string => `${String(e.type)} ${typeof e.item === "object" && e.item !== null ? String((e.item as JsonObject).type) : ""}`;

test("every field of every Codex line shape removed or of a wrong type: the dialect's facts never throw; no command crashes", { timeout: 900_000 }, async () => {
  const fixtures = CODEX_FIXTURES.map((stem) => ({ name: stem, events: fixtureRecords(codexFixture(stem)).map((r) => r.value) }));
  const cases = await eachFieldMutation(fixtures, shapeOf, STRESS, async (mutated, context, sampled) => {
    readAll(mutated);
    // The commands on a sample (every one in make stress): each shape's fields in turn.
    if (sampled) await judge(Buffer.from(mutated.map((e) => JSON.stringify(e) + "\n").join("")), context);
  });
  assert.ok(cases > 100, `only ${cases} mutations`);
});

test("prototype names as ids and tools, ids started twice, completions alone, many changes, an id written three times: no crash, what is logged", async () => {
  const cmd = (id: string, status = "completed", extra: JsonObject = {}) => ({ id, type: "command_execution", command: "/bin/bash -lc 'ls'", aggregated_output: "", exit_code: status === "completed" ? 0 : null, status, ...extra });
  const events: JsonObject[] = [
    { type: "item.completed", item: { id: "item_0", type: "error", message: "before the thread" } },
    { type: "thread.started", thread_id: "__proto__" },
    { type: "turn.started" },
    { type: "item.started", item: cmd("__proto__", "in_progress") },
    { type: "item.started", item: cmd("__proto__", "in_progress") },
    { type: "item.completed", item: cmd("constructor") },
    { type: "item.completed", item: cmd("__proto__") },
    { type: "item.completed", item: cmd("__proto__") },
    { type: "item.started", item: { id: "toString", type: "collab_tool_call", tool: "__proto__", sender_thread_id: "t", receiver_thread_ids: ["hasOwnProperty", 3, null], prompt: null, agents_states: { __proto__: { status: "running", message: null } }, status: "in_progress" } },
    { type: "item.completed", item: { id: "item_9", type: "file_change", changes: Array.from({ length: 500 }, (_, k) => ({ path: `/w/f${k}.ts`, kind: ["add", "update", "delete", "move"][k % 4] })), status: "completed" } },
    { type: "item.completed", item: { id: "item_10", type: "mcp_tool_call", server: "constructor", tool: "__proto__", arguments: null, result: null, error: { message: "x\ny" }, status: "failed" } },
    { type: "item.completed", item: { id: "item_11", type: "todo_list", items: "three" } },
    { type: "error", message: "Reconnecting... 99999999999/5" },
    { type: "turn.completed", usage: { input_tokens: 1e308, cached_input_tokens: -1, output_tokens: "9" } },
    { type: "turn.completed", usage: { input_tokens: 2, cached_input_tokens: 0, output_tokens: 2 } },
  ];
  const runs = readAll(events);
  assert.equal(runs.length, 2);
  assert.equal(runs[0]!.outcome, "finished");
  const lines = events.map((e) => JSON.stringify(e));
  // The web search's id written three times (JSON.parse keeps the last).
  lines.splice(5, 0, '{"type":"item.completed","item":{"id":"item_5","type":"web_search","id":"a","id":"__proto__","query":"q","action":{"type":"search","query":"q"}}}');
  await judge(Buffer.from(lines.join("\n") + "\n"), "hostile ids");
});
