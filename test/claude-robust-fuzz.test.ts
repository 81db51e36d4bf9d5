// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import { claudeDialect } from "../src/dialects/claude/reader.js";
import { fileChangeOf } from "../src/dialects/claude/file-change.js";
import { dialectFor } from "../src/dialects/index.js";
import type { Call } from "../src/model/call.js";
import type { JsonObject } from "../src/input/record.js";
import * as C from "./helpers/claude-events.js";
import { genClaudeLog } from "./helpers/claude-gen.js";
import { claudeFixtures, shapeOf } from "./helpers/claude-fixtures.js";
import { logCommands, runFed, show, variantsOf, type RunResult } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns, scaled, STRESS } from "./helpers/scale.js";
import { assertContract } from "./helpers/verdict.js";

// The promise of robust-fuzz.test.ts (no crash, no hang, no stack trace; a status from the README
// table; every message in the grammar, naming file:line when the status is 4 or 5) for Claude Code
// logs (`claude -p --output-format stream-json --verbose`, read by src/dialects/claude/), through
// every command that reads logs (taken from the program's command table: logCommands()):
//
//  - every top-level field of every Claude Code line shape of every fixture (test/fixtures/claude/:
//    each type and subtype, assistant and user lines by their blocks, a subagent's lines apart)
//    removed, or given each wrong type;
//  - property: a field anywhere inside a line (message.content blocks, a tool_use's input, a
//    tool_result's content, tool_use_result, usage, modelUsage, …) removed or retyped, in a
//    fixture or a generated log (test/helpers/claude-gen.ts);
//  - __proto__, constructor and other Object.prototype names as tool names, call and task ids,
//    message ids and keys;
//  - a tool_result with no tool_use, a tool_use id repeated, two results for one call, a result
//    before any init, a subagent whose parent is unknown, itself, a cycle, or 3,000 levels deep;
//  - a log cut at every byte of each kind of line, and a line cut with the rest after it;
//  - the same through the built CLI (bin/cursorlog.js) under a 10 s limit, for a sample.
//
// Every line of these inputs is a JSON object, so no run may exit 5 (or 2, the input being
// readable); a log cut inside its last line must exit 5 at that line for the commands whose rule
// the README states (json, text, filter, timeline, stats).
//
// Sizes (test/helpers/scale.ts): make test runs each property a few times and the exhaustive loops
// over a sample (each line shape once, every third field with one wrong value in turn, through a
// quarter of the commands in turn; every 293rd byte, through the five strict commands and one other in
// turn; each command once where make stress runs every option set); make stress
// (CURSORLOG_STRESS=1) runs them whole. FUZZ_RUNS and FUZZ_SEED as in robust-fuzz.

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();
/** json, text, filter, timeline, stats: a malformed line is fatal (5) at its position, --lenient skips it (still 5). */
const STRICT = new Set(["json", "text", "filter", "timeline", "stats"]);
const PLAIN = COMMANDS.map((c) => [c.name]);
const LENIENT = COMMANDS.map((c) => [c.name, "--lenient"]);
const VARIANTS = COMMANDS.flatMap((c) => variantsOf(c).map((v) => [c.name, ...v]));
const FIXTURES = claudeFixtures();

async function run(argv: readonly string[], bytes: Buffer, name = "claude.ndjson"): Promise<RunResult> {
  return runFed([...argv, name], { files: { [name]: { bytes } }, timeoutMs: 10_000 });
}

/** The contract for an input whose lines are all JSON objects: no status 5, and no 2 (the input is readable). */
function judgeObjects(r: RunResult, context: string, name = "claude.ndjson"): void {
  assertContract(r, context, [name]);
  assert.notEqual(r.code, 5, `${context}: every line is a JSON object, yet exit 5:\n${r.stderr}`);
  assert.notEqual(r.code, 2, `${context}: exit 2 for a readable input:\n${r.stderr}`);
}

/** Runs every argv over `bytes` and judges each run. Returns how many runs it made. */
async function judgeAll(argvs: readonly string[][], bytes: Buffer, context: string): Promise<number> {
  for (const argv of argvs) judgeObjects(await run(argv, bytes), `cursorlog ${argv.join(" ")} (${context})`);
  return argvs.length;
}

const lineBytes = (lines: readonly string[]) => Buffer.from(lines.map((l) => l + "\n").join(""));

/** A deep copy of `e` with the value at `path` deleted (`replace` undefined) or replaced. */
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

/** Every path to a value inside `v` (keys and indexes), the root excluded. */
function pathsOf(v: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...prefix, i]), pathsOf(x, [...prefix, i], out)));
  else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) out.push([...prefix, k]), pathsOf((v as JsonObject)[k], [...prefix, k], out);
  return out;
}

const describe = (path: ReadonlyArray<string | number>, replace: { value: unknown } | undefined) => `${path.join(".")} ${replace === undefined ? "removed" : `= ${JSON.stringify(replace.value)}`}`;

// ---------------------------------------------------------------------------------------------

