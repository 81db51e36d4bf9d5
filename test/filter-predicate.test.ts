import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FilterSyntaxError } from "../src/query/syntax-error.js";
import { someValueAt } from "../src/query/path-lookup.js";
import { parsePath } from "../src/query/path-query.js";
import { compilePredicate } from "../src/query/predicate.js";
import { parseTimeArg } from "../src/query/time-arg.js";
import { TimeWindow } from "../src/query/time-window.js";
import { parseWhere } from "../src/query/where-clause.js";
import type { JsonObject } from "../src/input/record.js";

const started = (kind: string, id = "c1"): JsonObject => ({
  type: "tool_call",
  subtype: "started",
  call_id: id,
  tool_call: { [kind]: { args: { command: "npm test" } }, toolCallId: id, startedAtMs: "1" },
  session_id: "s",
});
const completed = (kind: string, arm: string, id = "c1"): JsonObject => ({
  type: "tool_call",
  subtype: "completed",
  call_id: id,
  tool_call: { [kind]: { result: { [arm]: { exitCode: 1 } } }, toolCallId: id, startedAtMs: "1", completedAtMs: "2" },
  session_id: "s",
});
const thinking: JsonObject = { type: "thinking", subtype: "delta", text: "hm", session_id: "s", timestamp_ms: 5 };
const noType: JsonObject = { session_id: "s" };

function throwsSyntax(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof FilterSyntaxError && message.test(err.message));
}

