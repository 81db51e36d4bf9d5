// test-run: scaled
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { main } from "../src/cli/main.js";
import * as C from "./helpers/claude-events.js";
import { genClaudeLog } from "./helpers/claude-gen.js";
import { claudeFixtures } from "./helpers/claude-fixtures.js";
import { pieces, pieceStream } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns, STRESS } from "./helpers/scale.js";

// Values untouched, for Claude Code logs (robust-lossless.test.ts and data-kept.test.ts hold the
// promise for cursor-agent's): json prints each run's result line as Claude Code wrote it (keys in
// its order, `1e400`, `12345678901234567890`, `-0`, `1.0`, string escapes, `__proto__` and
// `constructor` members), compact and --pretty, at any chunking, read alone or over several lines;
// filter writes Claude Code lines byte for byte, invalid UTF-8 included, on every path; and
// property: over generated Claude Code logs, filter gives back every line and json every result.

const SEED = FUZZ_SEED;
const S = "9c8b7a60-0000-4000-8000-000000000027";
const T0 = Date.UTC(2026, 9, 1, 12);

interface Run {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** `cursorlog argv` in-process, every named file served from `files` cut every `step` bytes; stdout as bytes. */
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

const INIT = JSON.stringify(C.init(S));
/** A Claude Code result line (2.1.28x's key order: duration_api_ms first, type near the end) holding values JSON.parse would not give back as written. */
const RESULT =
  `{"duration_api_ms":1e400,"stop_reason":"end_turn","session_id":"${S}","total_cost_usd":12345678901234567890,` +
  `"usage":{"input_tokens":-0,"cache_creation_input_tokens":1.0,"cache_read_input_tokens":1E2,"output_tokens":9007199254740993,"output_tokens_details":{"thinking_tokens":-0.0e-0},"iterations":[1.50,2e-7]},` +
  `"modelUsage":{"__proto__":{"costUSD":0.10000000000000000555},"constructor":{"prototype":{"costUSD":1}}},"permission_denials":[],"terminal_reason":"completed",` +
  `"is_error":false,"num_turns":2,"subtype":"success","result":"d\\u00e9j\\u00e0 \\ud83d\\ude00 \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u0000 \\u001b[2J \\u2028","type":"result","duration_ms":4500,"uuid":"u","__proto__":{"is_error":true},"ttft_ms":1718}`;

test("json prints a Claude Code result line as written: its key order, 1e400, 12345678901234567890, -0, 1.0, 1E2, escapes, __proto__; compact and --pretty; at any chunking", async () => {
  const log = Buffer.from(`${INIT}\n${RESULT}\n`);
  for (const step of [0, 1, 7]) {
    const r = await run(["json", "c.ndjson"], { "c.ndjson": log }, step);
    assert.deepEqual({ stdout: r.stdout.toString(), stderr: r.stderr, code: r.code }, { stdout: RESULT + "\n", stderr: "", code: 0 }, `chunks of ${step}`);
  }
  const pretty = (await run(["json", "--pretty", "c.ndjson"], { "c.ndjson": log })).stdout.toString();
  assert.match(pretty, /^\{\n {2}"duration_api_ms": 1e400,\n {2}"stop_reason": "end_turn",\n/);
  assert.match(pretty, /\n {2}"total_cost_usd": 12345678901234567890,\n {2}"usage": \{\n {4}"input_tokens": -0,\n {4}"cache_creation_input_tokens": 1.0,\n {4}"cache_read_input_tokens": 1E2,\n {4}"output_tokens": 9007199254740993,\n/);
  assert.match(pretty, /\n {6}"thinking_tokens": -0.0e-0\n/);
  assert.match(pretty, /\n {4}"iterations": \[\n {6}1.50,\n {6}2e-7\n {4}\]\n/);
  assert.match(pretty, /\n {2}"modelUsage": \{\n {4}"__proto__": \{\n {6}"costUSD": 0.10000000000000000555\n {4}\},/);
  assert.ok(pretty.includes(`\n  "result": "d\\u00e9j\\u00e0 \\ud83d\\ude00 \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u0000 \\u001b[2J \\u2028",\n`), pretty);
  assert.match(pretty, /\n {2}"__proto__": \{\n {4}"is_error": true\n {2}\},\n {2}"ttft_ms": 1718\n\}\n$/);
  assert.deepEqual(JSON.parse(pretty), JSON.parse(RESULT), "--pretty is the same JSON");
  // A result written over several lines (jq . output) is read from its tokens: json and filter print
  // it compact, its numbers as written (its strings as JSON.stringify writes them: README).
  const plain = RESULT.replace(/"result":"(?:[^"\\]|\\.)*"/, '"result":"ok"');
  assert.notEqual(plain, RESULT);
  const spread = Buffer.from(`${INIT}\n` + plain.replace(/,"/g, ',\n  "') + "\n");
  const j = await run(["json", "c.ndjson"], { "c.ndjson": spread });
  assert.equal(j.stdout.toString(), plain + "\n", j.stderr);
  const f = await run(["filter", "c.ndjson"], { "c.ndjson": spread });
  assert.equal(f.stdout.toString(), `${INIT}\n${plain}\n`);
  // Nothing reached Object.prototype.
  assert.equal(({} as Record<string, unknown>).is_error, undefined);
  assert.equal(({} as Record<string, unknown>).costUSD, undefined);
});

test("json prints each run's result as written, in order: a failed one too (status 1), the run after a result's background lines, every fixture's", async () => {
  const failed = `{"duration_api_ms":0,"session_id":"${S}","total_cost_usd":0,"usage":{"input_tokens":0},"is_error":true,"num_turns":1,"subtype":"success","api_error_status":null,"result":"Not logged in \\u00b7 Please run /login","terminal_reason":"api_error","type":"result","duration_ms":1.50,"uuid":"u"}`;
  const log = Buffer.from([INIT, RESULT, JSON.stringify(C.taskNotification(S, "b1", "toolu_1", "completed", "x")), INIT, failed].join("\n") + "\n");
  const r = await run(["json", "c.ndjson"], { "c.ndjson": log });
  assert.equal(r.stdout.toString(), `${RESULT}\n${failed}\n`);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `cursorlog: error (at c.ndjson:5): session ${S} ended with an error (is_error: true, subtype success): Not logged in · Please run /login\n`);
  for (const f of claudeFixtures()) {
    const results = f.lines.filter((l) => (JSON.parse(l) as { type?: unknown }).type === "result");
    const j = await run(["json", f.path], { [f.path]: f.bytes });
    assert.equal(j.stdout.toString(), results.map((l) => l + "\n").join(""), f.name);
  }
});

// ---------------------------------------------------------------------------------------------
// filter: the bytes of the lines.

const bad = (s: string) => Buffer.from(s, "latin1");
/** A Claude Code log whose lines hold bytes that are not UTF-8: in a Bash command, a tool_result, a tool_use_result, a summary, a text delta, the result. */
function invalidUtf8Log(): { log: Buffer; lines: Buffer[] } {
  const x = "\xff\xc3\x28\xe2\x82\x80\xfe\xed\xa0\x80"; // a bad lead, a bad continuation, a cut sequence, an invalid byte, a surrogate's encoding
  const q = (v: unknown) => JSON.stringify(v);
  const lines = [
    bad(INIT),
    bad(q(C.textDelta(S, "t")).replace('"text":"t"', `"text":"t${x}"`)),
    bad(q(C.assistant(S, "msg_1", [C.toolUse("toolu_1", "Bash", { command: "echo" })], { at: T0 })).replace('"command":"echo"', `"command":"echo ${x}"`)),
    bad(q(C.user(S, [C.toolResult("toolu_1", "out", true)], { at: T0 + 1, toolUseResult: "Error: out" })).replace('"content":"out"', `"content":"Exit code 1\\nout${x}"`).replace('"Error: out"', `"Error: ${x}"`)),
    bad(q(C.assistant(S, "msg_2", [C.text("done")], { at: T0 + 2 })).replace('"text":"done"', `"text":"done${x}"`)),
    bad(RESULT.replace('"result":"', `"result":"${x}`)),
    bad(q(C.taskNotification(S, "b1", "toolu_1", "completed", "sum")).replace('"summary":"sum"', `"summary":"sum${x}"`)),
  ].map((b) => Buffer.concat([b, Buffer.from("\n")]));
  return { log: Buffer.concat(lines), lines };
}

test("filter writes Claude Code lines that are not valid UTF-8 as their bytes on every path, at any chunking, gzip too", async () => {
  const { log, lines } = invalidUtf8Log();
  const keep = (...n: number[]) => Buffer.concat(n.map((i) => lines[i]!));
  const cases: Array<[string[], Buffer]> = [
    [[], log],
    [["--lenient"], log],
    [["--agent", "claude"], log],
    [["--type", "assistant"], keep(2, 4)],
    [["--type", "user", "--type", "result"], keep(3, 5)],
    [["--type", "stream_event"], keep(1)],
    [["--exclude-type", "system"], keep(1, 2, 3, 4, 5)],
    [["--subtype", "success"], keep(5)],
    [["--where", "type ~ ."], log],
    [["--where", "type == assistant"], keep(2, 4)],
    [["--session", S], log],
    [["--pair"], log],
    // --pair keeps the user line that completes the kept tool_use.
    [["--pair", "--type", "assistant"], keep(2, 3, 4)],
    [["-v", "--type", "assistant"], keep(0, 1, 3, 5, 6)],
  ];
  for (const [n, [args, want]] of cases.entries()) {
    // Whole, and in 1- and 3-byte pieces in make stress; in make test whole and one of the two in turn.
    for (const step of STRESS ? [0, 1, 3] : [0, n % 2 === 0 ? 1 : 3]) {
      const r = await run(["filter", ...args, "u.ndjson"], { "u.ndjson": log }, step);
      assert.ok(r.stdout.equals(want), `filter ${args.join(" ")} (chunks of ${step}): lines ${JSON.stringify(r.stdout.toString("latin1").split("\n").map((l) => lines.findIndex((x) => x.toString("latin1") === l + "\n")))}`);
      assert.equal(r.code, 0, r.stderr);
    }
  }
  const gz = await run(["filter", "u.ndjson.gz"], { "u.ndjson.gz": gzipSync(log) });
  assert.ok(gz.stdout.equals(log));
  // The other commands read the bad bytes as U+FFFD: the output of the log with U+FFFD written in.
  const fffd = Buffer.from(log.toString("utf8"));
  for (const argv of [["json"], ["text", "-v"], ["timeline"], ["stats", "--format", "json"]]) {
    const a = await run([...argv, "u.ndjson"], { "u.ndjson": log });
    const b = await run([...argv, "u.ndjson"], { "u.ndjson": fffd });
    assert.deepEqual({ stdout: a.stdout.toString(), code: a.code }, { stdout: b.stdout.toString(), code: b.code }, argv.join(" "));
  }
});

test("filter --tool shell and --status failure keep a Claude Code call's lines (the assistant line of its Bash tool_use, the user line of its result) byte for byte", async () => {
  const { log, lines } = invalidUtf8Log();
  const keep = (...n: number[]) => Buffer.concat(n.map((i) => lines[i]!));
  for (const [args, want] of [
    [["--tool", "shell"], keep(2, 3)],
    [["--status", "failure"], keep(3)],
    [["--tool", "shell", "--pair"], keep(2, 3)],
  ] as Array<[string[], Buffer]>) {
    for (const step of [0, 3]) {
      const r = await run(["filter", ...args, "u.ndjson"], { "u.ndjson": log }, step);
      assert.ok(r.stdout.equals(want), `filter ${args.join(" ")} (chunks of ${step}): ${JSON.stringify(r.stdout.toString("latin1"))}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Properties over generated Claude Code logs.

test("property: filter with no predicate gives back a generated Claude Code log's lines exactly (both eras, CRLF, BOM, blank lines, pretty values compacted)", async () => {
  await fc.assert(
    fc.asyncProperty(genClaudeLog(), async (log) => {
      const r = await run(["filter", "g.ndjson"], { "g.ndjson": log.bytes });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.toString(), log.events.map((e) => JSON.stringify(e) + "\n").join(""));
    }),
    { seed: SEED, numRuns: fuzzRuns(5, 150), includeErrorInReport: true },
  );
});

test("property: json prints exactly a generated Claude Code log's result lines as written, in order, nothing else; status 1 for a failed run, 4 for one without a result", async () => {
  await fc.assert(
    fc.asyncProperty(genClaudeLog(), async (log) => {
      const results = log.events.filter((e) => e.type === "result");
      const r = await run(["json", "g.ndjson"], { "g.ndjson": log.bytes });
      assert.equal(r.stdout.toString(), results.map((e) => JSON.stringify(e) + "\n").join(""), r.stderr);
      const failed = results.some((e) => e.is_error === true);
      if (log.runs.every((s) => s.end !== "none")) assert.equal(r.code, failed ? 1 : 0, r.stderr);
      else assert.ok([0, 1, 4].includes(r.code), `exit ${r.code}\n${r.stderr}`);
      // Every failed run has its one message, with the result's text or errors.
      assert.equal(r.stderr.split("\n").filter((l) => / ended with an error /.test(l)).length, results.filter((e) => e.is_error === true).length, r.stderr);
    }),
    { seed: SEED, numRuns: fuzzRuns(5, 150), includeErrorInReport: true },
  );
});
