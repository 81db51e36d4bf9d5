import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { JsonReader } from "../src/input/json-reader.js";
import { keepWhole, skipAllBut, skipTypes, type RawSkip } from "../src/input/raw-skip.js";
import { readInputs } from "../src/input/read-inputs.js";
import { Readable } from "node:stream";
import { LineSplitter } from "../src/input/line-splitter.js";
import type { InputItem } from "../src/input/record.js";
import { logCommands } from "./helpers/run-chunks.js";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

function splitAll(data: Buffer, size: number, max?: number) {
  const s = new LineSplitter(max);
  const out = [];
  for (let i = 0; i < data.length; i += size) out.push(...s.push(data.subarray(i, i + size)));
  out.push(...s.end());
  return out;
}

test("line splitter: multi-byte UTF-8, CRLF and BOM split at every chunk size give the same lines", () => {
  const data = Buffer.from("\ufeff{\"t\":\"é日本😀\"}\r\n\r\n{\"b\":1}\r\n{\"c\":\"no newline\"}", "utf8");
  const expected = [
    { lineNo: 1, text: '{"t":"é日本😀"}' },
    // line 2 is blank: counted, never handed on (blank-lines.test.ts)
    { lineNo: 3, text: '{"b":1}' },
    { lineNo: 4, text: '{"c":"no newline"}' },
  ];
  for (let size = 1; size <= data.length; size++) assert.deepEqual(splitAll(data, size), expected, `chunk size ${size}`);
});

test("line splitter: a line over the limit is reported by number and skipped, whatever the chunking", () => {
  const data = Buffer.from('{"a":1}\n{"long":"' + "x".repeat(100) + '"}\n{"b":2}\n');
  for (const size of [1, 7, 64, data.length]) {
    const got = splitAll(data, size, 50);
    assert.deepEqual(got[0], { lineNo: 1, text: '{"a":1}' }, `chunk size ${size}`);
    assert.equal(got[1]?.lineNo, 2);
    assert.ok(got[1] && "oversize" in got[1] && got[1].oversize > 50, `chunk size ${size}`);
    assert.deepEqual(got[2], { lineNo: 3, text: '{"b":2}' });
    assert.equal(got.length, 3);
  }
});

function readLines(text: string): InputItem[] {
  const r = new JsonReader("f.json", 1e9);
  const out: InputItem[] = [];
  const s = new LineSplitter();
  r.read([...s.push(Buffer.from(text)), ...s.end()], out);
  r.end(out);
  return out;
}

test("json reader: pretty-printed values and two values on a line, reported at the line they start", () => {
  const items = readLines('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}\n{"c":3} {"d":\n4}\n\n{"e":5}\n');
  assert.deepEqual(
    items.map((i) => ("value" in i ? [i.line, i.text] : i)),
    [
      [1, '{"a":1,"b":[2]}'],
      [7, '{"c":3}'],
      [7, '{"d":4}'],
      [10, '{"e":5}'],
    ],
  );
});

