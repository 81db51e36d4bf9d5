// Contract tests for schemas/claude-code/*.schema.json, the Claude Code stream-json schemas.
//
// 1. Every file is a valid draft 2020-12 schema with a stable $id under claude-code/, laid out as
//    the cursor-agent ones are, listed in schemas/claude-code/README.md; one file per line type.
// 2. Every line of every fixture of test/fixtures/claude/ is valid (through the precompiled
//    validators as `validate` dispatches, and through the entry schema compiled at run time), and
//    `validate --strict`'s walk finds no field the schemas do not name in them.
// 3. The line types and subtypes of AGENTS.md §1.2 the fixtures do not hold are valid too.
// 4. Broken lines fail with the error at the right path.
//
// Shapes follow /work/shared/AGENTS.md §1; ids and texts are made up.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import Ajv2020Module from "ajv/dist/2020.js";
import { CLAUDE_CODE_ENTRY_ID, readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { loadBundledValidators } from "../src/validate/bundled-validators.js";
import { schemaErrors } from "../src/validate/schema/findings.js";
import { BUNDLED_AJV_OPTIONS } from "../src/validate/standalone-source.js";
import { UnknownFields } from "../src/validate/unknown-fields.js";
import type { ValidateFn } from "../src/validate/validators.js";

const Ajv2020 = Ajv2020Module.default;
type Json = Record<string, unknown>;

const DIR = "schemas/claude-code/";
const ID_BASE = "https://cursorlog.dev/schemas/claude-code/";
const FIXTURES = "test/fixtures/claude/";

const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ file, text: readFileSync(DIR + file, "utf8"), schema: JSON.parse(readFileSync(DIR + file, "utf8")) as Json }));

/** Every file compiled at run time, into one Ajv with the cursor-agent set, as schemas/README.md says to load them. */
const runtime = new Ajv2020({ ...BUNDLED_AJV_OPTIONS });
for (const f of readdirSync("schemas").filter((n) => n.endsWith(".json"))) runtime.addSchema(JSON.parse(readFileSync(`schemas/${f}`, "utf8")) as object);
for (const { schema } of files) runtime.addSchema(schema);
const runtimeEntry = runtime.getSchema(CLAUDE_CODE_ENTRY_ID)!;

const bundled = await loadBundledValidators(CLAUDE_CODE_ENTRY_ID);
const unknownFields = new UnknownFields(readBundledSchemaSet(CLAUDE_CODE_ENTRY_ID));

/** The problems of a line as `cursorlog validate` reports them: the type's precompiled validator, else the entry. */
function problems(ev: Json): string[] {
  const own = typeof ev.type === "string" ? bundled.byType.get(ev.type) : undefined;
  const v: ValidateFn = own ?? bundled.entry;
  const mine = v(ev) ? [] : schemaErrors(v.errors).map((e) => `${e.path || "(root)"} ${e.keyword}: ${e.message}`);
  const theirs = runtimeEntry(ev) ? [] : schemaErrors(runtimeEntry.errors).map((e) => `${e.path || "(root)"} ${e.keyword}: ${e.message}`);
  assert.deepEqual([...mine].sort(), [...theirs].sort(), "the precompiled validators and the entry schema disagree");
  return mine;
}

const unknown = (ev: Json) => unknownFields.find(ev).map((u) => `${u.parent}/${u.key}`);

function fixtureLines(): Array<{ where: string; ev: Json }> {
  return readdirSync(FIXTURES)
    .filter((n) => n.endsWith(".ndjson"))
    .sort()
    .flatMap((name) =>
      readFileSync(FIXTURES + name, "utf8")
        .trimEnd()
        .split("\n")
        .map((line, i) => ({ where: `${name}:${i + 1}`, ev: JSON.parse(line) as Json })),
    );
}

// ---------------------------------------------------------------------------------------------
// 1. The files
// ---------------------------------------------------------------------------------------------

