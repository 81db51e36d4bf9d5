// test-run: scaled
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { test } from "node:test";
import fc from "fast-check";
import pc from "picocolors";
import { FIELDS_READ } from "../src/dialects/cursor/action.js";
import { shortenStrings, type Shortening } from "../src/input/shorten-strings.js";
import { shortenToolCalls } from "../src/input/raw-skip.js";
import { soundLine } from "../src/input/line-splitter.js";
import { ndjsonTransform } from "../src/stream/ndjson-transform.js";
import type { Stage } from "../src/stream/stage.js";
import type { Reporter } from "../src/diagnostics.js";
import { toActionsText } from "../src/outputs/text/index.js";
import { toResultJson } from "../src/outputs/json/index.js";
import { toTimelineCsv } from "../src/outputs/timeline/index.js";
import { TIMELINE_COLUMNS } from "../src/outputs/timeline/columns.js";
import { FUZZ_SEED, fuzzRuns, scaled } from "./helpers/scale.js";

// Runs and sizes (test/helpers/scale.ts): a tenth of the runs and a 1 MiB generated log in make
// test, the full count and 3 MiB in make stress (CURSORLOG_STRESS=1); FUZZ_RUNS overrides the
// runs, FUZZ_SEED the seed (42).

const CUT: Shortening = { keep: FIELDS_READ, longer: 256, to: 64 };
const shorten = (line: string) => shortenStrings(Buffer.from(line), 0, Buffer.byteLength(line), CUT);

/** Compares a parsed shortened line with the original: equal, except long strings four objects down, which are a prefix of theirs. */
function assertShortenedFrom(got: unknown, want: unknown, key: string, depth: number, where: string): void {
  if (typeof want === "string") {
    assert.equal(typeof got, "string", where);
    const long = Buffer.byteLength(JSON.stringify(want)) - 2 > CUT.longer;
    if (depth >= 4 && long && !FIELDS_READ.has(key)) {
      assert.ok(want.startsWith(got as string), `${where}: not a prefix`);
      assert.ok(Buffer.byteLength(JSON.stringify(got)) - 2 >= CUT.to - 11, `${where}: cut too short`);
    } else assert.equal(got, want, where);
    return;
  }
  if (typeof want !== "object" || want === null) return assert.equal(got, want, where);
  assert.equal(Array.isArray(got), Array.isArray(want), where);
  assert.deepEqual(Object.keys(got as object), Object.keys(want), where);
  for (const k of Object.keys(want)) {
    assertShortenedFrom((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], Array.isArray(want) ? key : k, depth + 1, `${where}.${k}`);
  }
}

const big = (seed: string) => Array.from({ length: 40 }, (_, i) => `${seed} ${i}: café "q" \\ \t — 日本 😀 \u001b \ud83d`).join("\n");
const completion = (body: unknown) => JSON.stringify({ type: "tool_call", subtype: "completed", call_id: "c\n1", tool_call: { shellToolCall: body, toolCallId: "c\n1", description: big("sibling") }, session_id: "s", timestamp_ms: 1 });

test("shortenStrings: long strings of a call's arguments and result are cut to a prefix; what text and timeline read stays whole", () => {
  const line = completion({ args: { command: big("cmd"), streamContent: big("content") }, result: { failure: { exitCode: 2, stdout: big("out"), reason: big("why"), nested: [{ deep: big("deep") }, big("in an array")] } } });
  const text = shorten(line);
  assert.ok(text !== undefined && text.length < line.length * 0.7, "three of the seven long strings shortened");
  const got = JSON.parse(text) as Record<string, unknown>;
  assertShortenedFrom(got, JSON.parse(line), "", 0, "line");
  const shell = (got.tool_call as Record<string, Record<string, Record<string, Record<string, unknown>>>>).shellToolCall!;
  assert.equal(shell.args!.command, big("cmd"));
  assert.notEqual(shell.args!.streamContent, big("content"));
  assert.equal(shell.result!.failure!.reason, big("why"));
  assert.equal((shell.result!.failure!.nested as unknown[])[1], big("in an array"), "array elements are never cut");
});

