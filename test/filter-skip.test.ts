import assert from "node:assert/strict";
import { test } from "node:test";
import type { PredicateSpec } from "../src/query/predicate.js";
import { rawSkipFor } from "../src/outputs/filter/skip.js";
import { runCli } from "./helpers/run-cli.js";
import { soundLine } from "../src/input/line-splitter.js";

const LINES = {
  thinking: '{"type":"thinking","subtype":"delta","text":"hm","session_id":"s","timestamp_ms":1}',
  tool_call: '{"type":"tool_call","subtype":"started","call_id":"c","tool_call":{"readToolCall":{"args":{}}},"session_id":"s"}',
  assistant: '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"x"}]},"session_id":"s"}',
  result: '{"type":"result","subtype":"success","is_error":false,"result":"x","session_id":"s"}',
};

/** The types whose (well-formed, type-first) lines the input layer may leave unparsed for this spec. */
function skipped(spec: PredicateSpec): string[] {
  const skip = rawSkipFor(spec);
  if (skip === undefined) return [];
  return Object.entries(LINES)
    .filter(([, line]) => {
      const buf = Buffer.from(line);
      const sound = soundLine(buf, 0, buf.length);
      assert.ok(sound !== undefined, line);
      return skip.test(sound) !== undefined;
    })
    .map(([type]) => type);
}

test("lines are left unparsed only when their type alone fails the predicate", () => {
  assert.deepEqual(skipped({}), []);
  assert.deepEqual(skipped({ types: ["tool_call"] }), ["thinking", "assistant", "result"]);
  assert.deepEqual(skipped({ types: ["tool_call", "result"] }), ["thinking", "assistant"]);
  assert.deepEqual(skipped({ excludeTypes: ["thinking"] }), ["thinking"]);
  assert.deepEqual(skipped({ types: ["tool_call", "thinking"], excludeTypes: ["thinking"] }), ["thinking", "assistant", "result"]);
  assert.deepEqual(skipped({ tools: ["shell"] }), ["thinking", "assistant", "result"]);
  assert.deepEqual(skipped({ statuses: ["failure"], types: ["result"] }), ["thinking", "tool_call", "assistant", "result"]);
  assert.deepEqual(skipped({ sessions: ["s"], callIds: ["c"], modelCallIds: ["m"] }), []);
});

test("a skipped type still fails a truncated line loudly, and a window or --pair reads every line", async () => {
  const cut = LINES.thinking.slice(0, 40);
  const got = await runCli(["filter", "--exclude-type", "thinking"], { stdin: `${LINES.result}\n${cut}\n` });
  assert.equal(got.code, 5);
  assert.equal(got.stdout, LINES.result + "\n");
  assert.match(got.stderr, /\(at <stdin>:2\)/);
  // With --until, the thinking line's timestamp moves the window even though the line is dropped.
  const timed = `${LINES.thinking.replace('"timestamp_ms":1', '"timestamp_ms":500')}\n${LINES.result}\n`;
  assert.equal((await runCli(["filter", "--exclude-type", "thinking", "--until", "100"], { stdin: timed })).stdout, "");
  assert.equal((await runCli(["filter", "--exclude-type", "thinking", "--until", "1000"], { stdin: timed })).stdout, LINES.result + "\n");
});