test("the harness: the thirteen Claude Code fixtures (claude/ and claude-nested/), each read as Claude Code's, and every command that reads logs", () => {
  assert.equal(FIXTURES.length, 13, FIXTURES.map((f) => f.name).join(" "));
  for (const f of FIXTURES) assert.equal(dialectFor(f.events[0]!).agent, "claude", f.name);
  const names = COMMANDS.map((c) => c.name);
  for (const n of ["json", "text", "filter", "timeline", "stats", "show", "diff", "export", "validate"]) assert.ok(names.includes(n), `${n} missing from ${names.join(", ")}`);
  // The shapes the mutation tests walk: every line type and system subtype of the fixtures.
  const shapes = new Set(FIXTURES.flatMap((f) => f.events.map((e) => `${String(e.type)}/${String(e.subtype ?? "")}`)));
  for (const s of ["system/init", "system/hook_started", "system/hook_response", "system/commands_changed", "system/permission_denied", "system/task_started", "system/task_progress", "system/task_updated", "system/task_notification", "system/background_tasks_changed", "system/thinking_tokens", "assistant/", "user/", "rate_limit_event/", "stream_event/", "result/success", "result/error_max_turns"]) {
    assert.ok(shapes.has(s), `no ${s} line in the fixtures`);
  }
});

// ---------------------------------------------------------------------------------------------
// Every top-level field of every line shape, removed or of each wrong type.

const WRONG_TOP = [undefined, ...[null, 0, "", true, [], {}].map((value) => ({ value }))];

/**
 * The mutations of the top-level test: for each fixture, the first line of each shape (make
 * test: of each shape across all fixtures), each of its fields (make test: every third, in turn),
 * removed and given each wrong type (make test: one of the seven, in turn).
 */
function topLevelCases(): Array<{ fixture: (typeof FIXTURES)[number]; i: number; key: string; replace: { value: unknown } | undefined }> {
  const out: ReturnType<typeof topLevelCases> = [];
  const global = new Set<string>();
  let turn = 0;
  for (const fixture of FIXTURES) {
    const shapes = new Set<string>();
    fixture.events.forEach((e, i) => {
      const shape = shapeOf(e);
      if (shapes.has(shape) || (!STRESS && global.has(shape))) return;
      shapes.add(shape);
      global.add(shape);
      for (const [k, key] of Object.keys(e).entries()) {
        if (!STRESS && (k + turn) % 3 !== 0) continue;
        for (const replace of STRESS ? WRONG_TOP : [WRONG_TOP[turn++ % WRONG_TOP.length]]) out.push({ fixture, i, key, replace });
      }
    });
  }
  return out;
}

/**
 * The commands a top-level mutation is run through: every command in make stress; in make test a
 * quarter of them, in turn (mutation n: the commands whose index is n modulo 4), so each command
 * still meets a quarter of the ~110 mutations, and each mutation two or three commands.
 */
const topLevelCommands = (n: number) => (STRESS ? PLAIN : PLAIN.filter((_, k) => k % 4 === n % 4));

test(`every top-level field of every Claude Code line shape removed, or given each wrong type: no crash, no status 5 (${STRESS ? "every command" : "a quarter of the commands each, in turn"})`, { timeout: 900_000 }, async () => {
  const cases = topLevelCases();
  let runs = 0;
  for (const [n, { fixture, i, key, replace }] of cases.entries()) {
    const lines = fixture.lines.slice();
    lines[i] = JSON.stringify(mutate(fixture.events[i]!, [key], replace));
    runs += await judgeAll(topLevelCommands(n), lineBytes(lines), `${fixture.name} line ${i + 1} (${shapeOf(fixture.events[i]!)}) ${describe([key], replace)}`);
  }
  assert.ok(cases.length > scaled(50, 1500), `only ${cases.length} mutations, ${runs} runs`);
});

// ---------------------------------------------------------------------------------------------
// A field anywhere inside a line, removed or retyped.

const WRONG: unknown[] = [null, 0, -1, 1.5e308, "", "x\u001b[2J", true, [], {}, [null, "x"], { __proto__: null, constructor: 1 }, "2026-10-01T12:00:00.000Z", "toolu_01", { type: "tool_use" }];
/** The parts of a line where Claude Code's nested data lives; a path is drawn under one of them four times in five. */
const INSIDE = new Set(["message", "tool_use_result", "usage", "modelUsage", "patch", "event", "permission_denials", "tool_result_meta", "wire_tool_inputs", "tool_use_meta", "rate_limit_info", "errors", "origin", "subagent_stats", "commands"]);

/** A log to mutate: a fixture, or a generated one (its events as lines, one per line). */
const mutable = fc.oneof(
  fc.constantFrom(...FIXTURES.map((f) => ({ name: f.name, events: f.events, [fc.toStringMethod]: () => `fixture(${f.name})` }))),
  genClaudeLog({ maxRuns: 2, layouts: false }).map((l) => ({ name: "generated", events: l.events, [fc.toStringMethod]: () => `generated(${JSON.stringify(l.bytes.toString("utf8"))})` })),
);

const mutation = fc.record({ log: mutable, line: fc.nat(), path: fc.nat(), inside: fc.nat({ max: 4 }), wrong: fc.nat({ max: WRONG.length }) });

