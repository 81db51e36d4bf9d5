// test-run: scaled
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { main } from "../src/cli/main.js";
import { skipAllBut, skipCompletionBodies, skipTypes, type RawSkip } from "../src/input/raw-skip.js";
import { soundLine } from "../src/input/line-splitter.js";
import { logCommands, pieces, pieceStream, variantsOf } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";

// Data kept as it was (issue 13, README "Data as it was"): what each command does with input
// that JSON.parse and the byte-level shortcuts could read differently. The golden files of
// data-kept.golden.test.ts show every command's output; these tests check the rules at their edges.

const D = "test/fixtures/data-kept";
const COMMANDS = logCommands();

interface Run {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** `cursorlog argv` in-process, every named file served from `files` cut at every `step` bytes; stdout as bytes. */
async function run(argv: string[], files: Record<string, Buffer>, step = 0): Promise<Run> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (to: Buffer[]) =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        to.push(Buffer.from(chunk));
        cb();
      },
    });
  const cutsOf = (b: Buffer) => (step <= 0 ? [] : Array.from({ length: Math.ceil(b.length / step) - 1 }, (_, i) => (i + 1) * step));
  const code = await main(argv, {
    stdin: pieceStream([]),
    stdout: sink(out),
    stderr: sink(err),
    env: { TZ: "UTC", NO_COLOR: "1" },
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    open: (path) => {
      const b = files[path];
      if (b === undefined) throw new Error(`no file ${path} in this test`);
      return pieceStream(pieces(b, cutsOf(b)));
    },
  });
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8"), code };
}

/** Every command with each of its option sets (run-chunks.ts variantsOf), on `file`. */
function everyVariant(): string[][] {
  return COMMANDS.flatMap((c) => variantsOf(c).map((v) => [c.name, ...v]));
}

// 1. Numbers

test("json writes every number of the result line as written, compact and --pretty, read alone or over several lines", async () => {
  const result = '{"type":"result","subtype":"success","is_error":false,"duration_ms":1.0,"result":"ok","session_id":"s","usage":{"a":1e400,"b":12345678901234567890,"c":9007199254740993,"d":-0,"e":1.0,"f":1E2,"g":[-0.0e-0,1.50]}}';
  const log = Buffer.from(`{"type":"system","subtype":"init","session_id":"s"}\n${result}\n`);
  const compact = result; // the known keys are already in order
  for (const step of [0, 1, 7]) {
    const r = await run(["json", "x.ndjson"], { "x.ndjson": log }, step);
    assert.equal(r.stdout.toString(), compact + "\n", `chunks of ${step}`);
  }
  const pretty = await run(["json", "--pretty", "x.ndjson"], { "x.ndjson": log });
  assert.match(pretty.stdout.toString(), /\n {4}"a": 1e400,\n {4}"b": 12345678901234567890,\n {4}"c": 9007199254740993,\n {4}"d": -0,\n {4}"e": 1.0,\n {4}"f": 1E2,\n {4}"g": \[\n {6}-0.0e-0,\n {6}1.50\n {4}\]\n/);
  assert.deepEqual(JSON.parse(pretty.stdout.toString()), JSON.parse(compact), "--pretty is the same JSON");
  // Pretty-printed input (jq . output): the value is read from its tokens, numbers as written.
  const spread = Buffer.from(`{"type":"system","subtype":"init","session_id":"s"}\n${result.replace(/,/g, ",\n  ")}\n`);
  const r = await run(["json", "x.ndjson"], { "x.ndjson": spread });
  assert.equal(r.stdout.toString(), compact + "\n");
  const f = await run(["filter", "x.ndjson"], { "x.ndjson": spread });
  assert.equal(f.stdout.toString().split("\n")[1], compact, "filter's compact line keeps the numbers");
});