test("json reader: non-objects, garbage and truncation name their line", () => {
  assert.deepEqual(readLines('[1,2]\n"s"\n42\nnull\n{"ok":1}\n'), [
    { kind: "malformed", file: "f.json", line: 1, message: "expected a JSON object, found an array; for an array of events, make NDJSON first: jq -c '.[]' FILE | cursorlog …" },
    { kind: "malformed", file: "f.json", line: 2, message: "expected a JSON object, found a string" },
    { kind: "malformed", file: "f.json", line: 3, message: "expected a JSON object, found a number" },
    { kind: "malformed", file: "f.json", line: 4, message: "expected a JSON object, found null" },
    { file: "f.json", line: 5, text: '{"ok":1}', value: { ok: 1 } },
  ]);
  assert.deepEqual(readLines('{"a":1}}\n'), [
    { kind: "malformed", file: "f.json", line: 1, message: "invalid JSON: Unexpected non-whitespace character after the JSON value, at column 8" },
  ]);
  assert.deepEqual(readLines('{"a":1}\n{"b":\n'), [
    { file: "f.json", line: 1, text: '{"a":1}', value: { a: 1 } },
    { kind: "malformed", file: "f.json", line: 2, message: "unexpected end of input: the JSON value that starts here is never closed" },
  ]);
  // A line that does not begin like JSON is the agent CLI's own text (stderr merged), quoted whole:
  // never malformed. One that begins like JSON ({ [ " } ]) and is broken stays malformed.
  assert.deepEqual(readLines("\u0000\u0001\u00ff garbage\n  RetriableError: [invalid_argument] x \n"), [
    { kind: "said", file: "f.json", line: 1, message: "\u0000\u0001\u00ff garbage" },
    { kind: "said", file: "f.json", line: 2, message: "RetriableError: [invalid_argument] x" },
  ]);
  assert.deepEqual(readLines('"RetriableError\n]\n'), [
    { kind: "malformed", file: "f.json", line: 1, message: 'not JSON: the line starts with "\\"RetriableError"' },
    { kind: "malformed", file: "f.json", line: 2, message: 'not JSON: the line starts with "]"' },
  ]);
});

