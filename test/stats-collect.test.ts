import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject, JsonRecord } from "../src/input/record.js";
import { drive } from "../src/driver/driver.js";
import { CappedList } from "../src/outputs/stats/capped-list.js";
import { DEFAULT_LIMITS, PROMPT_MAX, type StatsLimits } from "../src/outputs/stats/collect.js";
import { statsDriver, statsSink } from "../src/outputs/stats/index.js";
import { PathSet } from "../src/outputs/stats/path-set.js";
import { SlowestCalls } from "../src/outputs/stats/slowest.js";
import { CallTally, MAX_KINDS, OTHER } from "../src/outputs/stats/tally.js";
import { StatsTotalAcc } from "../src/outputs/stats/total.js";
import type { SessionStats, StatsCall } from "../src/outputs/stats/types.js";
import * as ev from "./helpers/events.js";
import { fixtureRecords, recordsOf } from "./helpers/records.js";
import { quietReporter } from "./helpers/reporter.js";

const SID = "5e1f0c3a-8b2d-4e6f-9a1b-2c3d4e5f6a7b";
const T0 = 1767225600000;

/** Every session report of `records`, by the driver and stats' sink alone (no renderer). */
function reports(records: JsonRecord[], limits: StatsLimits = DEFAULT_LIMITS): SessionStats[] {
  const out: SessionStats[] = [];
  const stage = drive(
    statsSink(limits, false, (s) => void out.push(s)),
    quietReporter(),
    statsDriver(undefined),
  );
  for (const rec of records) stage.record(rec);
  const last = records[records.length - 1];
  if (last !== undefined) stage.fileEnd?.(last.file, 0);
  return out;
}

const init = (sid = SID) => ev.init(sid, { model: "M" });
const user = (text: string) => ev.user(SID, text);
const result = (extra: ev.ResultFields = {}) => ev.result(SID, { is_error: false, duration_ms: 10, result: "" }, extra);
const pair = (n: number, kind: string, args: JsonObject, res: JsonObject | undefined, t0: number, t1: number) => ev.callPair(SID, `c${n}`, kind, args, res, t0, t1);

function entry(ms: number, line: number): () => StatsCall {
  return () => ({ line, kind: "shell", action: "Ran terminal command", target: "", status: "success", note: "", durationMs: ms, bin: "ok" });
}

test("CappedList: exact count, first items only, past the cap nothing is built", () => {
  const l = new CappedList<number>(3);
  let built = 0;
  for (let i = 0; i < 10; i++) l.add(() => (built++, i));
  assert.deepEqual(l.report(), { count: 10, items: [0, 1, 2] });
  assert.equal(built, 3);
});

test("PathSet: distinct in first-seen order, capped, repeats of listed paths are not 'more'", () => {
  const p = new PathSet(1000);
  for (let i = 0; i < 5000; i++) p.add(`src/f${i}.ts`);
  for (let i = 0; i < 10; i++) p.add("src/f0.ts");
  const r = p.report();
  assert.equal(r.paths.length, 1000);
  assert.equal(r.paths[0], "src/f0.ts");
  assert.equal(r.paths[999], "src/f999.ts");
  assert.equal(r.more, 4000);
});

test("SlowestCalls: keeps the N longest, longest first, ties in arrival order; a call that does not make it is not built", () => {
  const top = new SlowestCalls(10);
  let built = 0;
  // 1000 calls with durations that go up and down; the 10 longest are 990..999 ms.
  for (let i = 0; i < 1000; i++) {
    const ms = (i * 7919) % 1000;
    top.offer(ms, () => (built++, entry(ms, i + 1)()));
  }
  const r = top.report();
  assert.deepEqual(r.map((c) => c.durationMs), [999, 998, 997, 996, 995, 994, 993, 992, 991, 990]);
  assert.ok(built < 100, `built ${built} entries for 1000 offers`);
  const ties = new SlowestCalls(3);
  for (let line = 1; line <= 5; line++) ties.offer(37, entry(37, line));
  assert.deepEqual(ties.report().map((c) => c.line), [1, 2, 3]);
  const none = new SlowestCalls(0);
  none.offer(5, entry(5, 1));
  assert.deepEqual(none.report(), []);
});

test("CallTally: kinds beyond MAX_KINDS are counted under (other); merge adds up", () => {
  const t = new CallTally();
  for (let i = 0; i < MAX_KINDS + 50; i++) t.count(`k${i}`, "success", "ok");
  const r = t.report();
  assert.equal(r.calls, MAX_KINDS + 50);
  assert.equal(r.byKind.length, MAX_KINDS + 1);
  assert.equal(r.byKind[0]![0], OTHER);
  assert.equal(r.byKind[0]![1].calls, 50);
  const sum = new CallTally();
  sum.merge(r);
  sum.merge(r);
  assert.equal(sum.report().calls, 2 * (MAX_KINDS + 50));
  assert.deepEqual(sum.report().byStatus, [["success", 2 * (MAX_KINDS + 50)]]);
});