test("property: a field anywhere in a Claude Code line (content blocks, tool input, tool_result content, tool_use_result, usage, modelUsage) removed or of the wrong type: no crash, no status 5", { timeout: 900_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(mutation, async ({ log, line, path: pi, inside, wrong }) => {
      const i = line % log.events.length;
      const all = pathsOf(log.events[i]).filter((p) => !(p.includes("signature") || (p[0] === "commands" && p.length > 2)));
      const deep = all.filter((p) => INSIDE.has(String(p[0])) && p.length > 1);
      const paths = inside > 0 && deep.length > 0 ? deep : all;
      if (paths.length === 0) return;
      const path = paths[pi % paths.length]!;
      const replace = wrong === WRONG.length ? undefined : { value: WRONG[wrong] };
      const events = log.events.slice();
      events[i] = mutate(log.events[i]!, path, replace);
      await judgeAll(VARIANTS, lineBytes(events.map((e) => JSON.stringify(e))), `${log.name} line ${i + 1} ${describe(path, replace)}`);
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 200), includeErrorInReport: true },
  );
});

// ---------------------------------------------------------------------------------------------
// __proto__, constructor and other Object.prototype names.

const S = "5a1b2c3d-0000-4000-8000-000000000027";
const T0 = Date.UTC(2026, 9, 1, 12);
const PROTO_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

/** A log whose tool names, call ids, message ids, task ids and keys are Object.prototype's names. */
function protoLog(): Buffer {
  const q = JSON.stringify;
  const lines: string[] = [q(C.init(S))];
  PROTO_NAMES.forEach((n, i) => {
    // Written by hand: a JSON key "__proto__" is an own member once parsed, never the prototype.
    const input = `{"file_path":"/w/p${i}","__proto__":{"file_path":"polluted"},"constructor":{"prototype":{"polluted":true}}}`;
    lines.push(`{"type":"assistant","message":{"model":"m","id":${q(n)},"type":"message","role":"assistant","content":[{"type":"tool_use","id":${q(n)},"name":${q(n)},"input":${input}}],"stop_reason":null,"usage":{"__proto__":{"input_tokens":5}}},"parent_tool_use_id":null,"session_id":"${S}","uuid":"u","__proto__":{"type":"result"},"timestamp":"2026-10-01T12:00:0${i}.000Z"}`);
    lines.push(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":${q(n)},"type":"tool_result","content":"ok","__proto__":{"is_error":true}}]},"parent_tool_use_id":null,"session_id":"${S}","uuid":"u","tool_use_result":{"__proto__":{"backgroundTaskId":"x"},"constructor":1},"timestamp":"2026-10-01T12:00:0${i}.500Z"}`);
  });
  // A background shell whose task id is "__proto__", a denial naming "constructor", a subagent call "hasOwnProperty".
  lines.push(q(C.assistant(S, "msg_bg", [C.toolUse("toolu_bg", "Bash", { command: "sleep 9", run_in_background: true })], { at: T0 + 6000 })));
  lines.push(q(C.taskStarted(S, "__proto__", "toolu_bg", true)));
  lines.push(q(C.user(S, [C.toolResult("toolu_bg", "Command running in background with ID: __proto__.")], { at: T0 + 6001, toolUseResult: C.bashResult("", { backgroundTaskId: "__proto__" }) })));
  lines.push(q(C.assistant(S, "msg_sub", [C.toolUse("toString", "Read", { file_path: "/w/sub" })], { at: T0 + 6002, parent: "hasOwnProperty" })));
  lines.push(q(C.user(S, [C.toolResult("toString", "x")], { at: T0 + 6003, parent: "hasOwnProperty" })));
  lines.push(q(C.permissionDenied(S, "constructor", "constructor", "no")));
  lines.push(
    `{"duration_api_ms":1,"session_id":"${S}","total_cost_usd":0.1,"usage":{"__proto__":{"input_tokens":1}},"modelUsage":{"__proto__":{"costUSD":1},"constructor":{"costUSD":2}},"permission_denials":[{"tool_name":"__proto__","tool_use_id":"constructor"}],"is_error":false,"num_turns":1,"subtype":"success","result":"ok","type":"result","duration_ms":5,"uuid":"u","__proto__":{"is_error":true},"constructor":{"prototype":{"polluted":true}}}`,
  );
  lines.push(q(C.taskUpdated(S, "__proto__", "completed", T0 + 9000)));
  lines.push(q(C.taskNotification(S, "__proto__", "toolu_bg", "completed", "done")));
  return lineBytes(lines);
}

test("__proto__, constructor and other Object.prototype names as tool names, ids and keys of Claude Code lines are plain data", async () => {
  const bytes = protoLog();
  const text = await run(["text", "-v"], bytes);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stderr, "");
  // One action line per call, each named by its own tool (cursor-agent's words for Bash and Read).
  const lines = text.stdout.split("\n").slice(0, -1);
  for (const [i, n] of PROTO_NAMES.entries()) assert.equal(lines[i], `Used tool ${n}: /w/p${i}`);
  assert.ok(lines.some((l) => l.startsWith("Ran terminal command: sleep 9")), text.stdout);
  assert.ok(lines.some((l) => l.includes("Read file") && l.includes("/w/sub")), text.stdout);
  // json prints the result line as written, __proto__ and constructor members included.
  const json = await run(["json"], bytes);
  assert.deepEqual({ code: json.code, stderr: json.stderr }, { code: 0, stderr: "" });
  assert.equal(json.stdout, bytes.toString("utf8").split("\n").find((l) => l.startsWith('{"duration_api_ms"'))! + "\n");
  const timeline = await run(["timeline", "--format", "ndjson", "--columns", "call_id,kind,tool,target"], bytes);
  const rows = timeline.stdout.split("\n").slice(0, -1).map((l) => JSON.parse(l) as Record<string, string>);
  assert.deepEqual(
    rows.slice(0, PROTO_NAMES.length),
    PROTO_NAMES.map((n, i) => ({ call_id: n, kind: n, tool: n, target: `/w/p${i}` })),
  );
  const filter = await run(["filter"], bytes);
  assert.equal(filter.stdout, bytes.toString("utf8"));
  for (const argv of VARIANTS) judgeObjects(await run(argv, bytes), `cursorlog ${argv.join(" ")}`);
  for (const k of ["polluted", "file_path", "is_error", "backgroundTaskId", "input_tokens", "costUSD"]) assert.equal(({} as Record<string, unknown>)[k], undefined, `Object.prototype.${k} was set`);
});

