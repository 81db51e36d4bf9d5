// test-run: scaled
import assert from "node:assert/strict";
import { constants } from "node:buffer";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { DEFAULT_MAX_LINE_BYTES } from "../src/cli/config.js";
import { JsonReader } from "../src/input/json-reader.js";
import { LineSplitter } from "../src/input/line-splitter.js";
import type { InputItem } from "../src/input/record.js";
import { logCommands, runFed, type Feed } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";
import { assertContract } from "./helpers/verdict.js";

// Very long lines. A line longer than --max-line-bytes (default 500M, documented) is reported at
// its file:line and never held in memory: the splitter drops its bytes as they come. A line under
// the limit is processed with memory bounded by a small multiple of its size. The memory of
// spawned runs over lines of tens to hundreds of MiB is robust-long-lines-memory.test.ts (alone);
// the 300 MB case is test/stress/stress.sh (run by hand); here the rules, in-process.
//
// A line longer than V8's longest string (a 512 MiB chunk) runs in make stress only
// (CURSORLOG_STRESS=1): it costs seconds of CPU scanning half a GiB for its end.

const COMMANDS = logCommands();

/** A session whose shell call's completion carries `size` bytes of stdout (a huge tool result). */
function logWithLongLine(size: number): { bytes: Buffer; longLine: number; without: Buffer } {
  const S = "s-long";
  const lines = [
    JSON.stringify({ type: "system", subtype: "init", session_id: S }),
    JSON.stringify({ type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command: "cat big" } } }, session_id: S, timestamp_ms: 1 }),
    JSON.stringify({ type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { shellToolCall: { args: { command: "cat big" }, result: { success: { exitCode: 0, stdout: "é".repeat(size / 2) } } } }, session_id: S, timestamp_ms: 2 }),
    JSON.stringify({ type: "tool_call", subtype: "started", call_id: "c2", tool_call: { readToolCall: { args: { path: "after.txt" } } }, session_id: S, timestamp_ms: 3 }),
    JSON.stringify({ type: "tool_call", subtype: "completed", call_id: "c2", tool_call: { readToolCall: { args: { path: "after.txt" }, result: { success: { content: "" } } } }, session_id: S, timestamp_ms: 4 }),
    JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: S, duration_ms: 4 }),
  ];
  const join = (ls: string[]) => Buffer.from(ls.join("\n") + "\n");
  // `without`: the long line blanked (blank lines are skipped), so every other line keeps its number.
  return { bytes: join(lines), longLine: 3, without: join(lines.map((l, i) => (i === 2 ? "" : l))) };
}

