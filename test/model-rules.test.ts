// The run model's rules (src/model/), one test per rule, through the cursor dialect and the driver
// as every output meets them: a call's times and duration, its status bin, a background task and
// its end, a run's start/end/outcome/usage, the agent's text. Shapes from FORMAT.md §4, §5.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Reporter } from "../src/diagnostics.js";
import { drive, type RunSink } from "../src/driver/driver.js";
import type { JsonObject } from "../src/input/record.js";
import type { BackgroundEnd, Call } from "../src/model/call.js";
import type { Run, Step } from "../src/model/run.js";
import { RunText } from "../src/model/text.js";
import { callTiming, msOf, spanOf } from "../src/model/time.js";
import { assistant, completed, init, result, started, toolCallEvent, user } from "./helpers/events.js";
import { recordsOf } from "./helpers/records.js";
import pc from "picocolors";

const S = "5e55";

interface Told {
  done: Call[];
  open: Call[];
  ends: BackgroundEnd[];
  runs: Run[];
  steps: Step[];
  stderr: string;
  code: number;
}

/** Drives `events` (lines 1, 2, … of t.ndjson) through the driver, collecting what it tells. */
function tell(events: JsonObject[], sink: RunSink = {}): Told {
  let stderr = "";
  const reporter = new Reporter((t) => (stderr += t), pc.createColors(false), false);
  const told: Told = { done: [], open: [], ends: [], runs: [], steps: [], stderr: "", code: 0 };
  const stage = drive(
    {
      ...sink,
      callDone: (c) => void told.done.push(c),
      backgroundEnd: (e) => void told.ends.push(e),
      line: (_rec, step) => void told.steps.push(step),
      runEnd: (run) => {
        told.runs.push(run);
        told.open.push(...run.openCalls());
        return undefined;
      },
    },
    reporter,
    { cutOff: "warning" },
  );
  const recs = recordsOf(events);
  for (const r of recs) stage.record(r);
  stage.fileEnd?.("t.ndjson", recs.length);
  told.stderr = stderr;
  told.code = reporter.code;
  return told;
}

test("time rule: the duration from one clock only, never negative, and start and end from that clock; else each from its best clock", () => {
  assert.deepEqual(callTiming({ callStart: 1000, callEnd: 1500, eventStart: 990, eventEnd: 1600 }), {
    start: { ms: 1000, from: "call" },
    end: { ms: 1500, from: "call" },
    durationMs: 500,
  });
  // The call's own pair contradicts itself: the lines' pair gives the duration, and the start and end.
  assert.deepEqual(callTiming({ callStart: 2000, callEnd: 1500, eventStart: 1000, eventEnd: 3000 }), {
    start: { ms: 1000, from: "event" },
    end: { ms: 3000, from: "event" },
    durationMs: 2000,
  });
  // The call's own end is missing: the lines' pair.
  assert.deepEqual(callTiming({ callStart: 1010, eventStart: 1000, eventEnd: 1200 }), {
    start: { ms: 1000, from: "event" },
    end: { ms: 1200, from: "event" },
    durationMs: 200,
  });
  // No pair in order: each end as the log gives it, no duration.
  assert.deepEqual(callTiming({ callStart: 2000, callEnd: 1500, eventStart: 3000 }), { start: { ms: 2000, from: "call" }, end: { ms: 1500, from: "call" } });
  // Both contradict themselves: no duration at all.
  assert.deepEqual(callTiming({ callStart: 2000, callEnd: 1500, eventStart: 3000, eventEnd: 1000 }).durationMs, undefined);
  // Two clocks are never subtracted: a call start and a line end give no duration.
  assert.deepEqual(callTiming({ callStart: 1000, eventEnd: 1600 }), { start: { ms: 1000, from: "call" }, end: { ms: 1600, from: "event" } });
  assert.deepEqual(callTiming({}), {});
  // An end stamped when the call's whole batch ended (Gemini CLI): on the lines' clock, a duration kept, its end's source batch.
  assert.deepEqual(callTiming({ eventStart: 1000, eventEnd: 1900, eventEndBatch: true }), { start: { ms: 1000, from: "event" }, end: { ms: 1900, from: "batch" }, durationMs: 900 });
  assert.deepEqual(callTiming({ eventEnd: 1900, eventEndBatch: true }), { end: { ms: 1900, from: "batch" } });
  assert.equal(spanOf(5, 5), 0);
  assert.equal(spanOf(6, 5), undefined);
  // A time written as a string of digits is a time; anything else is none.
  assert.equal(msOf("1760000000000"), 1760000000000);
  assert.equal(msOf(12.5), 12.5);
  for (const v of ["", "1e3", "-5", "12.5", Infinity, NaN, null, true, {}]) assert.equal(msOf(v), undefined, String(v));
});

