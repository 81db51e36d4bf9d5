import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonReader } from "../src/input/json-reader.js";
import { LineSplitter } from "../src/input/line-splitter.js";
import type { InputItem } from "../src/input/record.js";
import { logCommands, variantsOf } from "./helpers/run-chunks.js";
import { runCli } from "./helpers/run-cli.js";

// Blank and whitespace-only lines used to cost ~100x a log line: each reached JSON.parse, which
// threw (an Error with its message and stack) before the blank check. They must cost no more than
// any line: counted by the splitter and dropped there, never decoded, parsed or made into objects.

const BLANKS = ["", " ", "\t", "\r", "  \t \r", "\f", "\v", " \f\v\t "];

test("blank and whitespace-only lines are counted and yield nothing from the splitter", () => {
  const s = new LineSplitter();
  const body = Buffer.from(Array.from({ length: 10_000 }, (_, i) => BLANKS[i % BLANKS.length] + "\n").join(""));
  assert.deepEqual(s.push(body), []);
  assert.equal(s.lastLine, 10_000);
  // Without a final newline too.
  assert.deepEqual(s.push(Buffer.from(" \t")), []);
  assert.deepEqual(s.end(), []);
  assert.equal(s.lastLine, 10_001);
});

test("a line is not blank because it starts with spaces", () => {
  const s = new LineSplitter();
  const got = s.push(Buffer.from('  {"type":"user"}\n \u00a0\n'));
  assert.deepEqual(got, [{ lineNo: 1, text: '  {"type":"user"}' }, { lineNo: 2, text: " \u00a0" }]);
});

test("the reader never calls JSON.parse for a blank line", () => {
  const parse = JSON.parse;
  let calls = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    calls++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const r = new JsonReader("f.ndjson", 1e9);
    const out: InputItem[] = [];
    // Lines the splitter hands on that are still blank to JSON: NBSP, BOM, and plain ones a caller may give.
    r.read([{ lineNo: 1, text: "" }, { lineNo: 2, text: "   " }, { lineNo: 3, text: "\u00a0\ufeff\t" }], out);
    assert.equal(calls, 0);
    assert.deepEqual(out, []);
    r.read([{ lineNo: 4, text: '{"type":"user"}' }], out);
    assert.equal(calls, 1);
    assert.equal(out.length, 1);
  } finally {
    JSON.parse = parse;
  }
});

const LOG = [
  '{"type":"system","subtype":"init","session_id":"s","model":"Auto","cwd":"/w","apiKeySource":"login","permissionMode":"default"}',
  '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"ls"}}},"session_id":"s","timestamp_ms":1000}',
  "{",
  '  "type": "tool_call",',
  "",
  '  "subtype": "completed", "call_id": "c1", "session_id": "s", "timestamp_ms": 2000,',
  "   \t",
  '  "tool_call": {"shellToolCall": {"args": {"command": "ls"}, "result": {"success": {"exitCode": 0}}}}',
  "}",
  '{"type":"result","subtype":"success","is_error":false,"duration_ms":5,"duration_api_ms":5,"result":"done","session_id":"s","request_id":"r"}',
];

test("every command gives the same output with blank lines around and inside events as without them, line numbers aside", async () => {
  const plain = LOG.filter((l) => l.trim() !== "").join("\n") + "\n";
  // Blank lines only where they do not change line numbers' meaning: at the end of the log.
  const padded = plain + "\n \n\t\r\n\f\n" + "\n".repeat(2000);
  const withInside = LOG.join("\n") + "\n\n\n";
  for (const cmd of logCommands()) {
    for (const variant of variantsOf(cmd)) {
      if (variant.includes("--where") || variant.includes("-f")) continue;
      const argv = [cmd.name, ...variant];
      const a = await runCli(argv, { stdin: plain });
      const b = await runCli(argv, { stdin: padded });
      assert.equal(b.stdout, a.stdout, `${argv.join(" ")}: stdout`);
      assert.equal(b.code, a.code, `${argv.join(" ")}: status`);
      // Inside a pretty-printed event, blank lines are whitespace between its tokens.
      const c = await runCli(argv, { stdin: withInside, chunkSize: 7 });
      assert.equal(c.code, a.code, `${argv.join(" ")} (blank lines inside an event): status ${c.code}, stderr ${c.stderr}`);
    }
  }
});