// ---------------------------------------------------------------------------------------------
// Calls and results that do not pair.

const bash = (id: string, command: string, at: number | undefined, parent?: string) => C.assistant(S, `msg_${id}`, [C.toolUse(id, "Bash", { command })], { at, ...(parent === undefined ? {} : { parent }) });
const answer = (id: string, at: number | undefined, content = "ok", isError?: boolean, parent?: string) =>
  C.user(S, [C.toolResult(id, content, isError)], { at, ...(parent === undefined ? { toolUseResult: C.bashResult(content) } : { parent }) });
const agent = (id: string, at: number, parent?: string) => C.assistant(S, `msg_${id}`, [C.toolUse(id, "Agent", { description: `task ${id}`, prompt: "go", subagent_type: "general-purpose" })], { at, ...(parent === undefined ? {} : { parent }) });

/** A chain of `depth` subagents, each started by the one before it, then answered innermost first. */
function deepSubagents(depth: number): JsonObject[] {
  const ids = Array.from({ length: depth }, (_, i) => `toolu_a${i}`);
  const out: JsonObject[] = [C.init(S)];
  ids.forEach((id, i) => out.push(agent(id, T0 + i, i === 0 ? undefined : ids[i - 1])));
  out.push(bash("toolu_leaf", "echo deep", T0 + depth, ids.at(-1)), answer("toolu_leaf", T0 + depth + 1, "deep", undefined, ids.at(-1)));
  for (let i = depth - 1; i >= 0; i--) out.push(C.user(S, [C.toolResult(ids[i]!, [C.text("done")])], { at: T0 + 2 * depth - i, ...(i === 0 ? {} : { parent: ids[i - 1] }) }));
  out.push(C.result(S));
  return out;
}

const DEEP_AGENTS = scaled(1_000, 3_000);

