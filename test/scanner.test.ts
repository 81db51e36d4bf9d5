// test-run: scaled
// The WebAssembly line scanner (src/input/scan/): its verdict on every line agrees with JSON.parse
// in both directions, wherever the damage is; it finds each line and the top-level type; and the
// committed module is what its source compiles to.
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import fc from "fast-check";
import { LineFlag, LineScanner, LineStatus, RECORD_FIELDS } from "../src/input/scan/index.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";
import { binaryString } from "./helpers/binary-unit.js";

const RUNS = fuzzRuns(1000, 3000);
const scanner = new LineScanner(256, 64);

interface Rec {
  start: number;
  end: number;
  status: number;
  flags: number;
  errPos: number;
  type?: string;
  subtype?: string;
}

function scanAll(input: Buffer, s = scanner): Rec[] {
  const out: Rec[] = [];
  let at = 0;
  while (at < input.length) {
    const n = s.scan(input, at, input.length, true);
    for (let i = 0; i < n; i++) {
      const r = s.records.subarray(i * RECORD_FIELDS, (i + 1) * RECORD_FIELDS);
      const rec: Rec = { start: at + r[0]!, end: at + r[1]!, status: r[2]! & 0xff, flags: r[2]! & ~0xff, errPos: r[3]! < 0 ? -1 : at + r[3]! };
      if (r[4]! >= 0) rec.type = input.toString("latin1", at + r[4]!, at + r[5]!);
      if (r[6]! >= 0) rec.subtype = input.toString("latin1", at + r[6]!, at + r[7]!);
      out.push(rec);
    }
    at += s.consumed;
  }
  return out;
}

const one = (line: string | Buffer): Rec => {
  const b = Buffer.concat([typeof line === "string" ? Buffer.from(line) : line, Buffer.from("\n")]);
  const r = scanAll(b);
  assert.equal(r.length, 1, `one line: ${JSON.stringify(b.toString("latin1"))}`);
  return r[0]!;
};

/** The oracle: what JSON.parse says of a line's bytes, decoded as every command decodes a line (a BOM at its start dropped). */
function oracle(b: Buffer): number {
  let text = b.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") return LineStatus.BLANK;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return LineStatus.BAD;
  }
  const start = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  if (!isUtf8(b.subarray(start))) return LineStatus.BAD_UTF8;
  return typeof v === "object" && v !== null && !Array.isArray(v) ? LineStatus.OBJECT : LineStatus.NOT_OBJECT;
}

