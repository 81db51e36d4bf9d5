// test-run: scaled
// Gemini CLI logs never crash a command (the promise of robust-fuzz.test.ts: no crash, no hang, no
// stack trace, a status from the README table, every message in its grammar) through every command
// that reads logs (logCommands()), as codex-robust.test.ts shows for Codex:
//
//  - every field of every line of every Gemini CLI fixture (test/fixtures/gemini/: the event's own
//    and those inside its parameters, output, error and stats) removed, or given a wrong type (make
//    test: each line shape of the fixtures once, one wrong value per field in turn; make stress:
//    every line, every value);
//  - Object.prototype names as tool ids and names, an id used twice, results without uses, a
//    result before the init;
//  - the dialect's facts (every Call member) asked of every call of every mutated log, directly.
//
// Every line of these inputs is a JSON object: no run may exit 5, nor 2 (the input is readable).
import assert from "node:assert/strict";
import { test } from "node:test";
import { geminiDialect } from "../src/dialects/gemini/reader.js";
import type { JsonObject } from "../src/input/record.js";
import type { Run } from "../src/model/run.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";
import { eachFieldMutation, readAll as readAllOf } from "./helpers/dialect-mutations.js";
import { fixtureRecords } from "./helpers/records.js";
import { logCommands, runFed, type RunResult } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";
import { assertContract } from "./helpers/verdict.js";

const COMMANDS = logCommands().map((c) => [c.name]);
const NAME = "gemini.ndjson";

async function judge(bytes: Buffer, context: string): Promise<void> {
  for (const argv of COMMANDS) {
    const r: RunResult = await runFed([...argv, NAME], { files: { [NAME]: { bytes } }, timeoutMs: 10_000 });
    const what = `cursorlog ${argv.join(" ")} (${context})`;
    assertContract(r, what, [NAME]);
    assert.notEqual(r.code, 5, `${what}: every line is a JSON object, yet exit 5:\n${r.stderr}`);
    assert.notEqual(r.code, 2, `${what}: exit 2 for a readable input:\n${r.stderr}`);
  }
}

const readAll = (events: JsonObject[]): Run[] => readAllOf(geminiDialect, events, NAME);

const shapeOf = (e: JsonObject): string => `${String(e.type)} ${String(e.tool_name ?? e.role ?? e.status ?? "")}`;

test("every field of every Gemini CLI line shape removed or of a wrong type: the dialect's facts never throw; no command crashes", { timeout: 900_000 }, async () => {
  const fixtures = GEMINI_FIXTURES.map((stem) => ({ name: stem, events: fixtureRecords(geminiFixture(stem)).map((r) => r.value) }));
  const cases = await eachFieldMutation(fixtures, shapeOf, STRESS, async (mutated, context, sampled) => {
    readAll(mutated);
    // The commands on a sample (every one in make stress): each shape's fields in turn.
    if (sampled) await judge(Buffer.from(mutated.map((e) => JSON.stringify(e) + "\n").join("")), context);
  });
  assert.ok(cases > 60, `only ${cases} mutations`);
});

test("prototype names as tool ids and names, an id used twice, results without uses, a result before the init: no crash", async () => {
  const at = (s: number) => `2026-03-19T04:50:${String(s).padStart(2, "0")}.000Z`;
  const events: JsonObject[] = [
    { type: "tool_result", timestamp: at(0), tool_id: "__proto__", status: "success", output: "early" },
    { type: "init", timestamp: at(1), session_id: "constructor", model: "__proto__" },
    { type: "message", timestamp: at(2), role: "user", content: "go" },
    { type: "tool_use", timestamp: at(3), tool_name: "__proto__", tool_id: "__proto__", parameters: { command: "ls" } },
    { type: "tool_use", timestamp: at(4), tool_name: "toString", tool_id: "__proto__", parameters: null },
    { type: "tool_result", timestamp: at(5), tool_id: "__proto__", status: "success", output: "x" },
    { type: "tool_result", timestamp: at(6), tool_id: "__proto__", status: "error", error: { type: "constructor", message: null } },
    { type: "tool_result", timestamp: at(7), tool_id: "hasOwnProperty", status: "__proto__" },
    { type: "error", timestamp: at(8), severity: "__proto__", message: { toString: 1 } },
    { type: "result", timestamp: at(9), status: "success", stats: { total_tokens: 1e308, input_tokens: -1, output_tokens: "9", models: { __proto__: { input_tokens: 1 } } } },
    { type: "result", timestamp: at(10), status: "error", error: null },
  ];
  readAll(events);
  await judge(Buffer.from(events.map((e) => JSON.stringify(e)).join("\n") + "\n"), "hostile ids");
});