/** Logs whose calls and results do not pair as they should, and how many timeline rows each gives when it is known. */
const UNPAIRED: Array<{ name: string; events: JsonObject[]; rows?: number }> = [
  { name: "a tool_result with no tool_use", events: [C.init(S), answer("toolu_x", T0), C.result(S)] },
  { name: "a tool_use id started twice while open (one call)", events: [C.init(S), bash("toolu_1", "one", T0), bash("toolu_1", "two", T0 + 1), answer("toolu_1", T0 + 2), C.result(S)], rows: 1 },
  { name: "a tool_use id used again after its result", events: [C.init(S), bash("toolu_1", "one", T0), answer("toolu_1", T0 + 1), bash("toolu_1", "two", T0 + 2), answer("toolu_1", T0 + 3), C.result(S)] },
  { name: "two results for one call, on two lines", events: [C.init(S), bash("toolu_1", "one", T0), answer("toolu_1", T0 + 1), answer("toolu_1", T0 + 2, "again", true), C.result(S)] },
  { name: "two results for one call, in one line", events: [C.init(S), bash("toolu_1", "one", T0), C.user(S, [C.toolResult("toolu_1", "a"), C.toolResult("toolu_1", "b", true)], { at: T0 + 1 }), C.result(S)] },
  { name: "two tool_use blocks of one id in one line (2.1.15)", events: [C.init(S), C.assistant(S, "msg_1", [C.toolUse("toolu_1", "Bash", { command: "a" }), C.toolUse("toolu_1", "Read", { file_path: "/b" })], { early: true }), C.user(S, [C.toolResult("toolu_1", "ok")], { early: true }), C.result(S)], rows: 1 },
  { name: "a result before any init", events: [C.result(S), C.init(S), bash("toolu_1", "one", T0), answer("toolu_1", T0 + 1), C.result(S)] },
  { name: "a result alone", events: [C.result(S, { is_error: true, result: "Not logged in · Please run /login" })] },
  { name: "a tool_result before any init", events: [answer("toolu_1", T0), C.init(S), bash("toolu_1", "one", T0 + 1), answer("toolu_1", T0 + 2), C.result(S)] },
  { name: "a tool_use before the init, answered after it", events: [bash("toolu_1", "one", T0), C.init(S), answer("toolu_1", T0 + 2), C.result(S)] },
  { name: "two results in a row", events: [C.init(S), C.result(S), C.result(S, { is_error: true, result: "again" })] },
  { name: "a tool_result after the result", events: [C.init(S), bash("toolu_1", "one", T0), C.result(S), answer("toolu_1", T0 + 5)] },
  { name: "a subagent's lines whose parent is no call", events: [C.init(S), bash("toolu_1", "one", T0, "toolu_nope"), answer("toolu_1", T0 + 1, "ok", undefined, "toolu_nope"), C.result(S)] },
  { name: "a call that is its own parent", events: [C.init(S), bash("toolu_1", "one", T0, "toolu_1"), answer("toolu_1", T0 + 1, "ok", undefined, "toolu_1"), C.result(S)] },
  { name: "two subagent calls each the other's parent", events: [C.init(S), agent("toolu_1", T0, "toolu_2"), agent("toolu_2", T0 + 1, "toolu_1"), bash("toolu_3", "x", T0 + 2, "toolu_2"), answer("toolu_3", T0 + 3, "ok", undefined, "toolu_2"), answer("toolu_2", T0 + 4, "ok", undefined, "toolu_1"), answer("toolu_1", T0 + 5, "ok", undefined, "toolu_2"), C.result(S)] },
  { name: `${DEEP_AGENTS} subagents each inside the one before`, events: deepSubagents(DEEP_AGENTS), rows: DEEP_AGENTS + 1 },
  { name: "a background task's end for a task never started", events: [C.init(S), C.taskUpdated(S, "b1", "completed", T0), C.taskNotification(S, "b1", "toolu_9", "completed", "x"), C.result(S)] },
  { name: "a background task that ends twice, after the result", events: [C.init(S), C.assistant(S, "m", [C.toolUse("toolu_1", "Bash", { command: "s", run_in_background: true })], { at: T0 }), C.taskStarted(S, "b1", "toolu_1", true), C.user(S, [C.toolResult("toolu_1", "bg")], { at: T0 + 1, toolUseResult: C.bashResult("", { backgroundTaskId: "b1" }) }), C.result(S), C.taskNotification(S, "b1", "toolu_1", "completed", "x"), C.taskNotification(S, "b1", "toolu_1", "stopped", "y"), C.taskUpdated(S, "b1", "killed", T0 + 5)] },
  { name: "a denial for a call never made, and one told after its call's result", events: [C.init(S), C.permissionDenied(S, "toolu_no", "Bash", "no"), bash("toolu_1", "rm", T0), answer("toolu_1", T0 + 1, "Permission denied", true), C.permissionDenied(S, "toolu_1", "Bash", "late"), C.result(S)] },
];

/**
 * The runs of each unpaired log: make stress, every option set of every command (the deep chain,
 * with and without --lenient); make test, every command once, --lenient for half of them (the
 * other half on the next log).
 */
function unpairedRuns(n: number, events: readonly JsonObject[]): string[][] {
  if (!STRESS) return COMMANDS.map((c, k) => ((k + n) % 2 === 1 ? [c.name, "--lenient"] : [c.name]));
  return events.length > 1000 ? [...PLAIN, ...LENIENT] : VARIANTS;
}

test(`calls and results that do not pair (a result without its call, an id twice, two results, a result before init, subagent parents unknown, circular, ${DEEP_AGENTS} deep): every command${STRESS ? ", every option set" : " (half of them with --lenient; every option set in make stress)"}`, { timeout: 600_000 }, async () => {
  for (const [n, { name, events, rows }] of UNPAIRED.entries()) {
    const bytes = lineBytes(events.map((e) => JSON.stringify(e)));
    await judgeAll(unpairedRuns(n, events), bytes, name);
    if (rows === undefined) continue;
    const r = await run(["timeline", "--format", "ndjson", "--columns", "call_id"], bytes);
    assert.equal(r.stdout.split("\n").length - 1, rows, `${name}: timeline rows\n${r.stdout.slice(0, 400)}`);
  }
});

// ---------------------------------------------------------------------------------------------
// Lines cut at every position.

/** Where a line of `length` bytes is cut: every byte in make stress; in make test the first and last three, and every 293rd. */
const CUT_STEP = 293;
function cutPositions(length: number): number[] {
  const all = Array.from({ length: length - 1 }, (_, i) => i + 1);
  return STRESS ? all : all.filter((k) => k <= 3 || k >= length - 3 || k % CUT_STEP === 0);
}

const NOT_STRICT = PLAIN.filter(([c]) => !STRICT.has(c!));
/**
 * The runs at the n-th cut of a line: make stress, every command, and at every 5th cut each with
 * --lenient too; make test, the five commands whose rule is exact (STRICT) and one other in turn,
 * at every 5th cut each with --lenient too.
 */
function cutRuns(n: number): string[][] {
  const plain = STRESS ? PLAIN : [...PLAIN.filter(([c]) => STRICT.has(c!)), NOT_STRICT[n % NOT_STRICT.length]!];
  return (n + 1) % 5 === 0 ? [...plain, ...plain.map((a) => [...a, "--lenient"])] : plain;
}

