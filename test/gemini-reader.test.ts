// The Gemini CLI dialect (src/dialects/gemini/), driven directly over the fixtures of
// test/fixtures/gemini/ and a few hand-built lines in the shapes of /work/shared/AGENTS.md §3:
// recognition, runs and their boundaries, calls and their facts (kinds, labels, targets,
// statuses, no exit code, file changes), times and their sources (a batch's results stamped at
// its end), usage with its per-model stats, text, failure.
import assert from "node:assert/strict";
import { test } from "node:test";
import { geminiDialect } from "../src/dialects/gemini/reader.js";
import type { ReaderOptions } from "../src/dialects/dialect.js";
import type { JsonObject, JsonRecord } from "../src/input/record.js";
import type { Call } from "../src/model/call.js";
import type { Run, Step } from "../src/model/run.js";
import { RunText } from "../src/model/text.js";
import { fixtureRecords, recordsOf } from "./helpers/records.js";

const G = "test/fixtures/gemini";

interface Read {
  steps: Step[];
  last: Run | undefined;
  /** Every run begun, in order. */
  runs: Run[];
  /** The Calls told `done`, in order. */
  done: Call[];
}

function readRecords(records: JsonRecord[], opts: ReaderOptions = {}): Read {
  const reader = geminiDialect.reader(opts);
  const steps = records.map((r) => reader.read(r));
  const runs = steps.filter((s) => s.begun === true).map((s) => s.run);
  const done = steps.flatMap((s) => (s.calls ?? []).filter((e) => e.what === "done").map((e) => e.call));
  return { steps, runs, done, last: reader.endFile(records.at(-1)?.line ?? 0) };
}

const readFixture = (name: string, opts?: ReaderOptions): Read => readRecords(fixtureRecords(`${G}/${name}.ndjson`), opts);

const iso = (ms: number) => new Date(ms).toISOString();

test("recognise: an init with an ISO timestamp and no subtype is Gemini CLI's; cursor-agent's and Claude Code's system/init are not; other lines cannot tell", () => {
  assert.equal(geminiDialect.recognise({ type: "init", timestamp: "2026-03-19T04:50:00.100Z", session_id: "s", model: "auto" }), true);
  assert.equal(geminiDialect.recognise({ type: "init", timestamp: "yesterday", session_id: "s" }), false);
  assert.equal(geminiDialect.recognise({ type: "init", subtype: "x", timestamp: "2026-03-19T04:50:00.100Z" }), false);
  assert.equal(geminiDialect.recognise({ type: "system", subtype: "init", session_id: "s", model: "m" }), undefined);
  // A capture cut at its start: its first line is another of Gemini CLI's, ISO time and all.
  assert.equal(geminiDialect.recognise({ type: "message", timestamp: "2026-03-19T04:50:00.100Z", role: "user", content: "x" }), true);
  assert.equal(geminiDialect.recognise({ type: "tool_result", timestamp: "2026-03-19T04:50:00.100Z", tool_id: "t", status: "success" }), true);
  assert.equal(geminiDialect.recognise({ type: "result", timestamp: "2026-03-19T04:50:00.100Z", status: "success" }), true);
  // cursor-agent's and Claude Code's lines: a subtype, timestamp_ms, or no ISO timestamp.
  assert.equal(geminiDialect.recognise({ type: "result", subtype: "success", timestamp: "2026-03-19T04:50:00.100Z", status: "x" }), undefined);
  assert.equal(geminiDialect.recognise({ type: "user", timestamp: "2026-03-19T04:50:00.100Z", message: {} }), undefined);
  assert.equal(geminiDialect.recognise({ type: "tool_call", subtype: "started", call_id: "c", timestamp_ms: 1 }), undefined);
});