test("json: a repeated key keeps its first place and its last value, as JSON.parse and jq do; strings keep their escapes", async () => {
  const log = Buffer.from('{"type":"result","usage":{"n":1,"m":2,"n":3.0},"result":"caf\\u00e9 \\/ \\"q\\"","is_error":false,"usage":{"n":4,"n":5e0}}\n');
  const r = await run(["json", "x.ndjson"], { "x.ndjson": log });
  assert.equal(r.stdout.toString(), '{"type":"result","is_error":false,"result":"caf\\u00e9 \\/ \\"q\\"","usage":{"n":5e0}}\n');
  assert.equal(r.code, 0);
});

test("json --allow-incomplete: the session id as written; computed values as JSON.stringify writes them", async () => {
  const log = Buffer.from('{"type":"system","subtype":"init","session_id":"s\\u0031","timestamp_ms":1.5e3}\n{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]},"session_id":"s1","timestamp_ms":2000}\n');
  const r = await run(["json", "--allow-incomplete", "x.ndjson"], { "x.ndjson": log });
  assert.equal(r.stdout.toString(), '{"type":"result","subtype":"incomplete","is_error":true,"duration_ms":500,"result":"hi","session_id":"s\\u0031","incomplete":{"file":"x.ndjson","first_line":1,"last_line":2,"open_tool_calls":0}}\n');
});

test("json --allow-incomplete of a Codex thread cut off: its thread_id as written is the session_id (Run.words: the member each agent writes the id in)", async () => {
  const log = Buffer.from('{"type":"thread.started","thread_id":"t\\u0031"}\n{"type":"turn.started"}\n{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"hi"}}\n');
  const r = await run(["json", "--allow-incomplete", "x.ndjson"], { "x.ndjson": log });
  assert.equal(r.stdout.toString(), '{"type":"result","subtype":"incomplete","is_error":true,"result":"hi","session_id":"t\\u0031","incomplete":{"file":"x.ndjson","first_line":1,"last_line":3,"open_tool_calls":0}}\n');
});

test("stats and timeline compute with numbers as JavaScript reads them (README: what is not kept)", async () => {
  const log = readFileSync(`${D}/numbers.ndjson`);
  const s = await run(["stats", "--format", "json", "n.ndjson"], { "n.ndjson": log });
  const session = JSON.parse(s.stdout.toString().split("\n")[0]!) as { usage: Record<string, unknown> };
  // 12345678901234567890 rounded to a double, 9007199254740993 to …992, 1e400 (no finite count) null.
  assert.deepEqual(session.usage, { input_tokens: 12345678901234567000, output_tokens: 9007199254740992, cache_read_tokens: null, cache_write_tokens: 100 });
  const t = await run(["timeline", "--format", "ndjson", "n.ndjson"], { "n.ndjson": log });
  assert.match(t.stdout.toString(), /"exit_code":0,/, "exitCode 0.0 is written 0");
});

// 2. Duplicate keys

test("duplicate keys: the last wins in every command and every shortcut (a thinking delta whose last type is result)", async () => {
  const S = '"session_id":"s"';
  const line = `{"type":"thinking","subtype":"delta","text":"x",${S},"type":"result","subtype":"success","is_error":false,"result":"ok"}`;
  const log = Buffer.from(`{"type":"system","subtype":"init",${S}}\n${line}\n`);
  const wants: Record<string, (r: Run) => void> = {
    json: (r) => assert.equal(r.stdout.toString(), `{"type":"result","subtype":"success","is_error":false,"result":"ok",${S},"text":"x"}\n`),
    text: (r) => assert.equal(r.code, 0, "the session has its result"),
    timeline: (r) => assert.equal(r.code, 0, "the session has its result"),
    stats: (r) => assert.match(r.stdout.toString(), /outcome {5}finished/),
    filter: (r) => assert.equal(r.stdout.toString(), log.toString()),
    validate: (r) => assert.match(r.stdout.toString(), /x\.ndjson:2: warning: duplicate key "type": the last value is used, as JSON\.parse and jq do \(duplicate-key\)/),
  };
  for (const c of COMMANDS) {
    const r = await run([c.name, "x.ndjson"], { "x.ndjson": log });
    wants[c.name]?.(r);
  }
  for (const [args, want] of [
    [["--type", "result"], line + "\n"],
    [["--type", "thinking"], ""],
    [["--exclude-type", "result"], log.toString().split("\n")[0] + "\n"],
    [["--exclude-type", "thinking"], log.toString()],
  ] as const) {
    const r = await run(["filter", ...args, "x.ndjson"], { "x.ndjson": log });
    assert.equal(r.stdout.toString(), want, `filter ${args.join(" ")}`);
  }
});