const tools = FIXTURES.find((f) => f.name === "claude/tools.ndjson")!;
const early = FIXTURES.find((f) => f.name === "claude/early-2026.ndjson")!;
const hooks = FIXTURES.find((f) => f.name === "claude/hooks-first.ndjson")!;
/** The lines cut: each kind once (a hook line before init, init, a late tool_use, its tool_result with tool_use_result, a 2.1.15 line of several tool_use blocks and its results, the result). */
const CUT_LINES: Array<{ fixture: (typeof FIXTURES)[number]; i: number; what: string }> = [
  { fixture: hooks, i: hooks.events.findIndex((e) => e.subtype === "hook_response"), what: "a hook_response before init" },
  { fixture: tools, i: 0, what: "system/init" },
  { fixture: tools, i: tools.events.findIndex((e) => shapeOf(e) === "assistant/ tool_use"), what: "an assistant line's tool_use" },
  { fixture: tools, i: tools.events.findIndex((e) => shapeOf(e) === "user/ tool_result" && e.tool_use_result !== undefined), what: "a user line's tool_result" },
  { fixture: early, i: early.events.findIndex((e) => shapeOf(e).startsWith("assistant/ text+tool_use+tool_use")), what: "a 2.1.15 line of two tool_use blocks" },
  { fixture: early, i: early.events.findIndex((e) => shapeOf(e) === "user/ tool_result+tool_result"), what: "a 2.1.15 line of two tool_results" },
  { fixture: tools, i: tools.events.findIndex((e) => e.type === "result"), what: "the result" },
];

test(`a Claude Code log cut at ${STRESS ? "every byte" : `every ${CUT_STEP}rd byte (every byte in make stress)`} of each kind of line: a strict run stops at the cut line with status 5; --lenient gives what came before`, { timeout: 900_000 }, async () => {
  for (const c of CUT_LINES) assert.ok(c.i >= 0, `no line for ${c.what}`);
  let tried = 0;
  for (const { fixture, i, what } of CUT_LINES) {
    const before = lineBytes(fixture.lines.slice(0, i));
    // The output of the log without its cut line, for the commands run with --lenient.
    const expected = new Map<string, RunResult>();
    for (const [cmd] of PLAIN) if (STRICT.has(cmd!) && cmd !== "stats") expected.set(cmd!, await run([cmd!], before, "cut.ndjson"));
    const line = Buffer.from(fixture.lines[i]!);
    for (const [n, k] of cutPositions(line.length).entries()) {
      const bytes = Buffer.concat([before, line.subarray(0, k)]);
      for (const argv of cutRuns(n)) {
        const cmd = argv[0]!;
        const r = await run(argv, bytes, "cut.ndjson");
        tried++;
        const context = `cursorlog ${argv.join(" ")} on ${fixture.name} cut at byte ${k} of line ${i + 1} (${what})`;
        const ds = assertContract(r, context, ["cut.ndjson"]);
        if (!STRICT.has(cmd)) continue;
        assert.equal(r.code, 5, `${context}: exit ${r.code}\n${r.stderr}`);
        assert.ok(ds.some((d) => d.line === i + 1), `${context}: the cut line ${i + 1} is not named:\n${r.stderr}`);
        if (argv.includes("--lenient") && cmd !== "stats") {
          // What was before the cut comes out as if the log ended there (stats names the line range, cut line included).
          assert.equal(r.stdout, expected.get(cmd)!.stdout, `${context}: stdout differs from the log without its last line`);
        }
      }
    }
  }
  assert.ok(tried > scaled(200, 40_000), `only ${tried} runs`);
});

test("property: a Claude Code line cut anywhere with the rest of the log after it: reported at or after the cut line, never a crash", { timeout: 900_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...FIXTURES.map((f) => ({ ...f, [fc.toStringMethod]: () => `fixture(${f.name})` }))), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), async (fixture, li, at) => {
      const i = li % fixture.lines.length;
      const line = fixture.lines[i]!;
      const k = Math.max(1, Math.min(line.length - 1, Math.floor(at * line.length)));
      const lines = fixture.lines.slice();
      lines[i] = line.slice(0, k);
      const bytes = lineBytes(lines);
      for (const argv of VARIANTS) {
        const r = await run(argv, bytes, "cut.ndjson");
        const context = `cursorlog ${argv.join(" ")} on ${fixture.name} with line ${i + 1} cut at character ${k}`;
        const ds = assertContract(r, context, ["cut.ndjson"]);
        if (!STRICT.has(argv[0]!) || argv.includes("-e")) continue;
        // The cut line begins a JSON object that may go on over the next lines: reported at or after it.
        assert.equal(r.code, 5, `${context}: exit ${r.code}\n${r.stderr}`);
        assert.ok(ds.some((d) => d.line !== undefined && d.line >= i + 1), `${context}: nothing reported at or after line ${i + 1}:\n${r.stderr}`);
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(1, 80), includeErrorInReport: true },
  );
});

// ---------------------------------------------------------------------------------------------
// The built executable, each run under a time limit: a synchronous endless loop would stop the
// in-process runs above without a clear failure; here it is one.