test("time rule through the dialect: a string startedAtMs later than its completion gives the lines' duration, as every output prints it", () => {
  const t = tell([
    init(S),
    toolCallEvent(S, "started", "c1", { shellToolCall: { args: { command: "ls" } }, startedAtMs: "1760000002500" }, 1760000000000),
    toolCallEvent(S, "completed", "c1", { shellToolCall: { result: { success: { exitCode: 0 } } }, startedAtMs: "1760000002500", completedAtMs: "1760000002000" }, 1760000002000),
    result(S),
  ]);
  const c = t.done[0]!;
  assert.deepEqual(c.timing, { start: { ms: 1760000000000, from: "event" }, end: { ms: 1760000002000, from: "event" }, durationMs: 2000 });
  assert.equal(c.exitStatus, 0);
  assert.equal(c.startLine, 2);
  assert.equal(c.endLine, 3);
});

test("status rule: one bin per outcome, the agent's word kept beside it", () => {
  const t = tell([
    init(S),
    ...["a", "b", "c", "d", "e", "f", "g"].map((id) => started(S, id, "shellToolCall", { command: id })),
    completed(S, "a", "shellToolCall", { result: { success: { exitCode: 0 } } }),
    completed(S, "b", "shellToolCall", { result: { failure: { exitCode: 2 } } }),
    completed(S, "c", "shellToolCall", { result: { rejected: { reason: "no" } } }),
    completed(S, "d", "shellToolCall", { result: { permissionDenied: { error: "blocked" } } }),
    completed(S, "e", "shellToolCall", { result: { timeout: {} } }),
    completed(S, "f", "shellToolCall", {}),
    result(S),
  ]);
  assert.deepEqual(
    t.done.map((c) => [c.id, c.status, c.arm, c.note()]),
    [
      ["a", "ok", "success", ""],
      ["b", "failed", "failure", "failed, exit 2"],
      ["c", "refused", "rejected", "rejected: no"],
      ["d", "refused", "permissionDenied", "permission denied"],
      ["e", "failed", "timeout", "timed out"],
      ["f", "no-result", undefined, "no result"],
    ],
  );
  // The call never completed: open, in the run's open calls at its end.
  assert.deepEqual(
    t.open.map((c) => [c.id, c.status, c.label, c.target]),
    [["g", "open", "Ran terminal command", "g"]],
  );
});

test("background rule: a shell with a shellId and a subagent task flagged isBackground are background tasks; the end counts from the call's start", () => {
  const t = tell([
    init(S),
    toolCallEvent(S, "started", "sh", { shellToolCall: { args: { command: "npm run slow", isBackground: true } }, startedAtMs: "1000" }, 1000),
    toolCallEvent(S, "completed", "sh", { shellToolCall: { result: { success: { shellId: 41, exitCode: 0 } } }, isBackground: true, startedAtMs: "1000", completedAtMs: "2000" }, 2000),
    toolCallEvent(S, "started", "tk", { taskToolCall: { args: { description: "look around" } } }, 2100),
    toolCallEvent(S, "completed", "tk", { taskToolCall: { result: { success: { agentId: "ag-1", isBackground: true } } } }, 2200),
    toolCallEvent(S, "started", "fg", { shellToolCall: { args: { command: "ls" } } }, 2300),
    toolCallEvent(S, "completed", "fg", { shellToolCall: { result: { success: { exitCode: 0 } } } }, 2400),
    { type: "system", subtype: "task_notification", task_id: "41", status: "success", title: "npm run slow", session_id: S, timestamp_ms: 18000 },
    { type: "system", subtype: "task_notification", task_id: "ag-1", status: "success", session_id: S, timestamp_ms: 9000 },
    { type: "system", subtype: "task_notification", task_id: "99", status: "error", title: "gone", session_id: S },
    result(S),
  ]);
  assert.deepEqual(
    t.done.map((c) => [c.id, c.backgroundTask]),
    [
      ["sh", "41"],
      ["tk", "ag-1"],
      ["fg", undefined],
    ],
  );
  assert.deepEqual(
    t.ends.map((e) => [e.taskId, e.call?.id, e.status, e.durationMs, e.at?.ms, e.line]),
    [
      ["41", "sh", "success", 17000, 18000, 8],
      ["ag-1", "tk", "success", 6900, 9000, 9],
      ["99", undefined, "error", undefined, undefined, 10],
    ],
  );
  assert.equal(t.runs[0]!.backgroundCount, 2);
  assert.equal(t.runs[0]!.backgroundEnded, 2);
});