test("--max-line-bytes: the default (500M) is what README and every command's help say, and below V8's longest string", async () => {
  assert.equal(DEFAULT_MAX_LINE_BYTES, 500 * 1024 * 1024);
  assert.ok(DEFAULT_MAX_LINE_BYTES < constants.MAX_STRING_LENGTH, "a line under the default could not be decoded");
  assert.match(readFileSync("README.md", "utf8"), /`--max-line-bytes SIZE` \| reject a line longer than SIZE \(default `500M`/);
  for (const c of COMMANDS) {
    const help = await runFed([c.name, "--help"]);
    assert.match(help.stdout, /--max-line-bytes <size>\s+reject lines longer than this \(default 500M\)/, `${c.name} --help`);
  }
});

test("a line above --max-line-bytes: status 5 at its file:line; --lenient skips it and reads on, whatever the chunking", { timeout: 120_000 }, async () => {
  const { bytes, longLine, without } = logWithLongLine(200_000);
  const chunkings: number[][] = [[], [4096, 65536, 65537, 131072, bytes.length - 1], Array.from({ length: Math.ceil(bytes.length / 999) }, (_, i) => (i + 1) * 999)];
  for (const c of COMMANDS) {
    const skipped = await runFed([c.name, "f.ndjson"], { files: { "f.ndjson": { bytes: without } } });
    for (const cuts of chunkings) {
      const feed: Record<string, Feed> = { "f.ndjson": { bytes, cuts } };
      const strict = await runFed([c.name, "--max-line-bytes", "64K", "f.ndjson"], { files: feed });
      const context = `cursorlog ${c.name} --max-line-bytes 64K (${cuts.length} cuts)`;
      assertContract(strict, context, ["f.ndjson"]);
      if (c.name !== "validate") {
        assert.equal(strict.code, 5, `${context}: exit ${strict.code}\n${strict.stderr}`);
        assert.match(strict.stderr, new RegExp(`^cursorlog: error \\(at f\\.ndjson:${longLine}\\): line is longer than --max-line-bytes \\(65536\\)$`, "m"), context);
      } else {
        assert.match(strict.both, /f\.ndjson:3\b.*longer than --max-line-bytes \(65536\)/, context);
      }
      const lenient = await runFed([c.name, "--lenient", "--max-line-bytes", "64K", "f.ndjson"], { files: feed });
      assertContract(lenient, `${context} --lenient`, ["f.ndjson"]);
      if (["json", "text", "filter", "timeline"].includes(c.name)) {
        assert.equal(lenient.code, 5, `${context} --lenient`);
        assert.equal(lenient.stderr, `cursorlog: ignoring invalid line (at f.ndjson:${longLine}): line is longer than --max-line-bytes (65536)\n`, context);
        // The rest of the log is read: the output is the log's without the long line.
        assert.equal(lenient.stdout, skipped.stdout, `${context} --lenient: stdout is not that of the log without the long line`);
      }
    }
  }
});

test("the splitter never holds a line above the limit: a 1 MiB limit over a 64 MiB line keeps at most 1 MiB", () => {
  const s = new LineSplitter(1 << 20);
  const chunk = Buffer.alloc(1 << 20, 0x61);
  assert.deepEqual(s.push(Buffer.from('{"a":1}\n{"big":"')), [{ lineNo: 1, text: '{"a":1}' }]);
  for (let i = 0; i < 64; i++) {
    assert.deepEqual(s.push(chunk), []);
    // What the splitter holds (its private parts) never exceeds the limit plus one chunk.
    const held = (s as unknown as { partsLength: number }).partsLength;
    assert.ok(held <= (1 << 20) + chunk.length, `holds ${held} bytes after ${i + 1} MiB`);
  }
  const [long, next, ...rest] = s.push(Buffer.from('"}\n{"b":2}\n'));
  assert.ok(long && "oversize" in long && long.lineNo === 2 && long.oversize > 1 << 20, JSON.stringify(long));
  assert.deepEqual([next, ...rest], [{ lineNo: 3, text: '{"b":2}' }]);
});

const ONLY_IN_STRESS = "a chunk of 512 MiB, one byte past V8's longest string: runs in make stress (CURSORLOG_STRESS=1)";

test("a line longer than V8's longest string, with --max-line-bytes above it: an oversize line at its position, not a failed file", { timeout: 60_000, skip: !STRESS && ONLY_IN_STRESS }, () => {
  // Found with test/stress/long-line.sh: `--max-line-bytes 1G` and a 600 MB line ended the file with
  // "cannot read: Cannot create a string longer than 0x1fffffe8 characters" (exit 2, no line, rest lost).
  const s = new LineSplitter(2 ** 40);
  assert.deepEqual(s.push(Buffer.from('{"a":1}\n')), [{ lineNo: 1, text: '{"a":1}' }]);
  // One chunk one byte longer than the longest string (its contents never matter: it is never decoded).
  const huge = Buffer.allocUnsafe(constants.MAX_STRING_LENGTH + 1);
  assert.deepEqual(s.push(huge), []);
  const lines = s.push(Buffer.from('\n{"b":2}\n'));
  assert.deepEqual(lines, [{ lineNo: 2, oversize: constants.MAX_STRING_LENGTH + 1 }, { lineNo: 3, text: '{"b":2}' }]);
  const out: InputItem[] = [];
  new JsonReader("f", 2 ** 40).read(lines, out);
  assert.deepEqual(out[0], { kind: "malformed", file: "f", line: 2, message: `line is longer than ${constants.MAX_STRING_LENGTH} bytes, the longest string Node.js can hold` });
});