test("the built CLI on mutated, cut, __proto__ and unpaired Claude Code logs ends within 10 s, no stack trace, a status from the table", { timeout: 600_000 }, async () => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  const mutated = (() => {
    const f = FIXTURES.find((x) => x.name === "claude/subagent.ndjson")!;
    const lines = f.events.map((e) => JSON.stringify(mutate(e, ["message"], { value: { content: [{ type: "tool_use" }, null, { type: "tool_result", tool_use_id: "__proto__" }], usage: "x" } })));
    return lineBytes(lines);
  })();
  const inputs: Array<{ what: string; bytes: Buffer }> = [
    { what: "every line's message replaced", bytes: mutated },
    { what: "a line cut in the middle", bytes: Buffer.from(tools.bytes.toString("utf8").slice(0, Math.floor(tools.bytes.length / 2))) },
    { what: "Object.prototype names", bytes: protoLog() },
    { what: `${DEEP_AGENTS} nested subagents`, bytes: lineBytes(deepSubagents(DEEP_AGENTS).map((e) => JSON.stringify(e))) },
    ...UNPAIRED.slice(0, scaled(1, UNPAIRED.length)).map((u) => ({ what: u.name, bytes: lineBytes(u.events.map((e) => JSON.stringify(e))) })),
    ...fc.sample(genClaudeLog({ maxRuns: 3 }), { seed: SEED, numRuns: scaled(1, 6) }).map((l, i) => ({ what: `generated log ${i + 1}`, bytes: l.bytes })),
  ];
  // make stress: every command, with and without --lenient, on each input; make test: each input
  // once (six runs of the built CLI; every command runs in-process on such inputs above), commands
  // in turn (today json, timeline, export, diff, filter, runs: the cut line meets a strict one), --lenient
  // every other time.
  const runs = STRESS
    ? inputs.flatMap((input) => [...PLAIN, ...LENIENT].map((argv) => ({ argv, input })))
    : inputs.map((input, k) => {
        const argv = PLAIN[(3 * k + 2) % PLAIN.length]!;
        return { argv: k % 2 === 1 ? [...argv, "--lenient"] : argv, input };
      });
  if (!STRESS) assert.ok(runs.some((r) => r.input.what === "a line cut in the middle" && STRICT.has(r.argv[0]!)), "the cut line is run by no strict command");
  for (const { argv, input } of runs) {
    const r = spawnSync("node", ["bin/cursorlog.js", ...argv], { input: input.bytes, timeout: 10_000, killSignal: "SIGKILL", encoding: "utf8", maxBuffer: 1 << 28, env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", TZ: "UTC" } });
    const context = `cursorlog ${argv.join(" ")} < ${input.what} ${show(input.bytes.toString("utf8"), 120)}`;
    assert.equal(r.error, undefined, `${context}: ${r.error?.message} (a hang ends in ETIMEDOUT)`);
    const ds = assertContract({ stdout: r.stdout, stderr: r.stderr, code: r.status ?? -1, both: "" }, context, ["<stdin>"]);
    if (input.what === "a line cut in the middle" && STRICT.has(argv[0]!)) {
      assert.equal(r.status, 5, `${context}: exit ${r.status}`);
      assert.ok(ds.some((d) => d.line !== undefined), context);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// A few bytes of log that would make a huge value.

test("an Edit logged without its patch whose replace_all would make a file thousands of times the size of its line: no crash, its after not made up", async () => {
  // 100 000 a's, each replaced by 100 000 b's: 10^10 characters, past the longest string V8 holds.
  const before = "a".repeat(100_000);
  const to = "b".repeat(100_000);
  const events = [
    C.init(S, { cwd: "/w" }),
    C.assistant(S, "msg_1", [C.toolUse("toolu_1", "Edit", { file_path: "/w/a.txt", old_string: "a", new_string: to, replace_all: true })], { at: T0 }),
    C.user(S, [C.toolResult("toolu_1", "The file /w/a.txt has been updated. All occurrences were replaced.")], { at: T0 + 1, toolUseResult: { filePath: "/w/a.txt", oldString: "a", newString: to, originalFile: before, userModified: false, replaceAll: true } }),
    C.result(S),
  ];
  const bytes = lineBytes(events.map((e) => JSON.stringify(e)));
  // Every option set of every command in make stress; each command once in make test (the cost is
  // the 200 KB line, read again by each run).
  for (const argv of [...(STRESS ? VARIANTS : PLAIN), ["diff", "--stat"], ["show", "--diff"]]) judgeObjects(await run(argv, bytes), `cursorlog ${argv.join(" ")}`);
  // The model: the file's before as logged, its after unknown (no patch, and the replacement is past what the log could hold).
  const reader = claudeDialect.reader({});
  let done: Call | undefined;
  events.forEach((value, i) => {
    const step = reader.read({ file: "f", line: i + 1, text: "", value });
    for (const e of step.calls ?? []) if (e.what === "done") done = e.call;
  });
  const fc1 = done!.fileChange()!;
  assert.equal(fc1.before, before);
  assert.equal(fc1.after, undefined);
  // A replace_all within bounds still gives the after: 3 occurrences, each 2 characters longer.
  const small = fileChangeOf("Edit", { filePath: "/w/b.txt", oldString: "x", newString: "xyz", originalFile: "x-x-x\n", replaceAll: true }, undefined)!;
  assert.equal(small.after, "xyz-xyz-xyz\n");
});

// ---------------------------------------------------------------------------------------------
// A line that tells many calls at once (2.1.15: a message's tool_use blocks in one assistant line,
// their results in one user line).

/** A 2.1.15 run whose one assistant line holds `n` Bash tool_use blocks, answered by one user line of `n` tool_results (every third an error). */
function wideLines(n: number): Buffer {
  const uses: JsonObject[] = [];
  const results: JsonObject[] = [];
  for (let i = 0; i < n; i++) {
    uses.push(C.toolUse(`toolu_${i}`, "Bash", { command: `echo ${i}` }));
    results.push(C.toolResult(`toolu_${i}`, `${i}`, i % 3 === 0));
  }
  const events = [C.init(S, { version: "2.1.15" }), C.assistant(S, "msg_1", uses, { early: true }), C.user(S, results, { early: true }), C.result(S)];
  return lineBytes(events.map((e) => JSON.stringify(e)));
}

/**
 * Blocks in the wide line: 5 000 in make test, 100 000 in make stress (each command ~1 s; before,
 * text took 100 s and more of CPU at 50 000: the driver joined each call's output onto the line's
 * so far). Only make stress can see that quadratic cost pass the 120 s bound (~400 s at 100 000);
 * in make test, at 20 000 as at 5 000, it would stay under it (~16 s, ~1 s), so make test checks
 * what a line this wide gives (one action, one row per call) at 5 000: ~1.5 s less of CPU.
 */
const WIDE = scaled(5_000, 100_000);

test(`a line of ${WIDE} tool_use blocks and a line of their ${WIDE} tool_results: ${STRESS ? "every command (the built CLI)" : "text -v, timeline (the built CLI), json, filter (in-process)"} ends within 120 s, one action or row per call`, { timeout: 1_800_000 }, async () => {
  const bytes = wideLines(WIDE);
  // make test: the built CLI for the two runs whose count is checked (one action, one row per call),
  // json and filter in-process (a spawn costs ~0.3 s more); make stress: every command and a few
  // options, each a spawned CLI.
  const argvs = STRESS ? [...PLAIN, ["text", "-v"], ["filter", "--pair", "--type", "assistant"], ["timeline", "--format", "html"]] : [["text", "-v"], ["timeline"]];
  for (const argv of argvs) {
    // A bound for a hang, not a timing: a run takes 1-4 s of CPU; the quadratic join took minutes.
    const r = spawnSync("node", ["bin/cursorlog.js", ...argv], { input: bytes, timeout: 120_000, killSignal: "SIGKILL", encoding: "utf8", maxBuffer: 1 << 30, env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", TZ: "UTC" } });
    const context = `cursorlog ${argv.join(" ")} < a line of ${WIDE} tool_use blocks`;
    assert.equal(r.error, undefined, `${context}: ${r.error?.message} (a hang ends in ETIMEDOUT)`);
    assertContract({ stdout: r.stdout, stderr: r.stderr, code: r.status ?? -1, both: "" }, context, ["<stdin>"]);
    if (argv[0] === "text") assert.equal(r.stdout.split("\n").length - 1, WIDE, context);
    if (argv[0] === "timeline" && argv.length === 1) assert.equal(r.stdout.split("\n").length - 2, WIDE, context);
  }
  if (!STRESS) for (const argv of [["json"], ["filter"]]) assertContract(await run(argv, bytes, "wide.ndjson"), `cursorlog ${argv.join(" ")} wide.ndjson (in-process) < a line of ${WIDE} tool_use blocks`, ["wide.ndjson"]);
});

test("a user line's tool_result_meta is read once for the line, not once for each of its tool_results (2 000 results and 2 000 entries: 4 000 000 reads before)", () => {
  const n = 2000;
  const entries = Array.from({ length: n }, (_, i) => ({ id: `toolu_other${i}`, non_execution_kind: "permission-rule" }));
  // Two entries for call 7: the first decides; call 11 has an entry without a word.
  entries[5] = { id: "toolu_7", non_execution_kind: "permission-rule" };
  entries[6] = { id: "toolu_7", non_execution_kind: "hook" };
  entries[9] = { id: "toolu_11", non_execution_kind: "" };
  let reads = 0;
  const meta = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const uses: JsonObject[] = [];
  const results: JsonObject[] = [];
  for (let i = 0; i < n; i++) {
    uses.push(C.toolUse(`toolu_${i}`, "Bash", { command: `echo ${i}` }));
    results.push(C.toolResult(`toolu_${i}`, `${i}`, i === 7));
  }
  const reader = claudeDialect.reader({});
  const read = (value: JsonObject, line: number) => reader.read({ file: "f", line, text: "", value });
  read(C.init(S, { version: "2.1.15" }), 1);
  read(C.assistant(S, "msg_1", uses, { early: true }), 2);
  const step = read({ ...C.user(S, results, { early: true }), tool_result_meta: meta as unknown as JsonObject[] }, 3);
  assert.ok(reads <= 2 * n, `${reads} reads of tool_result_meta's ${n} entries`);
  const calls = (step.calls ?? []).map((e) => e.call);
  assert.equal(calls.length, n);
  assert.deepEqual([calls[7]!.status, calls[7]!.arm], ["refused", "permission-rule"]);
  assert.deepEqual([calls[11]!.status, calls[11]!.arm], ["ok", undefined]);
  assert.deepEqual([calls[3]!.status, calls[3]!.arm], ["ok", undefined]);
});
