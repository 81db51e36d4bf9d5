import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { jsonObjectLine } from "../src/input/json-line.js";
import { keepWhole } from "../src/input/raw-skip.js";
import { runCli } from "./helpers/run-cli.js";

const check = (s: string | Buffer) => {
  const b = typeof s === "string" ? Buffer.from(s) : s;
  return jsonObjectLine(b, 0, b.length);
};

/** What JSON.parse says of the bytes, decoded as every command decodes a line. */
function parsesToObject(b: Buffer): boolean {
  try {
    const v: unknown = JSON.parse(b.toString("utf8"));
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

test("jsonObjectLine: the JSON grammar outside strings, spelled out", () => {
  const good = [
    '{"type":"thinking","subtype":"delta","text":"x"}',
    '{"type":"a","n":-0.5e+10,"m":0,"k":1E3,"z":[],"o":{},"l":[true,false,null,"s",{"a":[1,[2]]}]}',
    '{"type":"a", "b" : [ 1 , 2 ] , "c":"\\u00e9\\n\\t\\"\\\\\\/"}',
    '{"type":"a","s":"é ж 😀"}',
    '{}',
  ];
  for (const s of good) {
    assert.ok(parsesToObject(Buffer.from(s)), s);
    assert.equal(check(s), true, s);
  }
  const bad = [
    ['{"type":"thinking","subtype":"delta",,"text":"x"}', "two commas"],
    ['{"type":"a",}', "a trailing comma"],
    ['{"type":"a","l":[1,]}', "a trailing comma in an array"],
    ['{"type":"a","l":[,1]}', "a leading comma"],
    ['{"type":"a" "b":1}', "no comma between members"],
    ['{"type":"a","l":[1 2]}', "no comma between elements"],
    ['{"type":"a","b"}', "a key without a value"],
    ['{"type":"a","b":}', "a colon without a value"],
    ['{"type":"a","b"::1}', "two colons"],
    ['{"type":"a",1:2}', "a number as a key"],
    ['{"type":"a","l":[1:2]}', "a colon in an array"],
    ['{"type":"a","n":01}', "a leading zero"],
    ['{"type":"a","n":1.}', "a point without digits"],
    ['{"type":"a","n":.5}', "no digit before the point"],
    ['{"type":"a","n":-}', "a lone minus"],
    ['{"type":"a","n":1e}', "an exponent without digits"],
    ['{"type":"a","n":+1}', "a plus sign"],
    ['{"type":"a","n":1-2}', "a minus inside"],
    ['{"type":"a","t":tru}', "a cut literal"],
    ['{"type":"a","t":truex}', "a literal run on"],
    ['{"type":"a","t":nul}', "a cut null"],
    ['{"type":"a","t":True}', "a capital literal"],
    ['{"type":"a","s":"\\x41"}', "an escape JSON lacks"],
    ['{"type":"a","s":"\\u12"}', "a short \\u escape"],
    ['{"type":"a","s":"\\u12G4"}', "a \\u escape with a non-hex digit"],
    ['{"type":"a","s":"a\tb"}', "a raw tab in a string"],
    ['{"type":"a","s":"a\u0001b"}', "a raw control character"],
    ['{"type":"a","s":"ab}', "an unclosed string"],
    ['{"type":"a","l":[1}', "a bracket closed by a brace"],
    ['{"type":"a","o":{"b":1]}', "a brace closed by a bracket"],
    ['{"type":"a"}{"type":"b"}', "two objects run together"],
    ['{"type":"a"}}', "one brace too many"],
    ['{"type":"a"', "not closed"],
    ['[{"type":"a"}]', "an array"],
  ] as const;
  for (const [s, why] of bad) {
    assert.equal(parsesToObject(Buffer.from(s)), false, `${why}: ${s} (the case itself)`);
    assert.equal(check(s), false, `${why}: ${s}`);
  }
  assert.equal(check(Buffer.from([...Buffer.from('{"type":"a","s":"'), 0xc3, 0x28, ...Buffer.from('"}')])), false, "invalid UTF-8");
  // Valid, but left to the parse path:
  assert.equal(check('{"type":"a","type":"b"}'), false, "a second top-level type (JSON.parse keeps the last)");
  assert.equal(check('{"type":"a","d":' + "[".repeat(100) + "]".repeat(100) + "}"), false, "nested deeper than 64");
  assert.equal(check('{"type":"a","d":' + "[".repeat(60) + "]".repeat(60) + "}"), true, "nested 61 deep");
});

test("jsonObjectLine: damage in a string's first 64 bytes is caught; past them the string is jumped over (README LIMITATIONS)", () => {
  const long = "x".repeat(200);
  for (const at of [0, 30, 63]) {
    const damaged = long.slice(0, at) + "\u0001" + long.slice(at + 1);
    assert.equal(check(`{"type":"a","s":"${damaged}"}`), false, `a control character at ${at}`);
    const escape = long.slice(0, at) + "\\q" + long.slice(at + 2);
    assert.equal(check(`{"type":"a","s":"${escape}"}`), false, `a bad escape at ${at}`);
  }
  assert.equal(check(`{"type":"a","s":"${long.slice(0, 100)}\u0001${long.slice(101)}"}`), true, "a control character at 100: not seen");
  assert.equal(check(`{"type":"a","s":"${long.slice(0, 100)}\\q${long.slice(102)}"}`), true, "a bad escape at 100: not seen");
  assert.equal(check(`{"type":"a","s":"${long}\\\\","t":1}`), true, "an escaped backslash before the closing quote");
  assert.equal(check(`{"type":"a","s":"${long}\\","t":1}`), false, "an escaped closing quote: the string runs on");
});

/** Compact JSON objects with `type` first, every string at most 20 characters (within the checked 64 bytes). */
const objectLine = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.dictionary(
      fc.string({ maxLength: 8 }).map((k) => "k" + k), // never "type", never an index (JSON.stringify writes those first)
      fc.jsonValue({ maxDepth: 4 }).map((v) => shortStrings(v)),
      { maxKeys: 6 },
    ),
  )
  .map(([type, rest]) => JSON.stringify({ type, ...rest }));

function shortStrings(v: unknown): unknown {
  if (typeof v === "string") return v.slice(0, 20);
  if (Array.isArray(v)) return v.map(shortStrings);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.slice(0, 20), shortStrings(x)]));
  return v;
}