test("run rule: start and end are the earliest and latest times of the run, from any line or call; outcome from the result", () => {
  const t = tell([
    init(S, { cwd: "/w", model: "gpt-5" }),
    user(S, "do it"),
    toolCallEvent(S, "started", "c", { readToolCall: { args: { path: "/w/a" } }, startedAtMs: "900" }, 1000),
    toolCallEvent(S, "completed", "c", { readToolCall: { result: { success: {} } }, startedAtMs: "900", completedAtMs: "5000" }, 1100),
    result(S, { is_error: true, result: "it broke" }, { usage: { inputTokens: 10, outputTokens: 2 } }),
    init("second"),
    { type: "assistant", message: { content: [{ type: "text", text: "hi" }] }, session_id: "second", timestamp_ms: 7000 },
  ]);
  const [a, b] = t.runs;
  assert.deepEqual([a!.index, a!.sessionId, a!.model, a!.cwd, a!.prompt], [1, S, "gpt-5", "/w", "do it"]);
  assert.deepEqual([a!.start, a!.end], [{ ms: 900, from: "call" }, { ms: 5000, from: "call" }]);
  assert.deepEqual([a!.outcome, a!.failure], ["failed", "it broke"]);
  // What the result states, as written (types checked, values not): outputs print these, never the line.
  assert.deepEqual(a!.stated, { subtype: "success", text: "it broke", requestId: undefined, durationMs: undefined, apiDurationMs: undefined });
  assert.equal(b!.stated, undefined, "a run cut off states nothing");
  assert.deepEqual(a!.usage, { scope: "run", inputTokens: 10, outputTokens: 2, raw: { inputTokens: 10, outputTokens: 2 } });
  assert.deepEqual([b!.outcome, b!.start, b!.end, b!.startLine, b!.lastLine], ["cut-off", { ms: 7000, from: "event" }, { ms: 7000, from: "event" }, 6, 7]);
  // The driver told each once: the failed run (exit 1) and the run cut off (a warning here).
  assert.equal(t.code, 1);
  assert.match(t.stderr, /session 5e55 ended with an error \(is_error: true, subtype success\): it broke/);
  assert.match(t.stderr, /warning \(at t\.ndjson:7\): session second has no result: its lines end at line 7, no tool call open/);
  assert.equal(t.stderr.split("\n").filter(Boolean).length, 2);
});

test("text rule: deltas are pending until the whole message repeats them; a tool call keeps them; the final message follows the last call", () => {
  const t = tell([
    init(S),
    assistant("Hel", { session_id: S, timestamp_ms: 1 }),
    assistant("lo", { session_id: S, timestamp_ms: 2 }),
    assistant("Hello", { session_id: S, model_call_id: "m1" }),
    assistant("Par", { session_id: S, timestamp_ms: 3 }),
    started(S, "c", "readToolCall", { path: "x" }),
    completed(S, "c", "readToolCall", { result: { success: {} } }),
    assistant(" done", { session_id: S }),
    result(S),
  ]);
  const text = new RunText();
  for (const s of t.steps) text.observe(s);
  assert.equal(text.text(), "HelloPar done");
  assert.equal(text.finalMessage(), " done");
});

test("text rule: a subagent's lines (Step.parentId) are not the run's text, and their calls do not end its final message", () => {
  const t = tell([init(S), result(S)]);
  const run = t.runs[0]!;
  const text = new RunText();
  text.observe({ run, text: { text: "Launched.", delta: false } });
  text.observe({ run, parentId: "toolu_1", text: { text: "sub says", delta: false } });
  text.observe({ run, parentId: "toolu_1", calls: [] });
  assert.equal(text.text(), "Launched.");
  assert.equal(text.finalMessage(), "Launched.");
});

test("text rule: a line with text and calls (a message's text, then its tool_use blocks) keeps the text; the final message follows the calls", () => {
  const t = tell([init(S), result(S)]);
  const run = t.runs[0]!;
  const text = new RunText();
  text.observe({ run, text: { text: "Checking.", delta: false }, calls: [] });
  assert.equal(text.finalMessage(), "");
  text.observe({ run, text: { text: "Done.", delta: false } });
  assert.equal(text.text(), "Checking.Done.");
  assert.equal(text.finalMessage(), "Done.");
});

test("driver: a run ends once (its result, then the next run's init does not end it again); a file with no run is exit 4", () => {
  const t = tell([init("a"), result("a"), init("b"), result("b")]);
  assert.deepEqual(t.runs.map((r) => [r.index, r.outcome]), [
    [1, "finished"],
    [2, "finished"],
  ]);
  assert.equal(t.code, 0);
  const empty = tell([]);
  assert.equal(empty.code, 4);
  assert.match(empty.stderr, /error \(at t\.ndjson\): no session in the input/);
});

test("dialects: the registry names each dialect by its agent, Claude Code's tried first; cursor-agent's recognises its own events and refuses another agent's", async () => {
  const { DIALECTS, dialectOf } = await import("../src/dialects/index.js");
  // Claude Code's first, then Codex's and Gemini CLI's: cursor-agent's takes any event no other dialect claims.
  assert.deepEqual(DIALECTS.map((d) => d.agent), ["claude", "codex", "gemini", "cursor"]);
  const cursor = dialectOf("cursor")!;
  assert.equal(cursor.name, "cursor-agent stream-json");
  assert.equal(dialectOf("claude")!.name, "Claude Code stream-json");
  assert.equal(dialectOf("codex")!.name, "Codex exec --json");
  assert.equal(dialectOf("gemini")!.name, "Gemini CLI stream-json");
  assert.equal(cursor.recognise({ type: "system", subtype: "init", session_id: "s" }), true);
  assert.equal(cursor.recognise({ type: "system", subtype: "init", tools: ["Bash"] }), false, "Claude Code's init lists its tools");
  assert.equal(cursor.recognise({ type: "thread.started", thread_id: "t" }), false, "Codex");
  assert.equal(cursor.recognise({ nothing: 1 }), undefined, "cannot tell yet");
});