test("duplicate keys: the byte-level skips see the type JSON.parse sees, and leave a completion with a second subtype or call_id to JSON.parse", () => {
  const judge = (skip: RawSkip, l: string) => {
    const b = Buffer.from(l);
    const sound = soundLine(b, 0, b.length);
    return sound === undefined ? undefined : skip.test(sound);
  };
  const lines = [
    '{"type":"thinking","text":"a","type":"result"}',
    '{"type":"thinking","text":"a","type" : "result","n":1}',
    '{"type":"thinking","a":{"b":1},"type":"result"}',
  ];
  for (const l of lines) {
    assert.equal(judge(skipTypes(["thinking"])!, l), undefined, l);
    assert.equal(judge(skipTypes(["result"])!, l), "result", l);
    assert.equal(judge(skipAllBut(["result"]), l), undefined, l);
  }
  for (const l of [
    '{"type":"tool_call","subtype":"completed","call_id":"a","tool_call":{},"call_id":"b","n":1}',
    '{"type":"tool_call","subtype":"completed","call_id":"a","tool_call":{},"subtype":"started","n":1}',
    '{"type":"tool_call","subtype":"completed","call_id":"a","tool_call":{},"type":"result","n":1}',
  ]) {
    assert.equal(judge(skipCompletionBodies(undefined), l), undefined, l);
  }
  // The bytes "type" as a string value, or escaped inside a string, do not stop the shortcut.
  assert.equal(judge(skipTypes(["thinking"])!, '{"type":"thinking","text":"say \\"type\\"","n":1}'), "thinking");
});

// 3. A call started twice

test("a started event for a call still open is the same call starting again: one row, one bar, one call, one action", async () => {
  const log = readFileSync(`${D}/duplicate-started.ndjson`);
  const files = { "d.ndjson": log };
  const rows = (await run(["timeline", "--format", "ndjson", "--allow-incomplete", "d.ndjson"], files)).stdout.toString().trim().split("\n");
  assert.deepEqual(
    rows.map((r) => JSON.parse(r) as Record<string, unknown>).map((r) => [r.call_id, r.seq, r.started_line, r.started_at]),
    [
      ["call_1", 1, 3, "2026-01-01T00:00:00.100Z"],
      ["call_2", 2, 5, "2026-01-01T00:00:00.160Z"],
      ["call_9", 1, 10, "2026-01-01T00:00:01.000Z"],
    ],
    "the first start stands",
  );
  const html = (await run(["timeline", "--format", "html", "--allow-incomplete", "d.ndjson"], files)).stdout.toString();
  const data = JSON.parse(/<script type="application\/json" id="timeline-data">([^]*?)<\/script>/.exec(html)![1]!) as { sessions: Array<{ calls: Array<{ seq: number; line: number }> }> };
  assert.deepEqual(
    data.sessions.map((s) => s.calls.map((c) => [c.seq, c.line])),
    [
      [
        [1, 3],
        [2, 5],
      ],
      [[1, 10]],
    ],
  );
  const stats = JSON.parse((await run(["stats", "--format", "json", "d.ndjson"], files)).stdout.toString().split("\n")[2]!) as { calls: { total: number; open: number } };
  assert.equal(stats.calls.total, 3);
  assert.equal(stats.calls.open, 1);
  const text = await run(["text", "-v", "--allow-incomplete", "d.ndjson"], files);
  assert.equal(text.stdout.toString(), "Ran terminal command: npm test\nRead file: README.md\n");
  const json = await run(["json", "d.ndjson"], files);
  assert.match(json.stderr, /1 tool call still open: Edited file "src\/a\.ts" \(line 10\)/);
  const v = await run(["validate", "--no-lifecycle", "d.ndjson"], files);
  assert.doesNotMatch(v.stdout.toString(), /duplicate-start/, "lifecycle off: no lifecycle finding");
});