test("batch: kinds and labels in cursor-agent's words, targets, every call ok; the results of a batch of several calls stamped at its end (source batch), a duration kept", () => {
  const r = readFixture("batch");
  assert.equal(r.runs.length, 1);
  const rows = r.done.map((c) => [c.tool, c.kind, c.label, c.target, c.targetIsPath, c.status, c.arm, c.exitStatus]);
  assert.deepEqual(rows, [
    ["read_file", "read", "Read file", "/home/dev/app/src/parser.ts", true, "ok", "success", undefined],
    ["grep_search", "grep", "Searched file contents", "parseLine\\( in /home/dev/app/src", true, "ok", "success", undefined],
    ["list_directory", "ls", "Listed directory", "/home/dev/app/test", true, "ok", "success", undefined],
    ["glob", "glob", "Searched for files", "**/*.test.ts", false, "ok", "success", undefined],
    ["read_many_files", "read", "Read file", "README.md docs/*.md", false, "ok", "success", undefined],
    ["replace", "edit", "Edited file", "/home/dev/app/src/parser.ts", true, "ok", "success", undefined],
    ["write_file", "edit", "Edited file", "/home/dev/app/test/parser.test.ts", true, "ok", "success", undefined],
  ]);
  const first = r.done[0]!;
  assert.equal(first.timing.start?.from, "event");
  assert.equal(first.timing.end?.from, "batch");
  assert.equal(iso(first.timing.start!.ms), "2026-11-02T09:00:01.996Z");
  assert.equal(iso(first.timing.end!.ms), "2026-11-02T09:00:03.981Z");
  assert.equal(first.timing.durationMs, 1985);
  // Every call of the batch ends within 2 ms: the batch's end, not each call's own.
  const ends = r.done.slice(0, 5).map((c) => c.timing.end!.ms);
  assert.ok(Math.max(...ends) - Math.min(...ends) <= 2);
  assert.deepEqual(
    r.done.map((c) => [c.seq, c.startLine, c.endLine]),
    [
      [1, 5, 10],
      [2, 6, 11],
      [3, 7, 12],
      [4, 8, 13],
      [5, 9, 14],
      [6, 16, 18],
      [7, 17, 19],
    ],
  );
});

test("a batch of one call: its result's time is the line's own (source event)", () => {
  const r = readFixture("shell-fails");
  for (const c of r.done) {
    assert.equal(c.timing.start?.from, "event");
    assert.equal(c.timing.end?.from, "event");
  }
});

test("file changes: write_file's content is the file after it (before not in the log); replace is an edit of its path with no content", () => {
  const r = readFixture("batch");
  const replace = r.done[5]!;
  const write = r.done[6]!;
  assert.deepEqual(replace.fileChange(), { op: "edit", path: "/home/dev/app/src/parser.ts" });
  const w = write.fileChange()!;
  assert.equal(w.op, "edit");
  assert.equal(w.path, "/home/dev/app/test/parser.test.ts");
  assert.equal(w.before, undefined);
  assert.match(w.after!, /^import \{ parseLine \}/);
  assert.equal(replace.writesFiles, true);
  assert.equal(r.done[0]!.writesFiles, false);
});

test("a failing shell command reported success is ok, with no exit code; its output is what it said", () => {
  const r = readFixture("shell-fails");
  assert.deepEqual(
    r.done.map((c) => [c.target, c.status, c.exitStatus, c.note()]),
    [
      ["npm test", "ok", undefined, ""],
      ["grep -q TODO src/parser.ts", "ok", undefined, ""],
      ["npm run dev", "ok", undefined, ""],
    ],
  );
  assert.match(r.done[0]!.failureText()!.text, /ℹ fail 1$/);
  assert.equal(r.done[1]!.failureText()!.text, "Command exited with code: 1");
  assert.equal(r.done[2]!.backgroundTask, undefined);
});