/** Bytes that matter to the grammar, and some that do not. */
const NOISE = [..."{}[],:\"\\ -+.0123456789eEtrufalsnx/u"].map((c) => c.charCodeAt(0)).concat([0x00, 0x09, 0x0d, 0x1f, 0xc3, 0xa9, 0xff]);

test("property: every line generated from JSON.stringify is accepted; a line with a byte inserted, removed or changed is accepted only if JSON.parse reads it as an object", () => {
  fc.assert(
    fc.property(objectLine, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...NOISE), fc.constantFrom("insert", "remove", "replace")), { minLength: 1, maxLength: 3 }), (line, edits) => {
      assert.equal(check(line), true, line);
      let b = Buffer.from(line);
      for (const [pos, byte, op] of edits) {
        const at = pos % (b.length + (op === "insert" ? 1 : 0));
        if (op === "insert") b = Buffer.concat([b.subarray(0, at), Buffer.from([byte]), b.subarray(at)]);
        else if (op === "remove") b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
        else b = Buffer.concat([b.subarray(0, at), Buffer.from([byte]), b.subarray(at + 1)]);
      }
      if (check(b)) assert.ok(parsesToObject(b), `accepted, but JSON.parse refuses: ${JSON.stringify(b.toString("latin1"))}`);
    }),
    { seed: 42, numRuns: Number(process.env.FUZZ_RUNS ?? 3000) },
  );
});

test("keepWhole writes no line JSON.parse refuses: filter --type on the damaged thinking line of bad-json.ndjson", async () => {
  const keep = keepWhole(undefined, () => true);
  const line = Buffer.from('{"type":"thinking","subtype":"delta",,"text":"x"}\n');
  assert.equal(keep.keep!(line, 0, line.length - 1), undefined);
  const r = await runCli(["filter", "--type", "thinking", "test/fixtures/validate/bad-json.ndjson"]);
  assert.equal(r.code, 5);
  assert.equal(r.stdout, "");
  // Line 3 is the agent CLI's own text (a warning); line 4 is the damaged thinking line.
  assert.equal(
    r.stderr,
    "cursorlog: warning (at test/fixtures/validate/bad-json.ndjson:3): the agent CLI said: RetriableError: [invalid_argument] unknown option '--system-prompt'\n" +
      "cursorlog: error (at test/fixtures/validate/bad-json.ndjson:4): invalid JSON: Expected double-quoted property name at column 38\n",
  );
  const lenient = await runCli(["filter", "--lenient", "--type", "thinking", "test/fixtures/validate/bad-json.ndjson"]);
  assert.equal(lenient.code, 5);
  assert.match(lenient.stderr, /\(at test\/fixtures\/validate\/bad-json\.ndjson:4\): invalid JSON: Expected double-quoted property name at column 38/);
  assert.doesNotMatch(lenient.stdout, /,,/);
  assert.equal(lenient.stdout.split("\n").filter(Boolean).length, 4);
});