// 4. Invalid UTF-8

test("invalid UTF-8: filter writes the line's bytes on every path, whatever the chunking", async () => {
  const log = readFileSync(`${D}/invalid-utf8.ndjson`);
  const lines = log.toString("latin1").split("\n").slice(0, -1).map((l) => Buffer.from(l + "\n", "latin1"));
  const keep = (...n: number[]) => Buffer.concat(n.map((i) => lines[i]!));
  const cases: Array<[string[], Buffer]> = [
    [[], log],
    [["--type", "system", "--type", "thinking", "--type", "assistant", "--type", "result", "--type", "user"], log],
    [["--type", "thinking"], keep(2)],
    [["--exclude-type", "user"], keep(0, 2, 3, 4)],
    [["--where", "type ~ ."], log],
    [["--session", "5e1f0a2b-0000-4000-8000-00000000d47a"], log],
    [["--subtype", "delta"], keep(2)],
    [["--pair"], log],
    [["--since", "2026-01-01T00:00:00.000Z"], keep(2, 3, 4)],
    [["--lenient"], log],
  ];
  for (const [n, [args, want]] of cases.entries()) {
    // Whole, and in 1- and 3-byte pieces in make stress; in make test whole and one of the two in turn.
    for (const step of STRESS ? [0, 1, 3] : [0, n % 2 === 0 ? 1 : 3]) {
      const r = await run(["filter", ...args, "u.ndjson"], { "u.ndjson": log }, step);
      assert.ok(r.stdout.equals(want), `filter ${args.join(" ")} (chunks of ${step}): ${JSON.stringify(r.stdout.toString("latin1"))}`);
      assert.equal(r.code, 0);
    }
  }
  // The same from gzip, and -c counts.
  const gz = await run(["filter", "u.ndjson.gz"], { "u.ndjson.gz": gzipSync(log) });
  assert.ok(gz.stdout.equals(log));
});

test("invalid UTF-8: validate reports the line (rule utf8, an error) at its first bad byte; a valid U+FFFD is not reported", async () => {
  const log = Buffer.concat([Buffer.from('{"type":"x","a":"'), Buffer.from([0x61, 0xe2, 0x82]), Buffer.from('"}\n{"type":"x","a":"\uFFFD"}\n')]);
  const r = await run(["validate", "--no-lifecycle", "u.ndjson"], { "u.ndjson": log });
  assert.equal(r.stdout.toString().split("\n").filter((l) => l.includes("(utf8)")).join("\n"), "u.ndjson:1: not valid UTF-8 at byte 19 (0xe2): read as U+FFFD (utf8)");
  assert.equal(r.code, 1);
  assert.match(r.stdout.toString(), /checked 2 lines in 1 file: 1 valid, 1 invalid/);
});

// 5. A BOM at the start of any line

