import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { keepWhole, skipAllBut, skipCompletionBodies, skipTypes, wellFormed } from "../src/input/raw-skip.js";

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