test("shortenStrings: nothing to cut gives undefined; only a sound tool_call line is shortened (the rest is read whole)", () => {
  const small = completion({ args: { command: "ls" }, result: { success: { stdout: "a" } } });
  assert.equal(shorten(small), undefined);
  const line = completion({ args: { path: "a" }, result: { success: { content: big("file") } } });
  assert.ok(shorten(line) !== undefined);
  // What the input layer asks: the line scanner's verdict first (raw-skip.ts), then the type it read.
  const skip = shortenToolCalls(undefined, FIELDS_READ);
  const viaSplitter = (l: string) => {
    const b = Buffer.from(l);
    const sound = soundLine(b, 0, b.length);
    return sound === undefined ? undefined : skip.shorten!(sound);
  };
  assert.equal(viaSplitter(line), shorten(line));
  for (let cut = 1; cut < line.length; cut += 7) assert.equal(viaSplitter(line.slice(0, cut)), undefined, `cut at ${cut}`);
  assert.equal(viaSplitter(line + " x"), undefined, "bytes after the object");
  assert.equal(viaSplitter(line.replace('"subtype"', '"type":"result","subtype"')), undefined, "a second top-level type, which wins: not a tool call");
  const escaped = line.replace("file 3", "file\\u0001 3");
  assert.ok(viaSplitter(escaped) !== undefined && viaSplitter(escaped) === shorten(escaped), "an escaped control character is fine");
  assert.equal(viaSplitter(line.replace("file 3", "file\u0001 3")), undefined, "a raw control character deep inside a string that would be cut");
  assert.equal(viaSplitter(line.replace("file 3", "file\\x 3")), undefined, "a bad escape deep inside a string that would be cut");
});

test("shortenStrings: a cut never splits a UTF-8 character or an escape, wherever the limit falls", () => {
  const pieces = ["a", "é", "日", "😀", "\\n", "\\\\", '\\"', "\\u00e9", "\\ud83d\\ude00", "\\u001b"];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 200, maxLength: 400 }), fc.integer({ min: 1, max: 200 }), (parts, to) => {
      const raw = parts.join("");
      const line = `{"type":"tool_call","tool_call":{"readToolCall":{"result":{"success":{"content":"${raw}"}}}}}`;
      const text = shortenStrings(Buffer.from(line), 0, Buffer.byteLength(line), { keep: new Set(), longer: 100, to });
      if (Buffer.byteLength(raw) <= 100) return assert.equal(text, undefined);
      type Read = { tool_call: { readToolCall: { result: { success: { content: string } } } } };
      const want = (JSON.parse(line) as Read).tool_call.readToolCall.result.success.content;
      const got = (JSON.parse(text!) as Read).tool_call.readToolCall.result.success.content;
      assert.ok(want.startsWith(got), "a prefix");
      assert.ok(text!.length < line.length, "shorter");
      assert.ok(!got.includes("\ufffd"), "no character split");
    }),
    { seed: FUZZ_SEED, numRuns: fuzzRuns(30, 300) },
  );
});

test("shortenStrings over random tool calls: the text parses, and differs from the line only in long strings four objects down", () => {
  const str = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", minLength: 200, maxLength: 500 }), fc.constantFrom(big("x"), "--- /dev/null\n+++ b\n" + big("d")));
  const key = fc.constantFrom(...FIELDS_READ, "content", "stdout", "diffString", "message", "streamContent", "x", "");
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: "small" }, str, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(key, tie("v"), { maxKeys: 4 })),
  })).v;
  fc.assert(
    fc.property(fc.dictionary(key, value, { maxKeys: 4 }), fc.dictionary(key, value, { maxKeys: 4 }), (args, success) => {
      const line = completion({ args, result: { success } });
      const text = shorten(line);
      if (text === undefined) return;
      assertShortenedFrom(JSON.parse(text), JSON.parse(line), "", 0, "line");
    }),
    { seed: FUZZ_SEED, numRuns: fuzzRuns(30, 300) },
  );
});

/** A stage without its shortening: every line it reads is parsed whole. */
function whole(stage: Stage): Stage {
  if (stage.skip !== undefined) stage.skip = { ...stage.skip, shorten: undefined };
  return stage;
}

async function run(log: Buffer, make: (r: Reporter) => Stage): Promise<string> {
  let out = "";
  for await (const chunk of Readable.from([log]).pipe(ndjsonTransform(make, { lenient: true }))) out += chunk.toString();
  return out;
}

test("text, timeline and json print the same with and without shortening, on logs with large payloads", async () => {
  const logs = [readFileSync("test/fixtures/large-results.ndjson"), execFileSync("node", ["bench/gen.mjs", "--size", `${scaled(1, 3)}M`, "--seed", "5"], { maxBuffer: 1 << 26 })];
  const colors = pc.createColors(false);
  const stages: Array<(r: Reporter) => Stage> = [
    (r) => toActionsText({ verbose: true, final: false, allowIncomplete: true, colors }, r),
    (r) => toTimelineCsv({ format: "ndjson", columns: TIMELINE_COLUMNS, safe: false, escape: false, header: true, allowIncomplete: true }, r),
    (r) => toResultJson({ pretty: false, allowIncomplete: true }, r),
  ];
  for (const log of logs) {
    for (const make of stages) {
      const fast = await run(log, make);
      assert.ok(fast.length > 0);
      assert.equal(fast, await run(log, (r) => whole(make(r))));
    }
  }
});