test("scanner: the JSON grammar, strings included, spelled out", () => {
  const cases: Array<[string | Buffer, number, string]> = [
    ['{"type":"thinking","subtype":"delta","text":"x"}', LineStatus.OBJECT, "an event"],
    ['{"type":"a","n":-0.5e+10,"m":0,"k":1E3,"z":[],"o":{},"l":[true,false,null,"s",{"a":[1,[2]]}]}', LineStatus.OBJECT, "every kind of value"],
    ['  {"type":"a", "b" : [ 1 , 2 ] , "c":"\\u00e9\\n\\t\\"\\\\\\/"}\t ', LineStatus.OBJECT, "spaces and escapes"],
    ['{"type":"a","s":"é ж 😀"}', LineStatus.OBJECT, "UTF-8 of two, three and four bytes"],
    ["{}", LineStatus.OBJECT, "an empty object"],
    ["", LineStatus.BLANK, "empty"],
    [" \t \r", LineStatus.BLANK, "only whitespace"],
    ["[1,2]", LineStatus.NOT_OBJECT, "an array"],
    ['"text"', LineStatus.NOT_OBJECT, "a string"],
    ["12", LineStatus.NOT_OBJECT, "a number"],
    ["null", LineStatus.NOT_OBJECT, "null"],
    ["RetriableError: [invalid_argument] unknown option '--system-prompt'", LineStatus.BAD, "the agent CLI's own text"],
    ['{"type":"thinking","subtype":"delta",,"text":"x"}', LineStatus.BAD, "two commas"],
    ['{"type":"a",}', LineStatus.BAD, "a trailing comma"],
    ['{"type":"a","l":[1,]}', LineStatus.BAD, "a trailing comma in an array"],
    ['{"type":"a" "b":1}', LineStatus.BAD, "no comma"],
    ['{"type":"a","b"}', LineStatus.BAD, "a key without a value"],
    ['{"type":"a",1:2}', LineStatus.BAD, "a number as a key"],
    ['{"type":"a","n":01}', LineStatus.BAD, "a leading zero"],
    ['{"type":"a","n":1.}', LineStatus.BAD, "a point without digits"],
    ['{"type":"a","n":-}', LineStatus.BAD, "a lone minus"],
    ['{"type":"a","n":1e}', LineStatus.BAD, "an exponent without digits"],
    ['{"type":"a","n":+1}', LineStatus.BAD, "a plus sign"],
    ['{"type":"a","t":tru}', LineStatus.BAD, "a cut literal"],
    ['{"type":"a","t":fals}', LineStatus.BAD, "a cut false"],
    ['{"type":"a","t":falsy}', LineStatus.BAD, "false run on"],
    ['{"type":"a","t":True}', LineStatus.BAD, "a capital literal"],
    ['{"type":"a","s":"\\x41"}', LineStatus.BAD, "an escape JSON lacks"],
    ['{"type":"a","s":"\\u12G4"}', LineStatus.BAD, "a \\u escape with a non-hex digit"],
    ['{"type":"a","s":"a\tb"}', LineStatus.BAD, "a raw tab in a string"],
    ['{"type":"a","s":"ab}', LineStatus.BAD, "an unclosed string"],
    ['{"type":"a","l":[1}', LineStatus.BAD, "a bracket closed by a brace"],
    ['{"type":"a"}{"type":"b"}', LineStatus.BAD, "two objects run together"],
    ['{"type":"a"', LineStatus.BAD, "cut short"],
    [Buffer.from([...Buffer.from('{"type":"a","s":"'), 0xc3, 0x28, ...Buffer.from('"}')]), LineStatus.BAD_UTF8, "a lead byte without its continuation"],
    [Buffer.from([...Buffer.from('{"s":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]), LineStatus.BAD_UTF8, "a surrogate encoded in UTF-8"],
    [Buffer.from([...Buffer.from('{"s":"'), 0xc0, 0xaf, ...Buffer.from('"}')]), LineStatus.BAD_UTF8, "an overlong encoding"],
    [Buffer.from([...Buffer.from('{"s":"'), 0xf4, 0x90, 0x80, 0x80, ...Buffer.from('"}')]), LineStatus.BAD_UTF8, "past U+10FFFF"],
    [Buffer.from([...Buffer.from('{"s":'), 0xc3, 0xa9, ...Buffer.from("}")]), LineStatus.BAD, "UTF-8 outside a string"],
    ["{\"d\":" + "[".repeat(70000) + "]".repeat(70000) + "}", LineStatus.TOO_DEEP, "nested past 65,536 levels"],
    ["{\"d\":" + "[".repeat(60000) + "]".repeat(60000) + "}", LineStatus.OBJECT, "nested 60,001 levels"],
  ];
  for (const [line, status, why] of cases) {
    const b = typeof line === "string" ? Buffer.from(line) : line;
    if (status !== LineStatus.TOO_DEEP) assert.equal(oracle(b), status, `${why} (the case itself)`);
    assert.equal(one(b).status, status, why);
  }
});

test("scanner: damage is found wherever it is in a long string, and errPos points at it", () => {
  const long = "x".repeat(300);
  for (const at of [0, 15, 16, 17, 63, 64, 100, 250, 299]) {
    for (const [bad, status] of [["\u0001", LineStatus.BAD], ["\\q", LineStatus.BAD], ["\t", LineStatus.BAD], ["\"", LineStatus.BAD]] as const) {
      const line = `{"type":"a","s":"${long.slice(0, at)}${bad}${long.slice(at + bad.length)}"}`;
      const r = one(line);
      assert.equal(r.status, status, `${JSON.stringify(bad)} at ${at}`);
      assert.equal(oracle(Buffer.from(line)), status);
      if (bad !== '"') assert.equal(r.errPos, 17 + at, `errPos of ${JSON.stringify(bad)} at ${at}`);
    }
    const b = Buffer.from(`{"type":"a","s":"${long}"}`);
    b[17 + at] = 0xff;
    const r = one(b);
    assert.equal(r.status, LineStatus.BAD_UTF8, `0xff at ${at}`);
    assert.equal(r.errPos, 17 + at);
  }
});

test("scanner: lines, CR LF, a BOM at the start of any line, a last line without LF", () => {
  const input = Buffer.concat([
    Buffer.from('{"type":"system","subtype":"init"}\r\n\n'),
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('{"type":"user"}\n[1]\n{"type":"result"}'),
  ]);
  const recs = scanAll(input);
  assert.deepEqual(
    recs.map((r) => [input.toString("latin1", r.start, r.end), r.status, r.flags, r.type, r.subtype]),
    [
      ['{"type":"system","subtype":"init"}', LineStatus.OBJECT, 0, "system", "init"],
      ["", LineStatus.BLANK, 0, undefined, undefined],
      ['{"type":"user"}', LineStatus.OBJECT, LineFlag.BOM, "user", undefined],
      ["[1]", LineStatus.NOT_OBJECT, 0, undefined, undefined],
      ['{"type":"result"}', LineStatus.OBJECT, 0, "result", undefined],
    ],
  );
  // Not final: the last line waits for its LF.
  assert.equal(scanner.scan(input, 0, input.length, false), 4);
  assert.equal(scanner.consumed, input.lastIndexOf(10) + 1);
});

test("scanner: the top-level type and subtype; jq's rule for a repeated key (the last wins); escapes and nested keys", () => {
  const t = (line: string) => {
    const r = one(line);
    return [r.type, r.subtype, r.flags];
  };
  assert.deepEqual(t('{"type":"thinking","subtype":"delta"}'), ["thinking", "delta", 0]);
  assert.deepEqual(t('{"subtype":"delta","x":{"type":"inner"},"type":"thinking"}'), ["thinking", "delta", 0]);
  assert.deepEqual(t('{"x":{"type":"inner"}}'), [undefined, undefined, 0]);
  assert.deepEqual(t('{"type":"thinking","a":1,"type":"result"}'), ["result", undefined, LineFlag.TYPE_REPEATED]);
  assert.deepEqual(t('{"type":"thinking","type":7}'), [undefined, undefined, LineFlag.TYPE_REPEATED | LineFlag.TYPE_NOT_STRING]);
  assert.deepEqual(t('{"type":7,"type":"result"}'), ["result", undefined, LineFlag.TYPE_REPEATED]);
  assert.deepEqual(t('{"type":"res\\u0075lt"}'), ["res\\u0075lt", undefined, LineFlag.TYPE_ESCAPED]);
  assert.deepEqual(t('{"typ\\u0065":"result"}'), [undefined, undefined, LineFlag.KEY_ESCAPED]);
  assert.deepEqual(t('{"types":"a","subtypes":"b","typ":"c"}'), [undefined, undefined, 0]);
  assert.deepEqual(t('{"type":null,"subtype":["x"]}'), [undefined, undefined, LineFlag.TYPE_NOT_STRING | LineFlag.SUBTYPE_NOT_STRING]);
  // A completion's call_id is read from its bytes: a second top-level one (which wins) is flagged.
  assert.deepEqual(t('{"type":"tool_call","call_id":"a","x":{"call_id":"n"},"call_idx":1}'), ["tool_call", undefined, 0]);
  assert.deepEqual(t('{"type":"tool_call","call_id":"a","x":1,"call_id":"b"}'), ["tool_call", undefined, LineFlag.CALL_ID_REPEATED]);
  assert.deepEqual(t('{"call_id":1,"call_id":"b"}'), [undefined, undefined, LineFlag.CALL_ID_REPEATED]);
  assert.deepEqual(t('{"call_id":"a","text":"\\"call_id\\""}'), [undefined, undefined, 0]);
});

test("scanner: more lines than records, and a chunk larger than its memory, both come out whole", () => {
  const small = new LineScanner(16, 3);
  const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ type: "t" + i, pad: "y".repeat(i * 10) }));
  const recs = scanAll(Buffer.from(lines.join("\n") + "\n"), small);
  assert.deepEqual(recs.map((r) => r.type), lines.map((_, i) => "t" + i));
  assert.ok(recs.every((r) => r.status === LineStatus.OBJECT));
});

/** Compact JSON objects, some with a type, and the values a log holds. */
const objectLine = fc
  .tuple(
    fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    fc.dictionary(fc.string({ maxLength: 8 }).map((k) => "k" + k), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
    binaryString({ maxLength: 120 }),
  )
  .map(([type, rest, text]) => JSON.stringify(type === undefined ? { ...rest, text } : { type, ...rest, text }));

/** Bytes that matter to the grammar, and some that do not; never LF (it ends a line). */
const NOISE = [..."{}[],:\"\\ -+.0123456789eEtrufalsnx/u"].map((c) => c.charCodeAt(0)).concat([0x00, 0x09, 0x0d, 0x1f, 0x7f, 0xc3, 0xa9, 0xed, 0xf0, 0x9f, 0xff]);

test("property: the scanner's verdict on a line is JSON.parse's, for generated lines and lines with bytes inserted, removed or changed anywhere", () => {
  fc.assert(
    fc.property(objectLine, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...NOISE), fc.constantFrom("insert", "remove", "replace")), { maxLength: 3 }), (line, edits) => {
      let b = Buffer.from(line);
      for (const [pos, byte, op] of edits) {
        const at = pos % (b.length + (op === "insert" ? 1 : 0));
        if (op === "insert") b = Buffer.concat([b.subarray(0, at), Buffer.from([byte]), b.subarray(at)]);
        else if (op === "remove") b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
        else b = Buffer.concat([b.subarray(0, at), Buffer.from([byte]), b.subarray(at + 1)]);
      }
      const r = one(b);
      const want = oracle(b);
      assert.equal(r.status, want, JSON.stringify(b.toString("latin1")));
      if (r.status === LineStatus.OBJECT) {
        const v = JSON.parse(b.toString("utf8")) as Record<string, unknown>;
        if (typeof v.type === "string" && (r.flags & (LineFlag.TYPE_ESCAPED | LineFlag.KEY_ESCAPED)) === 0) assert.equal(Buffer.from(r.type ?? "", "latin1").toString("utf8"), v.type);
        if (!("type" in v) && (r.flags & LineFlag.KEY_ESCAPED) === 0) assert.equal(r.type, undefined);
      }
    }),
    { seed: FUZZ_SEED, numRuns: RUNS },
  );
});