test("a policy_violation is refused; other errors failed, their error type the arm, their message the note", () => {
  const r = readFixture("denied");
  assert.deepEqual(
    r.done.map((c) => [c.tool, c.status, c.arm, c.note()]),
    [
      ["run_shell_command", "refused", "policy_violation", "permission denied: Tool execution denied by policy. Deleting files needs approval."],
      ["read_file", "failed", "file_not_found", "error: File not found: /home/dev/app/src/missing.ts"],
      ["replace", "failed", "edit_no_occurrence_found", "error: Failed to edit, 0 occurrences found for old_string in /home/dev/app/src/parser.ts. No edits made. The exact text in old…"],
    ],
  );
  assert.deepEqual(r.done[0]!.failureText(), { text: "Tool execution denied by policy. Deleting files needs approval.", from: "error", inNote: true });
  assert.equal(r.done[2]!.fileChange(), undefined);
  assert.deepEqual(r.done[0]!.outcome, { status: "error", error: { type: "policy_violation", message: "Tool execution denied by policy. Deleting files needs approval." } });
  assert.equal(r.runs[0]!.outcome, "finished");
});

test("error events of severity warning or error are not the end: the run goes on to its result", () => {
  const r = readFixture("warnings");
  assert.equal(r.runs.length, 1);
  assert.equal(r.done.length, 2);
  assert.equal(r.runs[0]!.outcome, "finished");
  assert.equal(r.runs[0]!.failure, undefined);
});

test("a fatal tool error: the call failed, the run failed with the result's error message, and its duration_ms 0 is no duration", () => {
  const r = readFixture("fatal");
  const run = r.runs[0]!;
  assert.equal(r.done[0]!.status, "failed");
  assert.equal(r.done[0]!.arm, "no_space_left");
  assert.equal(run.outcome, "failed");
  assert.equal(run.failure, "Error executing tool write_file: ENOSPC: no space left on device, write");
  assert.equal(run.statedDurationMs, undefined);
  assert.equal(run.stated?.subtype, "error");
  assert.equal(run.stated?.durationMs, undefined);
});

test("a run cut off: no result, its call left open, its text the chunks so far", () => {
  const r = readFixture("cut-off");
  const run = r.last!;
  assert.equal(run, r.runs[0]);
  assert.equal(run.outcome, "cut-off");
  assert.equal(run.openCount, 1);
  const [open] = run.openCalls();
  assert.equal(open!.status, "open");
  assert.equal(open!.target, "make release");
  assert.equal(open!.timing.end, undefined);
  assert.equal((run as unknown as { text: string }).text, "Building the release.");
  assert.equal(run.lastLine, 5);
});

test("usage: the result's stats, their own names and per-model stats kept; no cost", () => {
  const r = readFixture("models");
  const run = r.runs[0]!;
  const stats = fixtureRecords(`${G}/models.ndjson`).at(-1)!.value.stats as JsonObject;
  // The model's input is the uncached part (Gemini CLI's `input`), as cursor-agent's and Claude Code's.
  assert.deepEqual(run.usage, { scope: "run", raw: stats, inputTokens: stats.input, outputTokens: stats.output_tokens, cacheReadTokens: stats.cached });
  assert.equal((stats.input_tokens as number) - (stats.cached as number), stats.input);
  assert.deepEqual(Object.keys(stats.models as JsonObject), ["gemini-2.5-flash-lite", "gemini-3-pro-preview"]);
  assert.equal(run.cost, undefined);
  assert.equal(run.model, "auto-gemini-3");
  assert.equal(run.statedDurationMs, stats.duration_ms);
  assert.deepEqual(
    r.done.map((c) => [c.tool, c.kind, c.label, c.target]),
    [
      ["google_web_search", "webSearch", "Searched the web", "node 22 test runner snapshot"],
      ["web_fetch", "webFetch", "Fetched web page", "Summarise https://nodejs.org/api/test.html#snapshot-testing"],
      ["mcp_github_list_issues", "mcp", "Called MCP tool", "github_list_issues"],
      ["write_todos", "updateTodos", "Updated todos", "3 todos"],
      ["invoke_agent", "task", "Ran subagent task", "codebase_investigator"],
    ],
  );
  assert.deepEqual(r.done[2]!.mcp, { server: undefined, tool: undefined });
});

