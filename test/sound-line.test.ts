// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { soundLine } from "../src/input/line-splitter.js";
import { keepWhole, typeOf } from "../src/input/raw-skip.js";
import { runCli } from "./helpers/run-cli.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";

// Which lines a command may leave unparsed (skip, keep as bytes, shorten): those the line scanner
// finds sound, a JSON object wholly checked against the grammar, strings included, with a string
// "type". Every other line is parsed, and reported if JSON.parse refuses it.
const check = (s: string | Buffer) => {
  const b = typeof s === "string" ? Buffer.from(s) : s;
  return soundLine(b, 0, b.length) !== undefined;
};
const typeOfLine = (s: string) => {
  const b = Buffer.from(s);
  const l = soundLine(b, 0, b.length);
  return l === undefined ? undefined : typeOf(l, new Map());
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

test("soundLine: the JSON grammar, spelled out", () => {
  const good = [
    '{"type":"thinking","subtype":"delta","text":"x"}',
    '{"type":"a","n":-0.5e+10,"m":0,"k":1E3,"z":[],"o":{},"l":[true,false,null,"s",{"a":[1,[2]]}]}',
    '{"type":"a", "b" : [ 1 , 2 ] , "c":"\\u00e9\\n\\t\\"\\\\\\/"}',
    '{"type":"a","s":"é ж 😀"}',
    '{"type":""}',
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
  // Valid, with the type JSON.parse sees:
  assert.equal(typeOfLine('{"type":"a","type":"b"}'), "b", "a second top-level type (JSON.parse keeps the last)");
  assert.equal(typeOfLine('{"type":"a","x":{"type":"b"}}'), "a", "a nested type is not the line's");
  assert.equal(typeOfLine('{"type":"t\\u0068inking"}'), "thinking", "an escape in the type");
  assert.equal(typeOfLine('{"type":"a","d":' + "[".repeat(100) + "]".repeat(100) + "}"), "a", "nested deeper than 64");
  // Valid, but left to the parse path:
  assert.equal(check('{"t\\u0079pe":"a"}'), false, "an escaped key may spell type");
  assert.equal(check('{"type":1}'), false, "a type that is not a string");
  assert.equal(check('{"kind":"a"}'), false, "no type");
});

test("soundLine: damage is caught wherever it is in a string, however long", () => {
  const long = "x".repeat(200);
  for (const at of [0, 30, 63, 64, 100, 150, 198]) {
    const damaged = long.slice(0, at) + "\u0001" + long.slice(at + 1);
    assert.equal(check(`{"type":"a","s":"${damaged}"}`), false, `a control character at ${at}`);
    const escape = long.slice(0, at) + "\\q" + long.slice(at + 2);
    assert.equal(check(`{"type":"a","s":"${escape}"}`), false, `a bad escape at ${at}`);
  }
  const bytes = Buffer.from(`{"type":"a","s":"${long}"}`);
  for (const at of [17, 80, 150, 216]) {
    const b = Buffer.from(bytes);
    b[at] = 0xff;
    assert.equal(check(b), false, `a byte that is not UTF-8 at ${at}`);
  }
  assert.equal(check(`{"type":"a","s":"${long}\\\\","t":1}`), true, "an escaped backslash before the closing quote");
  assert.equal(check(`{"type":"a","s":"${long}\\","t":1}`), false, "an escaped closing quote: the string runs on");
});

/** Compact JSON objects with `type` first, strings up to 100 characters. */
const objectLine = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.dictionary(
      // never "type", never an index (JSON.stringify writes those first), never escaped (an escaped key may spell "type": parsed)
      fc.string({ maxLength: 8 }).map((k) => "k" + k.replace(/["\\\u0000-\u001f]/g, "")),
      fc.jsonValue({ maxDepth: 4 }).map((v) => shortStrings(v)),
      { maxKeys: 6 },
    ),
  )
  .map(([type, rest]) => JSON.stringify({ type, ...rest }));

function shortStrings(v: unknown): unknown {
  if (typeof v === "string") return v.slice(0, 100);
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
    { seed: FUZZ_SEED, numRuns: fuzzRuns(300, 3000) },
  );
});

test("keepWhole writes no line JSON.parse refuses: filter --type on the damaged thinking line of bad-json.ndjson", async () => {
  const keep = keepWhole(undefined, () => true);
  const line = Buffer.from('{"type":"thinking","subtype":"delta",,"text":"x"}\n');
  assert.equal(soundLine(line, 0, line.length - 1), undefined);
  const good = Buffer.from('{"type":"thinking","subtype":"delta","text":"x"}\n');
  assert.equal(keep.keep!(soundLine(good, 0, good.length - 1)!), "thinking");
  const r = await runCli(["filter", "--type", "thinking", "test/fixtures/validate/bad-json.ndjson"]);
  assert.equal(r.code, 5);
  assert.equal(r.stdout, "");
  // Line 3 is the agent CLI's own text (a warning); line 4 is the damaged thinking line.
  assert.equal(
    r.stderr,
    "cursorlog: warning (at test/fixtures/validate/bad-json.ndjson:3): the agent CLI said: RetriableError: [invalid_argument] unknown option '--system-prompt' (not an event, not written; further lines of its text are not reported)\n" +
      "cursorlog: error (at test/fixtures/validate/bad-json.ndjson:4): invalid JSON: Expected double-quoted property name at column 38\n",
  );
  const lenient = await runCli(["filter", "--lenient", "--type", "thinking", "test/fixtures/validate/bad-json.ndjson"]);
  assert.equal(lenient.code, 5);
  assert.match(lenient.stderr, /\(at test\/fixtures\/validate\/bad-json\.ndjson:4\): invalid JSON: Expected double-quoted property name at column 38/);
  assert.doesNotMatch(lenient.stdout, /,,/);
  assert.equal(lenient.stdout.split("\n").filter(Boolean).length, 4);
});