// The compiler runs in a child process: `build-scanner.mjs --check` compiles the source as the
// build does and compares the result with the committed file, byte for byte (loading AssemblyScript
// into this process through tsx took half a minute and 1.5 GB; the script alone, a few seconds).
test("the committed scanner module is what scripts/build-scanner.mjs compiles from its source (a reproducible build)", { timeout: 180_000 }, async () => {
  const check = await promisify(execFile)(process.execPath, ["scripts/build-scanner.mjs", "--check"], { encoding: "utf8", timeout: 170_000 }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (e: { code?: number | string; signal?: string; stderr?: string }) => ({ code: e.code ?? e.signal ?? "?", stderr: e.stderr ?? String(e) }),
  );
  assert.deepEqual(check, { code: 0, stderr: "" }, "node scripts/build-scanner.mjs --check: status 1 is a stale src/input/scan/generated/scanner-wasm.ts (run node scripts/build-scanner.mjs); stderr says what else failed");
});

test("scanner: a run of sound lines of a merged type is one record (its line count and last line's end); other lines break it or stay alone", () => {
  const s = new LineScanner(4096, 64);
  const think = (n: number) => `{"type":"thinking","subtype":"delta","text":"t${n}"}`;
  const lines = [
    think(1),
    think(2),
    `\ufeff${think(3)}`, // a BOM: alone
    think(4),
    think(5) + "\r", // CR LF: still sound, still merged
    `{"type":"tool_call","subtype":"started"}`, // another type: breaks the run
    think(6),
    `{"typ\\u0065":"thinking"}`, // a key written with an escape: alone
    think(7),
    `{"type":"thinking","text":"${"x".repeat(100)}"}`, // longer than maxLine: alone
    think(8),
    `{"type":"thinking","text":"bad \u0001"}`, // damaged: alone, BAD
    think(9),
    `{"type":"thinking","text":"t10"}`,
    "",
    think(11), // a blank line between: a run of its own
  ];
  const input = Buffer.from(lines.join("\n") + "\n");
  s.useMerge("test", [Buffer.from("thinking")], 80);
  const n = s.scan(input, 0, input.length, true);
  const got: Array<[number, number, number]> = [];
  for (let i = 0; i < n; i++) {
    const r = s.records.subarray(i * RECORD_FIELDS, (i + 1) * RECORD_FIELDS);
    got.push([input.subarray(0, r[0]!).toString().split("\n").length, r[8]!, r[9]!]);
  }
  // [first line (1-based), lines in the record, end of its last line]
  const endOf = (line: number) => {
    let at = -1;
    for (let k = 0; k < line; k++) at = input.indexOf(10, at + 1);
    return input[at - 1] === 13 ? at - 1 : at;
  };
  assert.deepEqual(got, [
    [1, 2, endOf(2)],
    [3, 1, endOf(3)],
    [4, 2, endOf(5)],
    [6, 1, endOf(6)],
    [7, 1, endOf(7)],
    [8, 1, endOf(8)],
    [9, 1, endOf(9)],
    [10, 1, endOf(10)],
    [11, 1, endOf(11)],
    [12, 1, endOf(12)],
    [13, 2, endOf(14)],
    [15, 1, endOf(15)],
    [16, 1, endOf(16)],
  ]);
  // No merged type: a record per line.
  s.useMerge("none", [], 80);
  assert.equal(s.scan(input, 0, input.length, true), lines.length);
});