test("collect: categories, files by operation, shell exits, durations from startedAtMs/completedAtMs", () => {
  const events = [
    init(),
    user("\n  first line of the prompt  \nsecond line"),
    ...pair(1, "readToolCall", { path: "a.ts" }, { success: { content: "" } }, T0, T0 + 5),
    ...pair(2, "editToolCall", { path: "new.ts" }, { success: { diffString: "--- /dev/null\n+++ b/new.ts\n", afterFullFileContent: "x" } }, T0 + 10, T0 + 20),
    ...pair(3, "editToolCall", { path: "a.ts" }, { success: { beforeFullFileContent: "a", afterFullFileContent: "b" } }, T0 + 30, T0 + 40),
    ...pair(4, "deleteToolCall", { path: "old.ts" }, { success: { deletedFile: "old.ts" } }, T0 + 50, T0 + 51),
    ...pair(5, "deleteToolCall", { path: "gone.ts" }, { error: { error: "File not found" } }, T0 + 60, T0 + 61),
    ...pair(6, "shellToolCall", { command: "make" }, { failure: { exitCode: 2, signal: "" } }, T0 + 100, T0 + 1100),
    ...pair(7, "shellToolCall", { command: "rm -rf /" }, { rejected: { reason: "" } }, T0 + 1200, T0 + 1201),
    ...pair(8, "globToolCall", { globPattern: "*" }, undefined, T0 + 1300, T0 + 1302),
    ev.started(SID, "open", "shellToolCall", { command: "sleep 9" }, T0 + 1400),
    result({ duration_ms: 2000 }),
  ];
  const [s] = reports(recordsOf(events));
  assert.ok(s);
  assert.equal(s.prompt, "first line of the prompt");
  assert.equal(s.model, "M");
  assert.equal(s.outcome, "finished");
  assert.deepEqual([s.durationMs, s.durationSource], [2000, "result"]);
  assert.deepEqual(
    { calls: s.calls.calls, ok: s.calls.ok, failed: s.calls.failed, refused: s.calls.refused, noResult: s.calls.noResult, open: s.calls.open },
    { calls: 9, ok: 4, failed: 2, refused: 1, noResult: 1, open: 1 },
  );
  assert.deepEqual(s.files.read.paths, ["a.ts"]);
  assert.deepEqual(s.files.created.paths, ["new.ts"]);
  assert.deepEqual(s.files.edited.paths, ["a.ts"]);
  assert.deepEqual(s.files.deleted.paths, ["old.ts"]);
  assert.deepEqual(s.shellExits, { count: 1, items: [{ line: 14, command: "make", exitStatus: 2, signal: undefined }] });
  assert.deepEqual(s.failed.items.map((c) => c.target), ["gone.ts", "make"]);
  assert.deepEqual(s.rejected.items.map((c) => [c.target, c.note]), [["rm -rf /", "rejected"]]);
  assert.equal(s.slowest[0]!.durationMs, 1000);
  assert.deepEqual(s.open.items.map((c) => [c.target, c.status]), [["sleep 9", "incomplete"]]);
});

test("collect: a completion without args takes the started event's path; no clock means no duration", () => {
  const events = [
    init(),
    ev.started(SID, "x", "readToolCall", { path: "from-start.ts" }),
    ev.completed(SID, "x", "readToolCall", { result: { success: {} } }),
  ];
  const [s] = reports(recordsOf(events));
  assert.deepEqual(s!.files.read.paths, ["from-start.ts"]);
  assert.deepEqual(s!.slowest, []);
  assert.equal(s!.outcome, "cut_off");
  assert.equal(s!.durationMs, undefined);
  assert.equal(s!.durationSource, undefined);
  assert.equal(s!.usage, undefined);
});

test("collect: without duration_ms the wall time is last - first timestamp_ms, marked estimated", () => {
  const events = [init(), ev.thinkingDelta(undefined, T0 + 5), ev.thinkingCompleted(undefined, T0 + 905), result({ duration_ms: undefined })];
  const [s] = reports(recordsOf(events));
  assert.deepEqual([s!.durationMs, s!.durationSource], [900, "timestamps"]);
});

test("collect: the prompt is one line of at most PROMPT_MAX characters", () => {
  const [s] = reports(recordsOf([init(), user("x".repeat(5000) + "\nmore")]));
  assert.equal(s!.prompt!.length, PROMPT_MAX);
  assert.ok(s!.prompt!.endsWith("…"));
  const [blank] = reports(recordsOf([init(), user(" \n\t\n"), user("second message")]));
  assert.equal(blank!.prompt, "second message");
});

test("collect: the files list of a session is capped with a +N more count", () => {
  const events: JsonObject[] = [init()];
  for (let i = 0; i < 1500; i++) events.push(...pair(i, "readToolCall", { path: `f${i}` }, { success: {} }, T0 + i, T0 + i + 1));
  const [s] = reports(recordsOf(events));
  assert.equal(s!.files.read.paths.length, DEFAULT_LIMITS.files);
  assert.equal(s!.files.read.more, 500);
  assert.equal(s!.slowest.length, DEFAULT_LIMITS.slowest);
  assert.equal(s!.calls.calls, 1500);
});

