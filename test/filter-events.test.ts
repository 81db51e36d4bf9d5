import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compilePredicate, type PredicateSpec } from "../src/query/predicate.js";
import { parseWhere } from "../src/query/where-clause.js";
import type { JsonObject, JsonRecord } from "../src/input/record.js";
import { toFilteredEvents, type FilterOptions } from "../src/outputs/filter/index.js";
import * as ev from "./helpers/events.js";
import { recordsOf } from "./helpers/records.js";
import { quietReporter } from "./helpers/reporter.js";

/** Records as the input layer makes them; `text` is deliberately not JSON.stringify(value). */
function records(file: string, events: JsonObject[]): JsonRecord[] {
  return recordsOf(events, file, (value, i) => `${i + 1}:${String(value.type)}/${String(value.subtype ?? "")}`);
}

interface Run {
  out: string[];
  finish: string | undefined;
  code: number;
}

/** Feeds files of events through the stage, as toTransform would: record per event, fileEnd per file, finish once. */
function run(spec: PredicateSpec, opts: Partial<FilterOptions>, ...files: JsonRecord[][]): Run {
  const reporter = quietReporter();
  const stage = toFilteredEvents({ test: compilePredicate(spec), pair: false, count: false, exitStatus: false, ...opts }, reporter);
  const out: string[] = [];
  for (const recs of files) {
    for (const rec of recs) {
      const text = stage.record(rec);
      if (text !== undefined && text !== "") out.push(...text.split("\n").filter(Boolean));
    }
    stage.fileEnd?.(recs[0]?.file ?? "", recs.length);
  }
  const finish = stage.finish?.();
  return { out, finish, code: reporter.code };
}

const S = "s1";
const init = ev.init(S);
const start = (id: string, kind: string, ts?: number) => ev.started(S, id, kind, {}, ts);
const done = (id: string, kind: string, arm: string, ts?: number) => ev.completed(S, id, kind, { result: { [arm]: {} } }, ts);
const result = ev.result(S);

describe("toFilteredEvents", () => {
  test("writes rec.text of each kept event with an LF, in input order", () => {
    const r = run({ types: ["tool_call"] }, {}, records("f", [init, start("a", "readToolCall"), done("a", "readToolCall", "success"), result]));
    assert.deepEqual(r.out, ["2:tool_call/started", "3:tool_call/completed"]);
    assert.equal(r.finish, undefined);
  });

  test("no predicate keeps everything", () => {
    const r = run({}, {}, records("f", [init, { type: "hologram" }, {}]));
    assert.deepEqual(r.out, ["1:system/init", "2:hologram/", "3:undefined/"]);
  });

  test("--pair: a kept completion brings its held start just before it, even out of order", () => {
    const evs = [init, start("a", "shellToolCall"), start("b", "shellToolCall"), done("b", "shellToolCall", "failure"), done("a", "shellToolCall", "success"), result];
    const r = run({ statuses: ["failure"] }, { pair: true }, records("f", evs));
    assert.deepEqual(r.out, ["3:tool_call/started", "4:tool_call/completed"]);
  });

  test("--pair: a kept start brings its completion, and is written only once", () => {
    const evs = [init, start("a", "readToolCall"), start("b", "shellToolCall"), done("a", "readToolCall", "error"), done("b", "shellToolCall", "success")];
    const r = run({ where: [parseWhere("tool_call.readToolCall exists")] }, { pair: true }, records("f", evs));
    assert.deepEqual(r.out, ["2:tool_call/started", "4:tool_call/completed"]);
    const both = run({ callIds: ["a"] }, { pair: true }, records("f", evs));
    assert.deepEqual(both.out, ["2:tool_call/started", "4:tool_call/completed"]);
  });

  test("--pair pairs within a session: a reused call_id after a result is a new call", () => {
    const evs = [init, start("R0", "readToolCall"), done("R0", "readToolCall", "success"), result, init, start("R0", "readToolCall"), done("R0", "readToolCall", "error")];
    const r = run({ statuses: ["error"] }, { pair: true }, records("f", evs));
    assert.deepEqual(r.out, ["6:tool_call/started", "7:tool_call/completed"]);
  });

  test("--pair never pairs across files", () => {
    const r = run({ statuses: ["error"] }, { pair: true }, records("f1", [init, start("x", "readToolCall")]), records("f2", [done("x", "readToolCall", "error")]));
    assert.deepEqual(r.out, ["1:tool_call/completed"]);
  });

  test("--pair: a completion without a start, a start without a completion", () => {
    const r = run({ types: ["tool_call"] }, { pair: true }, records("f", [init, done("t", "taskToolCall", "error"), start("s", "shellToolCall")]));
    assert.deepEqual(r.out, ["2:tool_call/completed", "3:tool_call/started"]);
  });

  test("--since/--until with untimestamped events in stream order, per file", () => {
    const evs = [init, start("a", "readToolCall", 100), done("a", "readToolCall", "success", 200), { type: "assistant" }, result];
    assert.deepEqual(run({}, { since: 150 }, records("f", evs)).out, ["3:tool_call/completed", "4:assistant/", "5:result/success"]);
    assert.deepEqual(run({}, { until: 150 }, records("f", evs)).out, ["1:system/init", "2:tool_call/started"]);
    assert.deepEqual(run({}, { until: 150 }, records("f1", evs), records("f2", [init])).out, ["1:system/init", "2:tool_call/started", "1:system/init"]);
  });

  test("--pair with a window brings the partner from outside it", () => {
    const evs = [init, start("a", "readToolCall", 100), done("a", "readToolCall", "success", 200)];
    assert.deepEqual(run({}, { since: 150, pair: true }, records("f", evs)).out, ["2:tool_call/started", "3:tool_call/completed"]);
  });

  test("-c counts what would be written (partners included), over all files", () => {
    const evs = [init, start("a", "shellToolCall"), done("a", "shellToolCall", "failure")];
    const r = run({ statuses: ["failure"] }, { count: true, pair: true }, records("f1", evs), records("f2", evs));
    assert.deepEqual(r.out, []);
    assert.equal(r.finish, "4\n");
    assert.equal(run({ types: ["nope"] }, { count: true }, records("f", evs)).finish, "0\n");
  });

  test("-e: status 1 when nothing was kept, 0 otherwise", () => {
    const evs = records("f", [init, result]);
    assert.equal(run({ types: ["nope"] }, { exitStatus: true }, evs).code, 1);
    assert.equal(run({ types: ["result"] }, { exitStatus: true }, evs).code, 0);
    assert.equal(run({ types: ["nope"] }, {}, evs).code, 0);
  });
});
