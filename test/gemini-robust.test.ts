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
import type { Call } from "../src/model/call.js";
import type { Run } from "../src/model/run.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";
import { fixtureRecords, recordsOf } from "./helpers/records.js";
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

/** Every fact of a Call, asked once (a getter that throws fails the test). */
function touch(c: Call): void {
  void [c.id, c.seq, c.kind, c.tool, c.startTool, c.label, c.target, c.targetIsPath, c.targetWith((p) => `<${p}>`), c.status, c.arm, c.note(), c.note(10), c.timing, c.exitCode, c.signal];
  void [c.backgroundTask, c.parentId, c.modelCallId, c.startLine, c.endLine, c.fileChange(), c.writesFiles, c.failureText(), c.args, c.argsCut, c.mcp, c.subagent, c.outcome];
}

/** Reads `events` through the Gemini CLI dialect and asks every fact of every call and run. */
function readAll(events: JsonObject[]): Run[] {
  const reader = geminiDialect.reader({ numberUnstarted: true, maxOpen: 3 });
  const runs = new Set<Run>();
  for (const r of recordsOf(events, NAME)) {
    const step = reader.read(r);
    runs.add(step.run);
    for (const e of step.calls ?? []) touch(e.call);
  }
  const last = reader.endFile(events.length);
  if (last !== undefined) runs.add(last);
  for (const run of runs) {
    for (const c of run.openCalls()) touch(c);
    void [run.outcome, run.failure, run.stated, run.usage, run.result?.text, run.said, run.openCount, run.sessionId];
  }
  return [...runs];
}

const WRONG: unknown[] = [null, 0, -1.5, "", "x\u001b[2J", true, [], {}, [null, "x"], { __proto__: null, constructor: 1 }];

/** Every path to a value inside `v` (keys and indexes), the root excluded. */
function pathsOf(v: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...prefix, i]), pathsOf(x, [...prefix, i], out)));
  else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) out.push([...prefix, k]), pathsOf((v as JsonObject)[k], [...prefix, k], out);
  return out;
}

function mutate(e: JsonObject, path: ReadonlyArray<string | number>, replace: { value: unknown } | undefined): JsonObject {
  const copy = JSON.parse(JSON.stringify(e)) as JsonObject;
  let parent: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replace === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else Object.defineProperty(parent, last, { value: replace.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const shapeOf = (e: JsonObject): string => `${String(e.type)} ${String(e.tool_name ?? e.role ?? e.status ?? "")}`;

test("every field of every Gemini CLI line shape removed or of a wrong type: the dialect's facts never throw; no command crashes", { timeout: 900_000 }, async () => {
  const seen = new Set<string>();
  let turn = 0;
  let cases = 0;
  for (const stem of GEMINI_FIXTURES) {
    const recs = fixtureRecords(geminiFixture(stem));
    const events = recs.map((r) => r.value);
    for (let i = 0; i < events.length; i++) {
      const shape = shapeOf(events[i]!);
      if (!STRESS && seen.has(shape)) continue;
      seen.add(shape);
      for (const path of pathsOf(events[i]!)) {
        const replaces = STRESS ? [undefined, ...WRONG.map((value) => ({ value }))] : [turn++ % 3 === 0 ? undefined : { value: WRONG[turn % WRONG.length] }];
        for (const replace of replaces) {
          const mutated = events.slice();
          mutated[i] = mutate(events[i]!, path, replace);
          readAll(mutated);
          const context = `${stem} line ${i + 1} ${path.join(".")} ${replace === undefined ? "removed" : `= ${JSON.stringify(replace.value)}`}`;
          // The commands on a sample (every one in make stress): each shape's fields in turn.
          if (STRESS || cases % 8 === 0) await judge(Buffer.from(mutated.map((e) => JSON.stringify(e) + "\n").join("")), context);
          cases++;
        }
      }
    }
  }
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