test("total: tokens are summed once per session, never double counted, and a repeated request is not added again", () => {
  const runs = fixtureRecords("test/fixtures/stats/usage-runs.ndjson");
  const sessions = reports(runs);
  assert.equal(sessions.length, 3);
  assert.deepEqual(sessions.map((s) => s.usage?.inputTokens), [1000, 2500, undefined]);
  const total = new StatsTotalAcc();
  for (const s of sessions) total.add(s);
  let t = total.report();
  assert.deepEqual(t.usage, { inputTokens: 3500, outputTokens: 250, cacheReadTokens: 3000, cacheWriteTokens: 400 });
  assert.equal(t.usageSessions, 2);
  assert.equal(t.usageRepeated, 0);
  // The same log again (same session_id and request_id): its usage is reported as repeated, not added.
  for (const s of reports(runs)) total.add(s);
  t = total.report();
  assert.deepEqual(t.usage, { inputTokens: 3500, outputTokens: 250, cacheReadTokens: 3000, cacheWriteTokens: 400 });
  assert.equal(t.usageSessions, 2);
  assert.equal(t.usageRepeated, 2);
  assert.equal(t.sessions, 6);
  // A resumed run keeps its session_id but has a new request_id: both runs count.
  const resumed = reports(
    recordsOf([init(), result({ request_id: "r1", usage: { inputTokens: 1, outputTokens: 1 } }), init(), result({ request_id: "r2", usage: { inputTokens: 10, outputTokens: 10 } })]),
  );
  const t2 = new StatsTotalAcc();
  for (const s of resumed) t2.add(s);
  assert.deepEqual(t2.report().usage, { inputTokens: 11, outputTokens: 11, cacheReadTokens: undefined, cacheWriteTokens: undefined });
  assert.equal(t2.report().usageSessions, 2);
});

test("total: no usage anywhere stays unknown, never 0; durations say how many were known", () => {
  const t = new StatsTotalAcc();
  for (const s of reports(fixtureRecords("test/fixtures/2025-shape.ndjson"))) t.add(s);
  for (const s of reports(fixtureRecords("test/fixtures/stats/no-clock-cut.ndjson"))) t.add(s);
  const r = t.report();
  assert.equal(r.usage, undefined);
  assert.equal(r.usageSessions, 0);
  assert.equal(r.durationMs, 1234);
  assert.equal(r.durationSessions, 1);
  assert.deepEqual([r.finished, r.errors, r.cutOff], [1, 0, 1]);
});

test("collect: the model's rules — no negative duration, a background subagent task, the run's start/end, a background end's duration from its call's start", () => {
  const events: JsonObject[] = [
    init(),
    // The call's own clock runs backwards (completedAtMs before startedAtMs): the lines' clock decides.
    ev.toolCallEvent(SID, "started", "neg", { shellToolCall: { args: { command: "a" } }, startedAtMs: String(T0 + 500) }, T0),
    ev.toolCallEvent(SID, "completed", "neg", { shellToolCall: { args: { command: "a" }, result: { success: { exitCode: 0 } } }, startedAtMs: String(T0 + 500), completedAtMs: String(T0 + 100) }, T0 + 40),
    // Both clocks backwards: no duration at all.
    ev.toolCallEvent(SID, "started", "none", { shellToolCall: { args: { command: "b" } } }, T0 + 90),
    ev.toolCallEvent(SID, "completed", "none", { shellToolCall: { args: { command: "b" }, result: { success: { exitCode: 0 } } } }, T0 + 80),
    // A subagent task in the background, and its end.
    ev.toolCallEvent(SID, "started", "task", { taskToolCall: { args: { description: "review" } }, startedAtMs: String(T0 + 100) }, T0 + 100),
    ev.toolCallEvent(SID, "completed", "task", { taskToolCall: { args: { description: "review" }, result: { success: { agentId: "a1", isBackground: true } } }, startedAtMs: String(T0 + 100), completedAtMs: String(T0 + 200) }, T0 + 200),
    { type: "system", subtype: "task_notification", task_id: "a1", status: "success", session_id: SID, timestamp_ms: T0 + 1100 },
    result({ duration_ms: undefined }),
  ];
  const [s] = reports(recordsOf(events));
  assert.ok(s);
  // The run: from its earliest time (the first line's) to its latest (the notification's).
  assert.deepEqual([s.durationMs, s.durationSource], [1100, "timestamps"]);
  assert.deepEqual(
    s.slowest.map((c) => [c.target, c.durationMs]),
    [
      ["review", 100],
      ["a", 40],
    ],
  );
  assert.equal(s.background.count, 1);
  assert.equal(s.background.ended, 1);
  assert.deepEqual(s.background.items, [{ line: 7, taskId: "a1", command: "review", status: "success", ok: true, endLine: 8, durationMs: 1000 }]);
});