test("json reader: __proto__ and constructor keys are plain data", () => {
  const [item] = readLines('{"type":"x","__proto__":{"polluted":true},"constructor":1}\n');
  assert.ok(item && "value" in item);
  assert.equal(Object.getPrototypeOf(item.value), Object.prototype);
  assert.deepEqual(Object.keys(item.value), ["type", "__proto__", "constructor"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

const tmp = tempDir("cursorlog-input-");

test("gzip: detected by magic bytes whatever the name; a corrupt stream errors after the good output", async () => {
  const whole = readFileSync("test/fixtures/2026-long.ndjson");
  const gz = gzipSync(whole);
  writeFileSync(join(tmp, "plain-name.ndjson"), gz);
  const ok = await runCli(["json", join(tmp, "plain-name.ndjson")]);
  assert.equal(ok.code, 0);
  assert.equal(ok.stdout, readFileSync("test/golden/json-2026-long.stdout", "utf8"));

  writeFileSync(join(tmp, "cut.ndjson.gz"), gz.subarray(0, Math.floor(gz.length * 0.8)));
  const cut = await runCli(["text", join(tmp, "cut.ndjson.gz")]);
  assert.equal(cut.code, 2);
  const cutName = join(tmp, "cut.ndjson.gz");
  const lines = cut.stderr.split("\n");
  assert.equal(lines[0], `cursorlog: error (at ${cutName}): cannot read: truncated gzip data (unexpected end of file)`);
  // The session the cut file was writing has no result either, and says so.
  assert.match(lines[1] ?? "", new RegExp(`^cursorlog: error \\(at ${cutName.replace(/[.\\/]/g, "\\$&")}:\\d+\\): session \\S+ has no result`));
  assert.ok(cut.stdout.startsWith("Listed directory\nRead file\n"), cut.stdout);

  const bad = Buffer.from(gz);
  bad.fill(0x55, 40, 80);
  writeFileSync(join(tmp, "bad.gz"), bad);
  const corrupt = await runCli(["json", join(tmp, "bad.gz")]);
  assert.equal(corrupt.code, 2);
  assert.match(corrupt.stderr, /cannot read: corrupt gzip data/);
});

test("missing, empty-directory and unreadable inputs: one message each, the others still read, exit 2", async () => {
  mkdirSync(join(tmp, "adir"), { recursive: true });
  const r = await runCli(["json", "test/fixtures/thinking-only.ndjson", join(tmp, "adir"), join(tmp, "nope.ndjson"), "test/fixtures/two-sessions.ndjson"]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout.split("\n").filter(Boolean).length, 3);
  assert.equal(
    r.stderr,
    `cursorlog: error (at ${join(tmp, "adir")}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory\n` +
      `cursorlog: error (at ${join(tmp, "nope.ndjson")}): cannot read: no such file or directory\n`,
  );
});

test("a directory is every *.ndjson, *.jsonl, *.log and .gz form below it, in a stable order, each by its own path", async () => {
  const d = join(tmp, "logs");
  mkdirSync(join(d, "b", "deeper"), { recursive: true });
  writeFileSync(join(d, "b", "deeper", "z.jsonl"), readFileSync("test/fixtures/thinking-only.ndjson"));
  writeFileSync(join(d, "a.ndjson.gz"), gzipSync(readFileSync("test/fixtures/2025-shape.ndjson")));
  writeFileSync(join(d, "c.log"), readFileSync("test/fixtures/crash-no-result.ndjson"));
  writeFileSync(join(d, "notes.txt"), "not a log\n");
  const r = await runCli(["text", d]);
  assert.equal(r.code, 4);
  assert.equal(r.stdout, readFileSync("test/golden/text-2025-shape.stdout", "utf8") + "Read file\n");
  assert.match(r.stderr, new RegExp(`^cursorlog: error \\(at ${join(d, "c.log").replace(/[./]/g, "\\$&")}:9\\): session`));
  const j = await runCli(["json", "--allow-incomplete", d]);
  assert.deepEqual(
    j.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { incomplete?: { file: string } }).incomplete?.file ?? "result"),
    ["result", "result", join(d, "c.log")], // a.ndjson.gz, b/deeper/z.jsonl, c.log
  );
});

test("stdin on a terminal with no file named: a usage hint and exit 2, never a silent wait", async () => {
  const r = await runCli(["text"], { stdinIsTTY: true });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^cursorlog: reading a log from the terminal: pipe one in or name a file\n/);
});

test("a directory named while stdin is a terminal is read (or reported when it holds no log), not refused as a read from the terminal", async () => {
  const empty = join(tmp, "empty-tty");
  mkdirSync(empty, { recursive: true });
  for (const { name } of logCommands()) {
    const r = await runCli([name, empty], { stdinIsTTY: true });
    assert.deepEqual(r, { stdout: "", stderr: `cursorlog: error (at ${empty}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory\n`, code: 2 }, name);
    assert.deepEqual(await runCli([name, "test/fixtures/validate/logs"], { stdinIsTTY: true }), await runCli([name, "test/fixtures/validate/logs"]), name);
  }
});

test("empty input: no session in the input, exit 4 (an agent that never started is no success); filter writes nothing, exit 0", async () => {
  for (const cmd of ["json", "text", "timeline", "stats"]) {
    for (const stdin of ["", "\n \n"]) {
      const r = await runCli([cmd, "--format", cmd === "timeline" ? "ndjson" : "json"].slice(0, cmd === "json" || cmd === "text" ? 1 : 3), { stdin });
      assert.equal(r.stderr, "cursorlog: error (at <stdin>): no session in the input\n", cmd);
      assert.equal(r.code, 4, cmd);
    }
  }
  assert.deepEqual(await runCli(["filter"], { stdin: "" }), { stdout: "", stderr: "", code: 0 });
});

test("usage errors exit 2 in the cursorlog grammar", async () => {
  const r = await runCli(["json", "--no-such-flag"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "cursorlog: error: unknown option '--no-such-flag'\nRun 'cursorlog json --help' for usage.\n");
  const v = await runCli(["--version"]);
  assert.deepEqual(v, { stdout: `${JSON.parse(readFileSync("package.json", "utf8")).version}\n`, stderr: "", code: 0 });
});

test("json reader: a line cut inside a string in the middle of a file is reported at that line, and the next line is still read", () => {
  const items = readLines('{"a":1}\n{"type":"assistant","text":"cut he\n{"b":2}\n');
  assert.deepEqual(items, [
    { file: "f.json", line: 1, text: '{"a":1}', value: { a: 1 } },
    { kind: "malformed", file: "f.json", line: 2, message: "invalid JSON: Unterminated string at column 35" },
    { file: "f.json", line: 3, text: '{"b":2}', value: { b: 2 } },
  ]);
  // In a pretty-printed value, the cut line is named; what follows is read again line by line.
  assert.deepEqual(readLines('{\n  "a": "x\\"y",\n  "b": "cut\n}\n{"c":3}\n'), [
    { kind: "malformed", file: "f.json", line: 3, message: "invalid JSON: the line ends inside a string" },
    { kind: "malformed", file: "f.json", line: 4, message: 'not JSON: the line starts with "}"' },
    { file: "f.json", line: 5, text: '{"c":3}', value: { c: 3 } },
  ]);
});

/** Every record of `text` read with `skip`, as [line, lastLine, type, skipped] (values that were parsed show their text). */
function readSkipping(text: string, skip: RawSkip, size: number): Array<[number, number | undefined, unknown, boolean]> {
  const r = new JsonReader("f.json", 1e9);
  const s = new LineSplitter(1e9, skip);
  const out: InputItem[] = [];
  const data = Buffer.from(text);
  for (let i = 0; i < data.length; i += size) r.read(s.push(data.subarray(i, i + size)), out);
  r.read(s.end(), out);
  r.end(out);
  return out.map((i) => ("value" in i ? [i.line, i.lastLine, i.skipped ? i.value.type : i.text, i.skipped === true] : [i.line ?? 0, undefined, i.message, false]));
}

test("skipped lines: consecutive lines of one type read in one chunk are one record, line to lastLine", () => {
  const think = (n: number) => `{"type":"thinking","subtype":"delta","text":"t${n}","session_id":"s","timestamp_ms":${n}}\n`;
  const log = '{"type":"system","subtype":"init"}\n' + think(1) + think(2) + think(3) + '{"type":"user"}\n' + think(4) + '{"type":"result"}\n';
  const skip = skipTypes(["thinking", "user"])!;
  assert.deepEqual(readSkipping(log, skip, log.length), [
    [1, undefined, '{"type":"system","subtype":"init"}', false],
    [2, 4, "thinking", true],
    [5, undefined, "user", true],
    [6, undefined, "thinking", true],
    [7, undefined, '{"type":"result"}', false],
  ]);
  // Whatever the chunking, the records cover the same lines: runs only split where chunks end.
  for (const size of [1, 5, 64, 100]) {
    const lines = readSkipping(log, skip, size).flatMap(([line, last, type]) => Array.from({ length: (last ?? line) - line + 1 }, (_v, k) => [line + k, type]));
    assert.deepEqual(lines, [[1, '{"type":"system","subtype":"init"}'], [2, "thinking"], [3, "thinking"], [4, "thinking"], [5, "user"], [6, "thinking"], [7, '{"type":"result"}']], `chunk size ${size}`);
  }
});

test("skipped lines: inside a value spread over lines they are read as its lines, and the rest of the run is skipped again", () => {
  const think = (n: number) => `{"type":"thinking","text":"t${n}"}`;
  // A value left open takes line 2 in and fails there, as without skipping; line 3 is skipped again.
  const open = `{"type":"assistant",\n${think(1)}\n${think(2)}\n`;
  assert.deepEqual(readSkipping(open, skipTypes(["thinking"])!, open.length), [
    [2, undefined, "invalid JSON: expected an object key", false],
    [3, undefined, "thinking", true],
  ]);
  // A value that closes on line 2 lets lines 3-5 be skipped again, as one run.
  const closed = `{"type":"assistant",\n"a":1}\n${think(1)}\n${think(2)}\n${think(3)}\n`;
  assert.deepEqual(readSkipping(closed, skipTypes(["thinking"])!, closed.length), [
    [1, undefined, '{"type":"assistant","a":1}', false],
    [3, 5, "thinking", true],
  ]);
});

test("skipped lines: a run grows only by lines of the very same type (same length is not enough; an escaped type is asked again)", () => {
  const log = '{"type":"aaaa"}\n{"type":"aaaa","n":1}\n{"type":"aaab"}\n{"type":"aaa\\u0061"}\n{"type":"aaaa"}\n{"type":"aaab","x":{"type":"aaaa"}}\n';
  const skip = skipTypes(["aaaa", "aaab"])!;
  for (const size of [log.length, 7]) {
    const lines = readSkipping(log, skip, size).flatMap(([line, last, type]) => Array.from({ length: (last ?? line) - line + 1 }, (_v, k) => [line + k, type]));
    assert.deepEqual(lines, [[1, "aaaa"], [2, "aaaa"], [3, "aaab"], [4, "aaaa"], [5, "aaaa"], [6, "aaab"]], `chunk size ${size}`);
  }
  assert.deepEqual(readSkipping(log, skip, log.length), [
    [1, 2, "aaaa", true],
    [3, undefined, "aaab", true],
    [4, 5, "aaaa", true],
    [6, undefined, "aaab", true],
  ]);
  // A blank line between two lines of one type ends the run: a run is consecutive lines.
  assert.deepEqual(readSkipping('{"type":"aaaa"}\n\n{"type":"aaaa"}\n{"type":"aaaa"}\n', skip, 100), [
    [1, undefined, "aaaa", true],
    [3, 4, "aaaa", true],
  ]);
});

test("filter --type's raw lines: their read buffer is read into again once the batch is released, never before", async () => {
  const dir = tempDir("cursorlog-release-");
  const path = join(dir, "big.ndjson");
  const line = (i: number) => JSON.stringify({ type: i % 3 === 0 ? "tool_call" : "thinking", n: i, text: "z".repeat(200) });
  writeFileSync(path, Array.from({ length: 60_000 }, (_v, i) => line(i) + "\n").join("")); // ~14 MiB: 14 reads of 1 MiB
  const want = readFileSync(path, "utf8").split("\n").filter((l) => l.includes('"tool_call"'));
  const skip = keepWhole(skipAllBut(["tool_call"]), (t) => t === "tool_call");
  const read = async (release: boolean) => {
    const buffers = new Set<ArrayBufferLike>();
    const kept: Array<{ raw: Buffer; copy: string }> = [];
    for await (const batch of readInputs({ files: [path], stdin: Readable.from([]), maxLineBytes: 1e9, stopAtMalformed: true, skip })) {
      for (const item of batch.items) {
        if ("raw" in item && item.raw !== undefined) {
          buffers.add(item.raw.buffer);
          kept.push({ raw: item.raw, copy: item.raw.toString("utf8") });
        }
      }
      if (release) {
        // What a consumer does: copy the lines out, then release (set when the batch holds raw lines).
        assert.equal(typeof batch.release, batch.items.some((i) => "raw" in i && i.raw !== undefined) ? "function" : "undefined");
        kept.length = 0;
        batch.release?.();
      }
    }
    return { buffers, kept };
  };
  const unreleased = await read(false);
  // Never released: no buffer is read into again, so every kept line still holds its bytes.
  assert.ok(unreleased.buffers.size >= 14, `${unreleased.buffers.size} buffers`);
  for (const k of unreleased.kept) assert.equal(k.raw.toString("utf8"), k.copy);
  // (A line that spans two reads is parsed, not kept raw: a few per file.)
  const wanted = new Set(want);
  for (const k of unreleased.kept) assert.ok(wanted.has(k.copy.trimEnd()), k.copy.slice(0, 40));
  assert.ok(unreleased.kept.length > want.length * 0.99, `${unreleased.kept.length} of ${want.length} kept raw`);
  // Released: a handful of buffers, reused.
  const released = await read(true);
  assert.ok(released.buffers.size <= 5, `${released.buffers.size} buffers`);
});
