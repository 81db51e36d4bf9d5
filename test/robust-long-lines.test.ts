import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { constants } from "node:buffer";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { DEFAULT_MAX_LINE_BYTES } from "../src/cli/config.js";
import { JsonReader } from "../src/input/json-reader.js";
import { LineSplitter } from "../src/input/line-splitter.js";
import type { InputItem } from "../src/input/record.js";
import { logCommands, runFed, type Feed } from "./helpers/run-chunks.js";
import { assertContract } from "./helpers/verdict.js";
// @ts-expect-error a plain ESM script shared with the stress runs
import { longLineLog } from "./stress/long-line-log.mjs";

// Very long lines. A line longer than --max-line-bytes (default 500M, documented) is reported at
// its file:line and never held in memory: the splitter drops its bytes as they come. A line under
// the limit is processed with memory bounded by a small multiple of its size. The 300 MB case is
// test/stress/long-line.sh (run by hand); here the same rules at sizes CI affords.

const COMMANDS = logCommands();
const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-long-"));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});
after(() => rmSync(tmp, { recursive: true, force: true }));

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

test("a line longer than V8's longest string, with --max-line-bytes above it: an oversize line at its position, not a failed file", { timeout: 60_000 }, () => {
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

// ---------------------------------------------------------------------------------------------
// Spawned runs of the built CLI, with the peak RSS measured (test/stress/peak-rss.mjs).

interface Measured {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  peakKiB: number;
}

/** Runs `cursorlog ARGS` with `input` written to its stdin by a generator process, measuring peak RSS. */
function measure(args: string[], generator: string[]): Promise<Measured> {
  const rssFile = join(tmp, `rss-${process.hrtime.bigint()}.txt`);
  return new Promise((resolve, reject) => {
    const gen = spawn("node", generator, { stdio: ["ignore", "pipe", "inherit"] });
    const child = spawn("node", ["test/stress/peak-rss.mjs", rssFile, ...args], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
    gen.stdout.pipe(child.stdin);
    child.stdin.on("error", () => {}); // the child may stop reading early
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err, peakKiB: Number(readFileSync(rssFile, "utf8")) }));
  });
}

const GEN_LONG = (mb: number) => ["test/stress/long-line-log.mjs", String(mb)];

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** The sha256 of what long-line-log.mjs writes for `mb`, computed the same way it is generated. */
function expectedSha(mb: number): string {
  const { head, unit, units, tail } = longLineLog(mb);
  const h = createHash("sha256").update(head);
  const block = unit.repeat(65536);
  let left = units;
  for (; left >= 65536; left -= 65536) h.update(block);
  if (left > 0) h.update(unit.repeat(left));
  return h.update(tail).digest("hex");
}

test("a 256 MiB line through a pipe with --max-line-bytes 1M: rejected at its line, memory stays small, the rest is read", { timeout: 120_000 }, async () => {
  const r = await measure(["json", "--lenient", "--max-line-bytes", "1M"], GEN_LONG(256));
  assert.equal(r.stderr, "cursorlog: ignoring invalid line (at <stdin>:3): line is longer than --max-line-bytes (1048576)\n");
  assert.equal(r.code, 5);
  assert.equal(r.stdout.toString(), '{"type":"result","subtype":"success","is_error":false,"duration_ms":4,"result":"done","session_id":"s-long"}\n');
  assert.ok(r.peakKiB < 150 * 1024, `peak RSS ${Math.round(r.peakKiB / 1024)} MiB for a rejected 256 MiB line`);
});

test("a 48 MiB line is processed by every command with peak memory under 100 MiB + 6 x the line", { timeout: 300_000 }, async () => {
  const mb = 48;
  for (const c of COMMANDS) {
    const r = await measure([c.name], GEN_LONG(mb));
    assert.ok(r.code === 0 || (c.name === "validate" && r.code === 1), `${c.name}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
    assert.ok(r.peakKiB < (100 + 6 * mb) * 1024, `${c.name}: peak RSS ${Math.round(r.peakKiB / 1024)} MiB for a ${mb} MiB line`);
    if (c.name === "filter") assert.equal(sha256(r.stdout), expectedSha(mb), "filter did not write the log back byte for byte");
    if (c.name === "text") assert.equal(r.stdout.toString(), "Ran terminal command\nRead file\n");
  }
});
