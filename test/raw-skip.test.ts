import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { keepWhole, skipAllBut, skipCompletionBodies, skipTypes, type RawSkip } from "../src/input/raw-skip.js";
import { soundLine } from "../src/input/line-splitter.js";

/** What the input layer does with a line: the scanner's verdict, then the skip's test if the line is sound. */
function judge(skip: RawSkip, buf: Buffer, start: number, end: number): unknown {
  const line = soundLine(buf, start, end);
  return line === undefined ? undefined : skip.test(line);
}

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
      const t = judge(skip, buf, 0, buf.length);
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
    const v = judge(skip, buf, 0, buf.length);
    if (v === undefined) continue;
    n++;
    const parsed = JSON.parse(line) as { type: string; subtype: string; call_id: string };
    assert.deepEqual(v, { type: "tool_call", subtype: "completed", call_id: parsed.call_id, tool_call: {} });
    assert.equal(parsed.type, "tool_call");
    assert.equal(parsed.subtype, "completed");
    for (let cut = 1; cut < buf.length; cut += Math.max(7, buf.length >> 8)) assert.equal(judge(skip, buf, 0, cut), undefined, `cut at ${cut}`);
  }
  assert.ok(n > 30, `only ${n} completions`);
});

test("raw skip never skips a line cut at any position, nor a line with a second top-level type", () => {
  for (const line of lines.slice(0, 60)) {
    const buf = Buffer.from(line);
    for (let cut = 1; cut < buf.length; cut++) {
      assert.equal(judge(all, buf, 0, cut), undefined, `cut at ${cut}: ${line.slice(0, cut)}`);
      assert.equal(judge(but, buf, 0, cut), undefined, `cut at ${cut}: ${line.slice(0, cut)}`);
    }
  }
  // A second top-level type wins, as in JSON.parse: this line is a result.
  const twice = Buffer.from('{"type":"thinking","subtype":"delta","text":"x","type":"result"}');
  assert.equal(judge(all, twice, 0, twice.length), "result");
  assert.equal(judge(but, twice, 0, twice.length), undefined);
});

test("keepWhole: a kept line has the type JSON.parse sees, ends in its own LF, and is never cut", () => {
  const keep = keepWhole(undefined, (t) => t !== "thinking");
  let n = 0;
  for (const line of lines) {
    const buf = Buffer.from(line + "\n");
    const end = buf.length - 1;
    const sound = soundLine(buf, 0, end);
    const t = sound === undefined ? undefined : keep.keep!(sound);
    if (t === undefined) continue;
    n++;
    assert.equal(parsedType(line), t);
    assert.notEqual(t, "thinking");
    assert.equal(keep.keep!(soundLine(Buffer.from(line), 0, Buffer.byteLength(line))!), undefined, "no LF of its own: not kept");
    for (let cut = 1; cut < end; cut += Math.max(5, end >> 8)) assert.equal(soundLine(Buffer.concat([buf.subarray(0, cut), Buffer.from("\n")]), 0, cut), undefined);
  }
  assert.ok(n > 100, `only ${n} kept`);
});

test("damage anywhere in a line of a skipped type keeps it from being skipped: it is parsed, and reported", () => {
  const text = "x".repeat(300);
  const line = `{"type":"thinking","subtype":"delta","text":"${text}","session_id":"s","timestamp_ms":17}`;
  const buf = Buffer.from(line);
  assert.equal(judge(all, buf, 0, buf.length), "thinking");
  const at = [1, 9, 12, 40, 60, 100, 200, 330, line.length - 1];
  const damage: Array<[string, (b: Buffer, i: number) => Buffer]> = [
    ["a raw control character", (b, i) => Buffer.concat([b.subarray(0, i), Buffer.from([1]), b.subarray(i + 1)])],
    ["a bad escape", (b, i) => Buffer.concat([b.subarray(0, i), Buffer.from("\\q"), b.subarray(i + 1)])],
    ["invalid UTF-8", (b, i) => Buffer.concat([b.subarray(0, i), Buffer.from([0xc3, 0x28]), b.subarray(i + 1)])],
    ["a line cut short", (b, i) => b.subarray(0, i)],
    ["two events run together", (b, i) => Buffer.concat([b.subarray(0, i), b])],
  ];
  for (const [what, hurt] of damage) {
    for (const i of at) {
      const bad = hurt(buf, i);
      assert.equal(judge(all, bad, 0, bad.length), undefined, `${what} at ${i}`);
      assert.equal(judge(but, bad, 0, bad.length), undefined, `${what} at ${i}`);
    }
  }
});

test("keepWhole with skipped types: the splitter counts each run of a skipped type as one entry (merged in the scanner), kept lines stay one each, across chunks too", async () => {
  const { LineSplitter } = await import("../src/input/line-splitter.js");
  const think = (n: number) => `{"type":"thinking","subtype":"delta","text":"t${n}"}`;
  const call = (n: number) => `{"type":"tool_call","subtype":"started","call_id":"c${n}"}`;
  const text = [think(1), think(2), think(3), call(4), think(5), think(6), call(7), call(8), `{"type":"assistant"}`].join("\n") + "\n";
  const base = keepWhole(skipAllBut(["tool_call"]), (t) => t === "tool_call");
  // The skip is asked once per run, not once per line (the run grows by its type bytes, or in the scanner).
  let asked = 0;
  const skip: RawSkip = { keep: (l) => base.keep!(l), test: (l) => (asked++, base.test(l)) };
  const entries = (chunks: Buffer[]) => {
    const sp = new LineSplitter(undefined, skip);
    return chunks.flatMap((c) => [...sp.push(c), ...[]]).map((e) => ("skipped" in e ? [e.lineNo, e.count, e.skipped, e.keep === true, e.buf.toString("utf8", e.start, e.end + (e.keep ? 1 : 0))] : e));
  };
  const whole = Buffer.from(text);
  const lineOf = (n: number) => text.split("\n")[n - 1]!;
  assert.deepEqual(entries([whole]), [
    [1, 3, "thinking", false, [lineOf(1), lineOf(2), lineOf(3)].join("\n")],
    [4, 1, "tool_call", true, lineOf(4) + "\n"],
    [5, 2, "thinking", false, [lineOf(5), lineOf(6)].join("\n")],
    [7, 1, "tool_call", true, lineOf(7) + "\n"],
    [8, 1, "tool_call", true, lineOf(8) + "\n"],
    [9, 1, "assistant", false, lineOf(9)],
  ]);
  assert.equal(asked, 3, "lines 1, 5 and 9");
  // Cut inside the second thinking line: that line is put together alone (an entry of its own:
  // a run never spans two buffers), and the rest of the second chunk runs as before.
  const cut = text.indexOf(think(2)) + 10;
  const got = entries([whole.subarray(0, cut), whole.subarray(cut)]);
  assert.deepEqual(
    got.map((e) => (e as unknown[]).slice(0, 4)),
    [
      [1, 1, "thinking", false],
      [2, 1, "thinking", false],
      [3, 1, "thinking", false],
      [4, 1, "tool_call", true],
      [5, 2, "thinking", false],
      [7, 1, "tool_call", true],
      [8, 1, "tool_call", true],
      [9, 1, "assistant", false],
    ],
  );
});
