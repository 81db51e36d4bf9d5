// What the cursor dialect reads of a tool call is declared once (dialects/cursor/action.ts:
// each kind's target arguments, the default ones, the result's members) and FIELDS_READ is made
// from those lists. Checked here from the outside: for every kind cursorlog knows, a call whose
// every string is long gives the same label, target, status note, exit code and background task
// when the input layer shortens it (as json, text and timeline read tool calls), and a completion
// that comes without arguments gets its target from what its start kept.
import assert from "node:assert/strict";
import { test } from "node:test";
import { KNOWN_KINDS } from "../src/dialects/cursor/action.js";
import { cursorDialect } from "../src/dialects/cursor/reader.js";
import { Reporter } from "../src/diagnostics.js";
import { drive } from "../src/driver/driver.js";
import type { JsonObject } from "../src/input/record.js";
import { shortenStrings } from "../src/input/shorten-strings.js";
import type { Call } from "../src/model/call.js";
import pc from "picocolors";
import { recordsOf } from "./helpers/records.js";

/** Every argument and result member name the dialect's code or the logs use (FORMAT.md §5), and more. */
const NAMES = [
  "command", "globPattern", "pattern", "targetDirectory", "path", "glob", "query", "name", "providerIdentifier", "serverIdentifier",
  "toolName", "server", "url", "searchTerm", "description", "taskId", "shellId", "signal", "reason", "errorMessage", "error",
  "modelVisibleError", "content", "stdout", "stderr", "interleavedOutput", "message", "diffString", "streamContent", "prompt",
  "agentId", "workingDirectory", "fileText", "contents",
];

function long(name: string): string {
  // Long enough to be cut (over 256 bytes), different per member, the end unlike the start.
  return `${name}:` + "x".repeat(400) + `:end-of-${name}`;
}

function facts(c: Call): unknown[] {
  return [c.kind, c.label, c.target, c.note(Infinity), c.status, c.exitStatus, c.backgroundTask];
}

/** The calls of `events` as the driver hands them over (callDone). */
function callsOf(events: JsonObject[], shorten: boolean): Call[] {
  const out: Call[] = [];
  const stage = drive({ callDone: (c) => void out.push(c) }, new Reporter(() => {}, pc.createColors(false), true), { cutOff: "quiet" });
  for (const rec of recordsOf(events)) {
    if (shorten && rec.value.type === "tool_call") {
      const b = Buffer.from(rec.text);
      const cut = shortenStrings(b, 0, b.length, { keep: cursorDialect.fieldsRead, longer: 256, to: 64 });
      if (cut !== undefined) rec.value = JSON.parse(cut) as JsonObject;
    }
    stage.record(rec);
  }
  return out;
}

test("every kind: shortening what the dialect does not read changes no fact of the call", () => {
  const args: JsonObject = {};
  for (const n of NAMES) args[n] = long(n);
  args.paths = [long("p1"), long("p2")];
  args.todos = [{ content: long("todo") }];
  args.isBackground = true;
  const outcomes: JsonObject[] = [
    { success: { ...args, exitCode: 0, shellId: 7, agentId: "ag", isBackground: true, complete: { taskId: long("done") } } },
    { failure: { ...args, exitCode: 3 } },
    { rejected: { reason: long("reason"), command: long("cmd") } },
    { error: { errorMessage: long("msg"), error: long("err") } },
  ];
  let compared = 0;
  for (const kind of KNOWN_KINDS) {
    for (const result of outcomes) {
      const events: JsonObject[] = [
        { type: "system", subtype: "init", session_id: "s" },
        { type: "tool_call", subtype: "started", call_id: "c", tool_call: { [`${kind}ToolCall`]: { args } }, session_id: "s" },
        { type: "tool_call", subtype: "completed", call_id: "c", tool_call: { [`${kind}ToolCall`]: { args, result } }, session_id: "s" },
      ];
      const whole = callsOf(events, false).map(facts);
      const cut = callsOf(events, true).map(facts);
      assert.equal(whole.length, 1);
      assert.deepEqual(cut, whole, `${kind} ${Object.keys(result)[0]}`);
      compared++;
    }
  }
  assert.equal(compared, KNOWN_KINDS.length * outcomes.length);
});

test("every kind, every argument alone or all together: a completion without arguments takes its target from its start", () => {
  const all: JsonObject = { paths: ["a.ts", "b.ts"], todos: [{ content: "x" }, { content: "y" }] };
  for (const n of NAMES) all[n] = `${n}-value`;
  const argSets: JsonObject[] = [all, ...NAMES.map((n) => ({ [n]: `${n}-value` })), { paths: ["a.ts"] }, { todos: [{}] }];
  let targets = 0;
  for (const kind of KNOWN_KINDS) {
    for (const args of argSets) {
      const pair = (completionArgs: boolean) =>
        callsOf(
          [
            { type: "tool_call", subtype: "started", call_id: "c", tool_call: { [`${kind}ToolCall`]: { args } } },
            { type: "tool_call", subtype: "completed", call_id: "c", tool_call: { [`${kind}ToolCall`]: completionArgs ? { args, result: { success: {} } } : { result: { success: {} } } } },
          ],
          false,
        )[0]!.target;
      const target = pair(true);
      assert.equal(pair(false), target, `${kind} ${Object.keys(args).length === 1 ? Object.keys(args)[0] : "all"}`);
      if (target !== "") targets++;
    }
  }
  assert.ok(targets > KNOWN_KINDS.length * 2, `only ${targets} non-empty targets compared`);
});