describe("schemas/claude-code files", () => {
  test("one file per line type of AGENTS.md §1.2, the entry and defs", () => {
    const names = files.map((f) => f.file).sort();
    const expected = ["claude-code-event", "defs", "system", "assistant", "user", "result", "rate_limit_event", "tool_progress", "stream_event", "control_request", "control_response", "control_cancel_request", "command_lifecycle"];
    assert.deepEqual(names, expected.map((n) => `${n}.schema.json`).sort());
  });

  for (const { file, text, schema } of files) {
    test(`${file}: draft 2020-12, $id ${ID_BASE}${file}, 2-space indentation, a final newline`, () => {
      assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
      assert.equal(schema.$id, ID_BASE + file);
      const ajv = new Ajv2020({ ...BUNDLED_AJV_OPTIONS });
      assert.ok(ajv.validateSchema(schema), JSON.stringify(ajv.errors));
      assert.ok(text.endsWith("}\n"));
      text.split("\n").forEach((line, i) => assert.ok(/^( {2})*(?! )/.test(line) && !line.startsWith("\t"), `line ${i + 1} is not indented by 2-space steps`));
    });
  }

  test("schemas/claude-code/README.md lists every file and its $id", () => {
    const readme = readFileSync(DIR + "README.md", "utf8");
    for (const { file, schema } of files) {
      assert.ok(readme.includes(file), `README.md does not mention ${file}`);
      assert.ok(readme.includes(schema.$id as string), `README.md does not mention ${schema.$id as string}`);
    }
  });

  test("no schema closes an object (forward compatible): no additionalProperties: false", () => {
    for (const { file, text } of files) assert.ok(!/"additionalProperties": false/.test(text), file);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. The fixtures
// ---------------------------------------------------------------------------------------------

describe("every line of test/fixtures/claude/ is valid and names no unknown field", () => {
  const lines = fixtureLines();

  test(`${lines.length} lines: no schema error`, () => {
    assert.ok(lines.length > 150);
    for (const { where, ev } of lines) assert.deepEqual(problems(ev), [], where);
  });

  test("validate --strict's walk finds no field the schemas do not name", () => {
    for (const { where, ev } of lines) assert.deepEqual(unknown(ev), [], where);
  });

  test("the walk does look inside: a new field at each depth is reported", () => {
    const tools = lines.filter((l) => l.where.startsWith("tools.ndjson:"));
    const toolUse = tools.find((l) => (l.ev.message as { content?: Array<{ type: string }> } | undefined)?.content?.[0]?.type === "tool_use")!.ev;
    const message = toolUse.message as Json;
    const block = (message.content as Json[])[0]!;
    assert.deepEqual(unknown({ ...toolUse, novel: 1 }), ["/novel"]);
    assert.deepEqual(unknown({ ...toolUse, message: { ...message, novel: 1 } }), ["/message/novel"]);
    assert.deepEqual(unknown({ ...toolUse, message: { ...message, content: [{ ...block, novel: 1 }] } }), ["/message/content/0/novel"]);
    assert.deepEqual(unknown({ ...toolUse, message: { ...message, usage: { ...(message.usage as Json), novel: 1 } } }), ["/message/usage/novel"]);
    // A tool's input is the tool's own: not looked into.
    assert.deepEqual(unknown({ ...toolUse, message: { ...message, content: [{ ...block, input: { anything: 1 } }] } }), []);
    const read = tools.find((l) => (l.ev.tool_use_result as { file?: unknown } | undefined)?.file !== undefined)!.ev;
    const result = read.tool_use_result as Json;
    assert.deepEqual(unknown({ ...read, tool_use_result: { ...result, file: { ...(result.file as Json), novel: 1 } } }), ["/tool_use_result/file/novel"]);
    const init = tools[0]!.ev;
    assert.deepEqual(unknown({ ...init, task_id: "x" }), ["/task_id"], "each subtype knows its own fields only");
  });
});

// ---------------------------------------------------------------------------------------------
// 3. What the fixtures do not hold (AGENTS.md §1.2, §1.3, §1.7)
// ---------------------------------------------------------------------------------------------

const S = "3c9f0d2e-5a41-4b7c-9e08-6d1f2a3b4c5e";
const U = "7a2b4c6d-8e0f-4a1b-9c3d-5e7f9a1b3c5d";
const TOOLU = "toolu_01Xq3mB7vN2kR8tY5wL9pZ4c";
const zeroUsage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: "standard" };
const user = (content: unknown, extra: Json = {}) => ({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: S, uuid: U, timestamp: "2026-10-01T12:00:04.100Z", ...extra });

const SAMPLES: Array<[string, Json]> = [
  ["system/status compacting", { type: "system", subtype: "status", status: "compacting", uuid: U, session_id: S }],
  ["system/status done", { type: "system", subtype: "status", status: null, compact_result: "success", permissionMode: "default", compact_output_chars: 5120, uuid: U, session_id: S }],
  [
    "system/compact_boundary auto: no session_id",
    { type: "system", subtype: "compact_boundary", compact_metadata: { trigger: "auto", pre_tokens: 167012, post_tokens: 18230, cumulative_dropped_tokens: 148782, duration_ms: 41230 }, logical_parent_uuid: U, uuid: U },
  ],
  ["system/api_retry on a timeout", { type: "system", subtype: "api_retry", attempt: 1, max_retries: 10, retry_delay_ms: 542.7, error_status: null, error: "timeout", uuid: U, session_id: S }],
  ["system/api_retry 529", { type: "system", subtype: "api_retry", attempt: 2, max_retries: 10, retry_delay_ms: 1135, error_status: 529, error: "overloaded_error", no_response: {}, uuid: U, session_id: S }],
  ["system/hook_progress", { type: "system", subtype: "hook_progress", hook_id: U, hook_name: "SessionStart:startup", hook_event: "SessionStart", stdout: "", stderr: "warming up\n", uuid: U, session_id: S }],
  ["system/hook_started resume", { type: "system", subtype: "hook_started", hook_id: U, hook_name: "SessionStart:resume", hook_event: "SessionStart", uuid: U, session_id: S }],
  ["system/informational", { type: "system", subtype: "informational", content: "Switched to claude-sonnet-4-5 for this turn", uuid: U, session_id: S }],
  ["system/model_fallback", { type: "system", subtype: "model_fallback", content: "Opus is overloaded; using Sonnet", uuid: U, session_id: S }],
  ["system/model_refusal_fallback", { type: "system", subtype: "model_refusal_fallback", content: "Retrying with another model", uuid: U, session_id: S }],
  ["system/model_refusal_no_fallback", { type: "system", subtype: "model_refusal_no_fallback", content: "The model declined", uuid: U, session_id: S }],
  ["system/task_updated killed", { type: "system", subtype: "task_updated", task_id: "b7k2m9q4x", patch: { status: "killed", end_time: 1790858662347 }, uuid: U, session_id: S }],
  ["system/task_notification stopped", { type: "system", subtype: "task_notification", task_id: "b7k2m9q4x", tool_use_id: TOOLU, status: "stopped", output_file: "/tmp/t.output", summary: "npm run dev", uuid: U, session_id: S }],
  ["system: an unknown subtype", { type: "system", subtype: "plugin_install", status: "installed", name: "x", uuid: U, session_id: S }],
  ["tool_progress", { type: "tool_progress", tool_use_id: `${TOOLU}-heartbeat-3`, tool_name: "Bash", parent_tool_use_id: null, elapsed_time_seconds: 90, heartbeat: 3, uuid: U, session_id: S }],
  ["rate_limit_event warning", { type: "rate_limit_event", rate_limit_info: { status: "allowed_warning", resetsAt: 1790867400, rateLimitType: "seven_day", utilization: 0.91, surpassedThreshold: 0.9 }, uuid: U, session_id: S }],
  ["control_request", { type: "control_request", request_id: "req-1", request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: "ls" } } }],
  ["control_response", { type: "control_response", response: { subtype: "success", request_id: "req-1", response: { behavior: "allow" } } }],
  ["control_cancel_request", { type: "control_cancel_request", request_id: "req-1" }],
  ["command_lifecycle", { type: "command_lifecycle", command: "compact", state: "started", uuid: U, session_id: S }],
  ["user: a compaction summary (string content)", user("This session is being continued from a previous conversation…", { isSynthetic: true })],
  ["user: ToolSearch's tool_reference blocks", user([{ tool_use_id: TOOLU, type: "tool_result", content: [{ type: "tool_reference", tool_name: "mcp__linear__get_issue" }] }])],
  ["user: a replayed text block", user([{ type: "text", text: "Run the tests" }], { isReplay: true })],
  [
    "user: NotebookEdit's result",
    user([{ tool_use_id: TOOLU, type: "tool_result", content: "Updated cell 3" }], { tool_use_result: { new_source: "x = 2", old_source: "x = 1", original_file: "{}", updated_file: "{}" } }),
  ],
  ["user: Bash exit 127", user([{ type: "tool_result", content: "Exit code 127\n/bin/bash: line 1: nope: command not found", is_error: true, tool_use_id: TOOLU }], { tool_use_result: "Error: Exit code 127\n/bin/bash: line 1: nope: command not found" })],
  [
    "assistant: a cut frame, an unknown block type",
    {
      type: "assistant",
      message: { model: "claude-opus-4-5", id: "msg_011CabcdefghijklmnopqrST", type: "message", role: "assistant", content: [{ type: "redacted_thinking", data: "…" }], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } },
      parent_tool_use_id: null,
      session_id: S,
      uuid: U,
      aborted: true,
    },
  ],
  ["stream_event: a thinking block starts", { type: "stream_event", event: { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } }, parent_tool_use_id: null, session_id: S, uuid: U, api_message_id: "msg_011C" }],
  ["stream_event: a signature delta", { type: "stream_event", event: { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB…" } }, parent_tool_use_id: null, session_id: S, uuid: U }],
  ["result: bad --resume", { type: "result", subtype: "error_during_execution", is_error: true, duration_ms: 0, duration_api_ms: 0, num_turns: 0, session_id: S, total_cost_usd: 0, usage: zeroUsage, modelUsage: {}, permission_denials: [], errors: ["No conversation found with session ID: 1234"], uuid: U }],
  ["result: /compact", { type: "result", subtype: "success", is_error: false, duration_ms: 41230, duration_api_ms: 40110, num_turns: 0, result: "", session_id: S, total_cost_usd: 0.21, usage: zeroUsage, local_command: "compact", uuid: U }],
  ["result: 2025, cost_usd and num_turns -1", { type: "result", subtype: "success", is_error: false, duration_ms: 12, duration_api_ms: 40, num_turns: -1, result: "", session_id: S, cost_usd: 0, usage: zeroUsage, uuid: U }],
  ["result: 2.1.289 API error", { type: "result", subtype: "success", is_error: true, duration_ms: 812, duration_api_ms: 700, num_turns: 1, result: "API Error: 403", session_id: S, total_cost_usd: 0, usage: zeroUsage, terminal_reason: "api_error", api_error_status: 403, api_error_code: "forbidden", api_error: { type: "permission_error" }, uuid: U }],
  ["result: structured output", { type: "result", subtype: "success", is_error: false, duration_ms: 900, duration_api_ms: 800, num_turns: 1, result: "{}", structured_output: { ok: true }, session_id: S, total_cost_usd: 0.001, usage: zeroUsage, uuid: U }],
  ["an unknown line type", { type: "future_event", anything: [1, 2] }],
];

describe("lines the fixtures do not hold (AGENTS.md §1.2, §1.3, §1.7) are valid", () => {
  for (const [name, ev] of SAMPLES) {
    test(name, () => {
      assert.deepEqual(problems(ev), []);
      // An unknown type is reported as such; its fields are not looked at (as validate does).
      if (bundled.types!.has(ev.type as string) && ev.type !== "command_lifecycle" && !(ev.type === "system" && ev.subtype === "plugin_install") && name !== "assistant: a cut frame, an unknown block type") {
        assert.deepEqual(unknown(ev), []);
      }
    });
  }

  test("an unknown content block type names its new fields under --strict", () => {
    const ev = SAMPLES.find(([n]) => n.startsWith("assistant: a cut frame"))![1];
    assert.deepEqual(unknown(ev), ["/message/content/0/data"]);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Broken lines
// ---------------------------------------------------------------------------------------------

describe("broken lines fail with the error at the right path", () => {
  const lines = fixtureLines();
  const find = (file: string, pred: (ev: Json) => boolean) => lines.find((l) => l.where.startsWith(`${file}:`) && pred(l.ev))!.ev;
  const result = find("tools.ndjson", (ev) => ev.type === "result");
  const toolUse = find("tools.ndjson", (ev) => ev.type === "assistant" && (ev.message as { content: Array<{ type: string }> }).content[0]!.type === "tool_use");
  const toolResult = find("tools.ndjson", (ev) => ev.type === "user");
  const without = (o: Json, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

  test("no type", () => {
    assert.deepEqual(problems(without(result, "type")), ["(root) required: must have required property 'type'"]);
    assert.deepEqual(problems({ type: 7 }), ["/type type: must be string"]);
  });

  test("a result without is_error, or with a string one", () => {
    assert.deepEqual(problems(without(result, "is_error")), ["(root) required: must have required property 'is_error'"]);
    assert.deepEqual(problems({ ...result, is_error: "false" }), ["/is_error type: must be boolean"]);
  });

  test("a tool_use without id", () => {
    const message = toolUse.message as Json;
    const block = (message.content as Json[])[0]!;
    assert.deepEqual(problems({ ...toolUse, message: { ...message, content: [without(block, "id")] } }), ["/message/content/0 required: must have required property 'id'"]);
  });

  test("a timestamp that is not a string", () => {
    assert.deepEqual(problems({ ...toolUse, timestamp: 1790858662347 }), ["/timestamp type: must be string"]);
    assert.deepEqual(problems({ ...toolResult, timestamp: 1790858662347 }), ["/timestamp type: must be string"]);
    assert.deepEqual(problems({ ...toolResult, timestamp: "yesterday" }), ['/timestamp pattern: must match pattern "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"']);
  });

  test("more: a tool_result without tool_use_id, usage with a string count, a task without task_id, a subtype that is not a string", () => {
    const message = toolResult.message as Json;
    const block = (message.content as Json[])[0]!;
    assert.deepEqual(problems({ ...toolResult, message: { ...message, content: [without(block, "tool_use_id")] } }), ["/message/content/0 required: must have required property 'tool_use_id'"]);
    const assistantMessage = toolUse.message as Json;
    assert.deepEqual(problems({ ...toolUse, message: { ...assistantMessage, usage: { ...(assistantMessage.usage as Json), output_tokens: "4" } } }), ["/message/usage/output_tokens type: must be integer"]);
    const started = find("background.ndjson", (ev) => ev.subtype === "task_started");
    assert.deepEqual(problems(without(started, "task_id")), ["(root) required: must have required property 'task_id'"]);
    assert.deepEqual(problems({ type: "system", subtype: 3 }), ["/subtype type: must be string"]);
  });

  test("what an era lacks is not required: no uuid on 2.1.15 user lines, no timestamp early, no session_id on an auto compact_boundary", () => {
    const early = find("early-2026.ndjson", (ev) => ev.type === "user");
    assert.equal("uuid" in early || "timestamp" in early || "parent_tool_use_id" in early, false);
    assert.deepEqual(problems(early), []);
    assert.deepEqual(problems(without(toolResult, "uuid")), []);
    assert.deepEqual(problems(without(toolUse, "timestamp")), []);
    assert.deepEqual(problems(without(toolUse, "uuid")), ["(root) required: must have required property 'uuid'"], "assistant lines carry uuid in every era");
  });
});