test("scanner: a line's keys are counted at every depth, repeats included; asked for the lines only, every line is UNCHECKED", () => {
  const s = new LineScanner(4096, 64);
  const cases: Array<[string, number]> = [
    ['{"type":"a","x":{"y":1,"z":[{"k":"\\":"},{"k":2}]}}', 6],
    ['{"a":1,"a":2}', 2], // JSON.parse keeps 1
    ['{"t\\u0079pe":"x", "b" : {"c" :[]}}', 3],
    ['{"s":"{\\"not\\":\\"a key\\"}"}', 1],
    ["{}", 0],
  ];
  const input = Buffer.from(cases.map(([l]) => l).join("\n") + "\n");
  const n = s.scan(input, 0, input.length, true);
  assert.equal(n, cases.length);
  for (let i = 0; i < n; i++) {
    const r = s.records.subarray(i * RECORD_FIELDS, (i + 1) * RECORD_FIELDS);
    assert.deepEqual([r[2]! & 0xff, r[10]], [LineStatus.OBJECT, cases[i]![1]], cases[i]![0]);
  }
  const lines = Buffer.from('{"type":"a"}\n{"type":\n\n[1]\n');
  const m = s.scan(lines, 0, lines.length, true, false);
  const got = [];
  for (let i = 0; i < m; i++) got.push([...s.records.subarray(i * RECORD_FIELDS, i * RECORD_FIELDS + 6)]);
  assert.deepEqual(got, [
    [0, 12, LineStatus.UNCHECKED, -1, -1, -1],
    [13, 21, LineStatus.UNCHECKED, -1, -1, -1],
    [22, 22, LineStatus.UNCHECKED, -1, -1, -1],
    [23, 26, LineStatus.UNCHECKED, -1, -1, -1],
  ]);
});