test("a BOM at the start of any line is not part of it: every command reads cat a b of two BOM files as the files without BOMs", async () => {
  const log = readFileSync(`${D}/bom-mid-stream.ndjson`);
  const plain = Buffer.from(log.toString("latin1").replace(/\xef\xbb\xbf/g, ""), "latin1");
  assert.notEqual(plain.length, log.length);
  // Fed a byte at a time (a BOM cut in three): in make test every command with its plain options,
  // in make stress every option set too.
  for (const argv of everyVariant()) {
    const b = await run([...argv, "b.ndjson"], { "b.ndjson": plain });
    for (const step of STRESS || argv.length === 1 ? [0, 1] : [0]) {
      const a = await run([...argv, "b.ndjson"], { "b.ndjson": log }, step);
      assert.deepEqual({ ...a, stdout: a.stdout.toString() }, { ...b, stdout: b.stdout.toString() }, `${argv.join(" ")} (chunks of ${step})`);
    }
  }
  // filter writes no BOM: every line it writes is one JSON text.
  const f = await run(["filter", "b.ndjson"], { "b.ndjson": log });
  assert.ok(f.stdout.equals(plain));
});

// 6. gzip with trailing garbage

test("gzip with trailing garbage after a complete member: everything decoded is processed, then gzip's warning, status 2", async () => {
  const plain = readFileSync("test/fixtures/2026-long.ndjson");
  const more = readFileSync("test/fixtures/thinking-only.ndjson");
  const warning = "cursorlog: warning (at g.ndjson.gz): decompression OK, trailing garbage ignored\n";
  const inputs: Array<[string, Buffer, Buffer]> = [
    ["text garbage", Buffer.concat([gzipSync(plain), Buffer.from("garbage\n")]), plain],
    ["one byte", Buffer.concat([gzipSync(plain), Buffer.from([0x1f])]), plain],
    ["after two members", Buffer.concat([gzipSync(plain), gzipSync(more), Buffer.from("\x00\x00junk")]), Buffer.concat([plain, more])],
  ];
  // Fed in pieces, a run inflates each piece on its own (a byte at a time, about a quarter of a
  // second): the pieces are cut before any command reads them, so make test feeds each command's
  // plain options whole on every input and in 5-byte pieces on one of them in turn, a byte at a
  // time to one command an input (json, filter, timeline), and its other option sets whole, each on
  // one of the inputs in turn; make stress feeds every option set of every command both ways, on
  // every input.
  const ONE_BYTE = ["json", "filter", "timeline"];
  const steps = (argv: string[], k: number) => {
    if (STRESS) return [0, 1, 5];
    if (argv.length > 1) return [0];
    const five = COMMANDS.findIndex((c) => c.name === argv[0]) % inputs.length === k ? [5] : [];
    return [0, ...(argv[0] === ONE_BYTE[k] ? [1] : []), ...five];
  };
  for (const [k, [what, gz, decoded]] of inputs.entries()) {
    for (const [j, argv] of everyVariant().entries()) {
      if (!STRESS && argv.length > 1 && j % inputs.length !== k) continue;
      const b = await run([...argv, "g.ndjson.gz"], { "g.ndjson.gz": decoded });
      for (const step of steps(argv, k)) {
        const a = await run([...argv, "g.ndjson.gz"], { "g.ndjson.gz": gz }, step);
        const context = `${what}: ${argv.join(" ")} (chunks of ${step})`;
        assert.equal(a.stdout.toString(), b.stdout.toString(), context);
        assert.equal(a.stderr, b.stderr + warning, context);
        assert.equal(a.code, 2, context);
      }
    }
  }
});

test("gzip: zero padding after a member is silent; bytes that start like a member but are not one are corrupt data", async () => {
  const plain = readFileSync("test/fixtures/2026-long.ndjson");
  const padded = await run(["filter", "g.gz"], { "g.gz": Buffer.concat([gzipSync(plain), Buffer.alloc(512)]) });
  assert.deepEqual([padded.stdout.toString(), padded.stderr, padded.code], [plain.toString(), "", 0]);
  const bad = await run(["filter", "g.gz"], { "g.gz": Buffer.concat([gzipSync(plain), Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff])]) });
  assert.equal(bad.stdout.toString(), plain.toString());
  assert.equal(bad.stderr, "cursorlog: error (at g.gz): cannot read: corrupt gzip data (invalid block type)\n");
  assert.equal(bad.code, 2);
});
