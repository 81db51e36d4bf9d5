import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { keepWhole, skipAllBut, skipCompletionBodies, skipTypes } from "../src/input/raw-skip.js";
import { soundLine } from "../src/input/sound-line.js";
import { wellFormed } from "../src/input/well-formed.js";

const lines = readdirSync("test/fixtures")
  .filter((f) => f.endsWith(".ndjson"))
  .flatMap((f) => readFileSync(`test/fixtures/${f}`, "utf8").split(/\r?\n/))
  .filter((l) => l.startsWith("{"));

const all = skipTypes(["thinking", "user", "assistant", "tool_call", "result", "system", "connection", "hologram"])!;
const but = skipAllBut(["result"]);

function parsedType(line: string): unknown {
  try {
    return (JSON.parse(line) as { type?: unknown }).type;
  } catch {
    return Symbol("invalid");
  }
}

test("raw skip is sound: a skipped line parses, and its type is the one JSON.parse sees", () => {
  let skipped = 0;
  for (const line of lines) {
    const buf = Buffer.from(line);
    for (const skip of [all, but]) {
      const t = skip.test(buf, 0, buf.length);
      if (t === undefined) continue;
      skipped++;
      assert.equal(parsedType(line), t, line.slice(0, 80));
    }
  }
  assert.ok(skipped > 100, `only ${skipped} lines were skippable`);
});

test("completion bodies: a completed tool call stands in as {type, subtype, call_id} with the id JSON.parse reads", () => {
  const skip = skipCompletionBodies(undefined);
  let n = 0;
  for (const line of lines) {
    const buf = Buffer.from(line);
    const v = skip.test(buf, 0, buf.length);
    if (v === undefined) continue;
    n++;
    const parsed = JSON.parse(line) as { type: string; subtype: string; call_id: string };
    assert.deepEqual(v, { type: "tool_call", subtype: "completed", call_id: parsed.call_id, tool_call: {} });
    assert.equal(parsed.type, "tool_call");
    assert.equal(parsed.subtype, "completed");
    for (let cut = 1; cut < buf.length; cut += 7) assert.equal(skip.test(buf, 0, cut), undefined, `cut at ${cut}`);
  }
  assert.ok(n > 30, `only ${n} completions`);
});

test("raw skip never skips a line cut at any position, nor a line with a second top-level type", () => {
  for (const line of lines.slice(0, 60)) {
    const buf = Buffer.from(line);
    for (let cut = 1; cut < buf.length; cut++) {
      assert.equal(all.test(buf, 0, cut), undefined, `cut at ${cut}: ${line.slice(0, cut)}`);
      assert.equal(but.test(buf, 0, cut), undefined, `cut at ${cut}: ${line.slice(0, cut)}`);
    }
  }
  const twice = Buffer.from('{"type":"thinking","subtype":"delta","text":"x","type":"result"}');
  assert.equal(all.test(twice, 0, twice.length), undefined);
  assert.equal(but.test(twice, 0, twice.length), undefined);
});

test("wellFormed: structure only, with what it catches spelled out", () => {
  const ok = (s: string) => wellFormed(Buffer.from(s), 0, Buffer.byteLength(s));
  assert.equal(ok('{"a":"b\\"}","c":[1,{"d":null}]}'), true);
  assert.equal(ok('{"a":"' + "x".repeat(500) + '\\\\"}'), true);
  assert.equal(ok('{"a":"b"} {"c":1}'), false, "two values");
  assert.equal(ok('{"a":"b}'), false, "unclosed string");
  assert.equal(ok('{"a":"b\u0001"}'), false, "raw control character");
  assert.equal(ok('{"a":RetriableError}'), false, "bare words");
  assert.equal(ok('{"a":{"b":1}'), false, "unbalanced");
});

test("keepWhole: a kept line has the type JSON.parse sees, ends in its own LF, and is never cut", () => {
  const keep = keepWhole(undefined, (t) => t !== "thinking");
  let n = 0;
  for (const line of lines) {
    const buf = Buffer.from(line + "\n");
    const end = buf.length - 1;
    const t = keep.keep!(buf, 0, end);
    if (t === undefined) continue;
    n++;
    assert.equal(parsedType(line), t);
    assert.notEqual(t, "thinking");
    assert.equal(keep.keep!(Buffer.from(line), 0, Buffer.byteLength(line)), undefined, "no LF of its own: not kept");
    for (let cut = 1; cut < end; cut += 5) assert.equal(keep.keep!(Buffer.concat([buf.subarray(0, cut), Buffer.from("\n")]), 0, cut), undefined);
  }
  assert.ok(n > 100, `only ${n} kept`);
});

test("soundLine: a flat line is judged by how it ends, and what that lets through is spelled out", () => {
  const ok = (s: string) => soundLine(Buffer.from(s), 0, Buffer.byteLength(s));
  const line = '{"type":"thinking","subtype":"delta","text":"a}\\"b\\\\","session_id":"s","timestamp_ms":17}';
  assert.equal(ok(line), true);
  assert.equal(ok('{"type":"thinking","subtype":"completed","session_id":"s"}'), true, "ends in a string");
  assert.equal(ok('{"type":"thinking","flag":true}'), true, "ends in a literal");
  for (let cut = 1; cut < line.length; cut++) assert.equal(ok(line.slice(0, cut)), false, `cut at ${cut}: ${line.slice(0, cut)}`);
  assert.equal(ok('{"type":"thinking","text":"ab{"type":"result","x":1}'), false, "a cut line run into the next event");
  assert.equal(ok('{"type":"thinking","text":"x","type":"result"}'), false, "a second type as the last member");
  assert.equal(ok('{"type":"thinking","type":"result","k":1}'), false, "a second type before the last member (it wins in JSON.parse: parsed)");
  assert.equal(ok('{"type":"thinking","text":"\\"type\\"","k":1}'), true, "the word type quoted inside a string");
  assert.equal(ok('{"type":"thinking","text":"x\\"}'), false, "the last quote is escaped: the string never closes");
  assert.equal(ok('{"type":"thinking","text":"x","list":[1,2]}'), true, "not flat-ending: the full walk says yes");
  // Not caught in a flat line's middle (validate parses every line):
  assert.equal(ok('{"type":"thinking","text":"a\u0001b","k":1}'), true, "raw control character");
  assert.equal(ok('{"type":"thinking" garbage,"k":1}'), true, "bytes that are not JSON");
});

test("soundLine says yes to every line JSON.parse reads as an object, and no to every cut of them", () => {
  for (const line of lines) {
    const buf = Buffer.from(line);
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) continue;
    assert.equal(soundLine(buf, 0, buf.length), true, line.slice(0, 80));
    for (let cut = 1; cut < buf.length; cut += 3) assert.equal(soundLine(buf, 0, cut), false, `cut at ${cut}: ${line.slice(0, cut)}`);
  }
});