test("two runs in one file: each with its session, the second begun by its init; an old era's stats without cached are read as stated", () => {
  const r = readFixture("two-runs");
  assert.equal(r.runs.length, 2);
  const [a, b] = r.runs as [Run, Run];
  assert.notEqual(a.sessionId, b.sessionId);
  assert.equal(a.startLine, 1);
  assert.equal(a.lastLine, 7);
  assert.equal(b.startLine, 8);
  assert.equal(a.outcome, "finished");
  assert.equal(b.outcome, "failed");
  // The invalid stream's result has no error member: its reason is the error event before it.
  assert.equal(b.failure, "Invalid stream: The model returned an empty response or malformed tool call.");
  assert.equal(b.statedDurationMs, 993);
  // Before `cached` was written: input_tokens, no cache read stated.
  assert.equal(a.usage?.cacheReadTokens, undefined);
  assert.equal(a.usage?.inputTokens, 17982);
  assert.equal(a.prompt, "what is in this repo?");
  assert.equal(b.prompt, "summarise the README");
  const begun = r.steps.find((s) => s.begun === true && s.run === b)!;
  assert.equal(begun.ended, a);
});

test("text: the assistant chunks joined are the run's text; the final message is what came after the last call", () => {
  const r = readFixture("batch");
  const text = new RunText();
  for (const s of r.steps) text.observe(s);
  text.end();
  assert.equal(text.text(), "I'll look at the parser and its callers first.The `slice(1)` drops the first field. Fixing it and adding a test.Fixed: `parseLine` now keeps the first field, and `test/parser.test.ts` covers it.");
  assert.equal(text.finalMessage(), "Fixed: `parseLine` now keeps the first field, and `test/parser.test.ts` covers it.");
  assert.equal(r.runs[0]!.stated?.text, text.text());
  assert.equal(r.runs[0]!.prompt, "parseLine drops the first field: fix it and add a test");
});

test("hand-built: a result without a start, numbered when asked; a tool_result with no status is no-result; a second tool_use of an open id is a restart", () => {
  const t = (s: number) => `2026-03-19T04:50:0${s}.000Z`;
  const lines: JsonObject[] = [
    { type: "init", timestamp: t(0), session_id: "s", model: "m" },
    { type: "tool_use", timestamp: t(1), tool_name: "glob", tool_id: "a", parameters: { pattern: "*" } },
    { type: "tool_use", timestamp: t(1), tool_name: "glob", tool_id: "a", parameters: { pattern: "*" } },
    { type: "tool_result", timestamp: t(2), tool_id: "a" },
    { type: "tool_result", timestamp: t(3), tool_id: "zz", status: "success" },
    { type: "result", timestamp: t(4), status: "success", stats: { duration_ms: 4000 } },
  ];
  const r = readRecords(recordsOf(lines, "h.ndjson"), { numberUnstarted: true });
  const what = r.steps.flatMap((s) => (s.calls ?? []).map((e) => `${e.what} ${e.call.id} ${e.call.seq} ${e.call.status}`));
  assert.deepEqual(what, ["started a 1 open", "restarted a 1 open", "done a 1 no-result", "done zz 2 ok"]);
  assert.equal(r.done[1]!.tool, "unknown");
  // A batch of one (the restart is not a second call): its end is the line's own time.
  assert.equal(r.done[0]!.timing.end?.from, "event");
});

test("maxOpen: past it, starts are only counted", () => {
  const lines: JsonObject[] = [{ type: "init", timestamp: "2026-03-19T04:50:00.000Z", session_id: "s", model: "m" }];
  for (let i = 0; i < 5; i++) lines.push({ type: "tool_use", timestamp: "2026-03-19T04:50:01.000Z", tool_name: "read_file", tool_id: `t${i}`, parameters: { file_path: `/f${i}` } });
  const r = readRecords(recordsOf(lines, "m.ndjson"), { maxOpen: 2 });
  const run = r.last!;
  assert.equal(run.openCount, 5);
  assert.equal(run.openCalls().length, 2);
  assert.equal(run.startedCount, 5);
});