describe("parsePath", () => {
  const keys = (p: string) => parsePath(p).segments;
  test("dotted keys, indexes, wildcards, quoted keys", () => {
    assert.deepEqual(keys("tool_call.shellToolCall.result.failure.exitCode"), [
      { key: "tool_call" },
      { key: "shellToolCall" },
      { key: "result" },
      { key: "failure" },
      { key: "exitCode" },
    ]);
    assert.deepEqual(keys(".message.content[0].text"), [{ key: "message" }, { key: "content" }, { index: 0 }, { key: "text" }]);
    assert.deepEqual(keys("a[-1]"), [{ key: "a" }, { index: -1 }]);
    assert.deepEqual(keys("tool_call.*.result"), [{ key: "tool_call" }, { any: true }, { key: "result" }]);
    assert.deepEqual(keys("a[*][]"), [{ key: "a" }, { any: true }, { any: true }]);
    assert.deepEqual(keys('payload."key with.dots"["x y"]'), [{ key: "payload" }, { key: "key with.dots" }, { key: "x y" }]);
    assert.deepEqual(keys('."a\\"b\\u00e9"'), [{ key: 'a"bé' }]);
    assert.deepEqual(keys("."), []);
    assert.deepEqual(keys("__proto__.constructor"), [{ key: "__proto__" }, { key: "constructor" }]);
    assert.deepEqual(keys("héllo.日本"), [{ key: "héllo" }, { key: "日本" }]);
  });

  test("the path ends at white space or an operator", () => {
    assert.deepEqual(parsePath("a.b == 1"), { segments: [{ key: "a" }, { key: "b" }], end: 3 });
    assert.deepEqual(parsePath("a.b>0").end, 3);
    assert.deepEqual(parsePath('x."a b" ~ y').end, 7);
  });

  test("bad paths say what is wrong and where", () => {
    throwsSyntax(() => parsePath("a..b"), /^bad path "a\.\.b": an empty key \(\.\.\) at column 3$/);
    throwsSyntax(() => parsePath("a."), /^bad path "a\.": a "\." with no key after it at column 3$/);
    throwsSyntax(() => parsePath("a[x]"), /expected \[N\], \[-N\], \[\*\], \[\] or \["key"\] at column 2$/);
    throwsSyntax(() => parsePath("a[1"), /expected \[N\]/);
    throwsSyntax(() => parsePath('."open'), /a quoted key without its closing " at column 2$/);
    throwsSyntax(() => parsePath('."bad \\q"'), /is not a valid JSON string/);
    throwsSyntax(() => parsePath("a*b"), /unexpected "\*" \(quote a key that holds it: \."key"\) at column 2$/);
    throwsSyntax(() => parsePath("(a)"), /unexpected "\(" .* at column 1$/);
    throwsSyntax(() => parsePath('a["k" ]'), /expected "\]" after the quoted key/);
  });
});

describe("someValueAt", () => {
  const ev = JSON.parse('{"a":{"b":[1,{"c":2}]},"__proto__":{"x":1},"m":{"k1":{"v":1},"k2":{"v":2}}}') as JsonObject;
  const has = (p: string, test: (v: unknown) => boolean = () => true) => someValueAt(ev, parsePath(p).segments, test);
  test("follows keys and indexes", () => {
    assert.ok(has("a.b[1].c", (v) => v === 2));
    assert.ok(has("a.b[-2]", (v) => v === 1));
    assert.ok(!has("a.b[2]"));
    assert.ok(!has("a.b.c"), "a key on an array does not match");
    assert.ok(!has("a[0]"), "an index on an object does not match");
  });
  test("a wildcard matches when some value does", () => {
    assert.ok(has("m.*.v", (v) => v === 2));
    assert.ok(!has("m.*.v", (v) => v === 3));
    assert.ok(has("a.b[*].c"));
  });
  test("only own properties: __proto__ is data, inherited names are absent", () => {
    assert.ok(has("__proto__.x", (v) => v === 1));
    assert.ok(!has("constructor"));
    assert.ok(!has("a.toString"));
    assert.ok(!has("a.b.length"));
    assert.ok(!has("a.hasOwnProperty"));
  });
});

describe("parseWhere", () => {
  const ev = JSON.parse(
    '{"type":"tool_call","n":3,"s":"npm test","z":null,"f":false,"o":{"a":[1,2]},"tool_call":{"shellToolCall":{"result":{"failure":{"exitCode":2}}}}}',
  ) as JsonObject;
  const holds = (clause: string) => parseWhere(clause)(ev);
  test("== and != take JSON values, or bare strings", () => {
    assert.ok(holds("type == tool_call"));
    assert.ok(holds('type == "tool_call"'));
    assert.ok(holds("n == 3") && holds("n == 3.0") && holds("n == 3e0"));
    assert.ok(!holds('n == "3"'), "a string is not a number");
    assert.ok(holds("z == null") && holds("f == false"));
    assert.ok(holds('o == {"a":[1,2]}') && !holds("o == {}"));
    assert.ok(holds("s == npm test"), "a bare VALUE is the rest of the text");
    assert.ok(holds("type != thinking") && !holds("type != tool_call"));
    assert.ok(holds("missing != 1"), "!= is 'not ==': a missing path is != anything");
    assert.ok(holds("type==tool_call") && holds("n>2"), "spaces around the operator are optional");
  });
  test("< <= > >= compare numbers with numbers and strings with strings", () => {
    assert.ok(holds("tool_call.shellToolCall.result.failure.exitCode > 0"));
    assert.ok(holds("n >= 3") && holds("n <= 3") && !holds("n < 3"));
    assert.ok(holds('s > "abc"') && !holds("s > 5"));
    assert.ok(!holds("missing < 1"));
  });
  test("~ tests strings against a regex; exists tests presence (null counts)", () => {
    assert.ok(holds("s ~ ^npm (test|run)$"));
    assert.ok(holds('s ~ "^npm\\\\s"'), "a JSON string VALUE is decoded first");
    assert.ok(holds("s ~ (?i)NPM"));
    assert.ok(!holds("n ~ 3"), "numbers are not strings");
    assert.ok(holds("z exists") && holds("o.a[1] exists") && !holds("o.a[2] exists"));
    assert.ok(holds("tool_call.*.result.failure exists"));
  });
  test("usage errors say what is wrong", () => {
    throwsSyntax(() => parseWhere(""), /^expected 'PATH OP VALUE'/);
    throwsSyntax(() => parseWhere("== 1"), /^expected a path before the operator at column 1$/);
    throwsSyntax(() => parseWhere("a"), /^the path "a" needs an operator: ==, !=, <, <=, >, >=, ~ or exists$/);
    throwsSyntax(() => parseWhere("a = 1"), /^unknown operator "=" at column 3 \(did you mean "=="\?\)/);
    throwsSyntax(() => parseWhere("a like x"), /^unknown operator "like" at column 3/);
    throwsSyntax(() => parseWhere("a =="), /^"==" needs a value after it/);
    throwsSyntax(() => parseWhere("a exists 1"), /^"exists" takes no value, found "1"$/);
    throwsSyntax(() => parseWhere("a > true"), /^">" compares numbers or strings, not true$/);
    throwsSyntax(() => parseWhere("a..b == 1"), /^bad path "a\.\.b"/);
    throwsSyntax(() => parseWhere("a ~ (x"), /^invalid regular expression \/\(x\/: /);
    throwsSyntax(() => parseWhere("a ~ (x)\\1"), /backreference \(\\1\) at column 4 is not supported/);
    throwsSyntax(() => parseWhere("a ~ (?=x)"), /lookaround at column 1 is not supported/);
  });
});

describe("compilePredicate", () => {
  test("no predicate: undefined, everything is kept", () => {
    assert.equal(compilePredicate({}), undefined);
    assert.equal(compilePredicate({ types: [], where: [] }), undefined);
  });
  test("repeated values OR, different predicates AND", () => {
    const t = compilePredicate({ types: ["tool_call", "thinking"], subtypes: ["started", "delta"] })!;
    assert.ok(t(started("shellToolCall")) && t(thinking));
    assert.ok(!t(completed("shellToolCall", "failure")) && !t(noType));
  });
  test("--exclude-type keeps events without a type and unknown types", () => {
    const t = compilePredicate({ excludeTypes: ["thinking", "tool_call"] })!;
    assert.ok(!t(thinking) && !t(started("readToolCall")));
    assert.ok(t(noType) && t({ type: "hologram" }));
  });
  test("--tool by short name or full key; the function envelope by its name", () => {
    const short = compilePredicate({ tools: ["shell"] })!;
    const full = compilePredicate({ tools: ["shellToolCall"] })!;
    for (const t of [short, full]) {
      assert.ok(t(started("shellToolCall")) && t(completed("shellToolCall", "success")));
      assert.ok(!t(started("readToolCall")) && !t(thinking));
    }
    const fn = compilePredicate({ tools: ["list_dir"] })!;
    assert.ok(fn({ type: "tool_call", subtype: "started", call_id: "x", tool_call: { function: { name: "list_dir", arguments: "{}" } } }));
  });
  test("--status matches completed calls by result arm, never started ones", () => {
    const t = compilePredicate({ tools: ["shell"], statuses: ["failure", "rejected"] })!;
    assert.ok(t(completed("shellToolCall", "failure")) && t(completed("shellToolCall", "rejected")));
    assert.ok(!t(completed("shellToolCall", "success")) && !t(started("shellToolCall")) && !t(completed("readToolCall", "failure")));
    const any = compilePredicate({ statuses: ["error"] })!;
    assert.ok(any(completed("readToolCall", "error")) && !any({ type: "result", subtype: "error" }));
  });
  test("ids match exactly, newline included", () => {
    const t = compilePredicate({ callIds: ["call_1\nfc_1"] })!;
    assert.ok(t(started("shellToolCall", "call_1\nfc_1")));
    assert.ok(!t(started("shellToolCall", "call_1\\nfc_1")) && !t(started("shellToolCall", "call_1")));
    const s = compilePredicate({ sessions: ["s"], modelCallIds: ["m-0"] })!;
    assert.ok(s({ type: "assistant", session_id: "s", model_call_id: "m-0" }) && !s({ type: "assistant", session_id: "s" }));
  });
  test("--where clauses AND with the rest", () => {
    const t = compilePredicate({ types: ["tool_call"], where: [parseWhere("tool_call.*.result.failure.exitCode > 0")] })!;
    assert.ok(t(completed("shellToolCall", "failure")) && !t(completed("shellToolCall", "success")));
  });
});

describe("parseTimeArg", () => {
  test("epoch milliseconds and ISO-8601, UTC unless an offset is given", () => {
    assert.equal(parseTimeArg("1767225600000"), 1767225600000);
    assert.equal(parseTimeArg("0"), 0);
    assert.equal(parseTimeArg("2026-01-01"), Date.UTC(2026, 0, 1));
    assert.equal(parseTimeArg("2026-01-01T09:30"), Date.UTC(2026, 0, 1, 9, 30));
    assert.equal(parseTimeArg("2026-01-01T09:30:15Z"), Date.UTC(2026, 0, 1, 9, 30, 15));
    assert.equal(parseTimeArg("2026-01-01 09:30:15.25"), Date.UTC(2026, 0, 1, 9, 30, 15, 250));
    assert.equal(parseTimeArg("2026-01-01T09:30:15.123456789Z"), Date.UTC(2026, 0, 1, 9, 30, 15, 123));
    assert.equal(parseTimeArg("2026-01-01T11:30:00+02:00"), Date.UTC(2026, 0, 1, 9, 30));
    assert.equal(parseTimeArg("2026-01-01T04:00:00-0530"), Date.UTC(2026, 0, 1, 9, 30));
    assert.equal(parseTimeArg("2026-01-01T11:00:00+02"), Date.UTC(2026, 0, 1, 9));
  });
  test("anything else is a usage error", () => {
    for (const bad of ["yesterday", "", "2026-13-01", "2026-02-30", "2026-01-01T24:00", "2026-01-01T10:60", "1.5", "-5", "2026-01-01Z", "99999999999999999"]) {
      throwsSyntax(() => parseTimeArg(bad), /^expected an ISO-8601 time .* or epoch milliseconds, not /);
    }
  });
});

describe("TimeWindow", () => {
  const ev = (ts?: number): JsonObject => (ts === undefined ? { type: "user" } : { type: "thinking", timestamp_ms: ts });
  const run = (w: TimeWindow, events: JsonObject[]) => events.map((e) => w.contains(e));
  test("[since, until) on timestamp_ms", () => {
    assert.deepEqual(run(new TimeWindow(10, 20), [ev(9), ev(10), ev(19), ev(20)]), [false, true, true, false]);
  });
  test("an event without a timestamp takes the last one before it", () => {
    assert.deepEqual(run(new TimeWindow(10, 20), [ev(5), ev(), ev(15), ev(), ev(25), ev()]), [false, false, true, true, false, false]);
  });
  test("before any timestamp: inside only without --since", () => {
    assert.deepEqual(run(new TimeWindow(undefined, 20), [ev(), ev(15)]), [true, true]);
    assert.deepEqual(run(new TimeWindow(10, undefined), [ev(), ev(15)]), [false, true]);
  });
  test("each file starts with no timestamp", () => {
    const w = new TimeWindow(undefined, 20);
    assert.deepEqual(run(w, [ev(30), ev()]), [false, false]);
    w.endFile();
    assert.deepEqual(run(w, [ev()]), [true]);
  });
  test("a timestamp_ms that is not a number is no timestamp", () => {
    assert.deepEqual(run(new TimeWindow(10, 20), [ev(15), { type: "x", timestamp_ms: "99" }]), [true, true]);
  });
});
