// The Claude Code dialect (src/dialects/claude/), driven directly over hand-built lines in the
// shapes of /work/shared/AGENTS.md §1: recognition, runs and their boundaries, calls and their
// facts (kinds, targets, statuses, exit codes, file changes, subagents, background tasks), times,
// usage and cost, text, and the lines an output may skip.
import { KEPT_TARGET_MAX } from "../src/dialects/claude/tools.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { claudeDialect } from "../src/dialects/claude/reader.js";
import { applyHunks } from "../src/dialects/claude/file-change.js";
import { isoMs } from "../src/dialects/claude/lines.js";
import type { ReaderOptions } from "../src/dialects/dialect.js";
import { soundLine } from "../src/input/line-splitter.js";
import type { JsonObject, JsonRecord } from "../src/input/record.js";
import type { Call } from "../src/model/call.js";
import type { CallEvent, Run, Step } from "../src/model/run.js";
import { RunText } from "../src/model/text.js";
import {
  assistant,
  bashResult,
  commandsChanged,
  hookResponse,
  hookStarted,
  init,
  MESSAGE_USAGE,
  permissionDenied,
  rateLimit,
  result,
  RESULT_USAGE,
  system,
  taskNotification,
  taskStarted,
  taskUpdated,
  text,
  textDelta,
  thinking,
  toolResult,
  toolUse,
  user,
  type Ev,
} from "./helpers/claude-events.js";
import { recordsOf } from "./helpers/records.js";

const S = "5e55-c1a0";
/** 2026-10-01T12:00:00.000Z */
const T = Date.UTC(2026, 9, 1, 12, 0, 0);

interface Read {
  steps: Step[];
  /** What endFile returned. */
  last: Run | undefined;
}

/** Reads `events` as lines 1, 2, … of one file through a fresh reader, then ends the file. */
function read(events: Ev[], opts: ReaderOptions = {}): Read {
  const reader = claudeDialect.reader(opts);
  const steps = recordsOf(events, "c.ndjson").map((r) => reader.read(r));
  return { steps, last: reader.endFile(events.length) };
}

/** Every call event of the steps, in order. */
function events(steps: Step[]): CallEvent[] {
  return steps.flatMap((s) => s.calls ?? []);
}

/** The calls completed, by id. */
function done(steps: Step[]): Map<string, Call> {
  return new Map(
    events(steps)
      .filter((e) => e.what === "done")
      .map((e) => [e.call.id, e.call]),
  );
}

test("recognise: Claude Code's own lines, hooks and commands before the init; no for cursor-agent, Codex, Gemini and the look-alikes; undefined when a line cannot tell", () => {
  const r = claudeDialect.recognise;
  assert.equal(r(init(S)), true);
  assert.equal(r(hookStarted(S)), true);
  assert.equal(r(hookResponse(S)), true);
  assert.equal(r(commandsChanged(S)), true);
  assert.equal(r(assistant(S, "msg_01", [text("hi")])), true);
  assert.equal(r({ type: "assistant", message: { content: [thinking()] } }), true);
  assert.equal(r(user(S, [toolResult("toolu_1", "ok")], { early: true })), true);
  assert.equal(r(result(S)), true);
  assert.equal(r(rateLimit(S)), true);
  assert.equal(r({ type: "system", subtype: "task_notification", task_id: "b1", status: "completed", uuid: "u", session_id: S }), true);
  // Qwen Code: Claude's envelope, its own version key, Gemini's tool names.
  assert.equal(r({ ...init(S), qwen_code_version: "0.9.0", claude_code_version: undefined }), false);
  assert.equal(r(assistant(S, "msg_02", [toolUse("t1", "run_shell_command", { command: "ls" })])), false);
  // Amp: session ids "T-…".
  assert.equal(r(init("T-abc")), false);
  // cursor-agent: its init lists no tools; its own types and fields.
  assert.equal(r({ type: "system", subtype: "init", apiKeySource: "login", cwd: "/w", session_id: S, model: "Auto", permissionMode: "default" }), false);
  assert.equal(r({ type: "thinking", subtype: "delta", text: "x", session_id: S, timestamp_ms: 1 }), false);
  assert.equal(r({ type: "tool_call", subtype: "started", call_id: "c", tool_call: {}, session_id: S }), false);
  assert.equal(r({ type: "system", subtype: "task_notification", task_id: "41", status: "success", title: "t", session_id: S, timestamp_ms: 5 }), false);
  // Codex, Gemini CLI.
  assert.equal(r({ type: "thread.started", thread_id: "x" }), false);
  assert.equal(r({ type: "init", timestamp: "2026-03-19T04:50:00.100Z", session_id: "s", model: "auto" }), false);
  // Cannot tell: a bare text message, a result without cost or turns, an unknown type, no type.
  assert.equal(r({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "hi" }] }, session_id: S }), undefined);
  assert.equal(r({ type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] }, session_id: S }), undefined);
  assert.equal(r({ type: "result", subtype: "success", is_error: false, session_id: S }), undefined);
  assert.equal(r({ type: "hologram" }), undefined);
  assert.equal(r({ message: "x" }), undefined);
});

test("a log that opens with hook events and commands_changed: one run from the first line; the init names it", () => {
  const { steps, last } = read([hookStarted(S), hookResponse(S), commandsChanged(S), init(S, { cwd: "/w/p", model: "claude-haiku-4-5", permissionMode: "bypassPermissions" }), commandsChanged(S), assistant(S, "msg_1", [text("DONE")]), result(S)]);
  const run = steps[0]!.run;
  assert.ok(steps.every((s) => s.run === run));
  assert.deepEqual(
    steps.map((s) => [s.begun, s.init, s.result]),
    [[true, undefined, undefined], [undefined, undefined, undefined], [undefined, undefined, undefined], [undefined, true, undefined], [undefined, undefined, undefined], [undefined, undefined, undefined], [undefined, undefined, true]],
  );
  assert.equal(run.agent, "claude");
  assert.equal(run.index, 1);
  assert.equal(run.startLine, 1);
  assert.equal(run.lastLine, 7);
  assert.equal(run.sessionId, S);
  assert.equal(run.model, "claude-haiku-4-5");
  assert.equal(run.cwd, "/w/p");
  assert.equal(run.permissionMode, "bypassPermissions");
  assert.equal(run.prompt, undefined);
  assert.equal(run.outcome, "finished");
  assert.equal(last, run);
  assert.deepEqual(steps[5]!.text, { text: "DONE", delta: false });
});

test("Bash: a success (exit 0) and a failure whose exit code is read from its text; the start's Call has the whole input, the completion what was kept", () => {
  const input = { command: "make test", description: "Run tests" };
  const fail = "Exit code 127\n/bin/bash: nosuch: command not found";
  const { steps } = read([
    init(S),
    assistant(S, "msg_1", [toolUse("toolu_1", "Bash", input)]),
    user(S, [toolResult("toolu_1", "ok", false)], { toolUseResult: bashResult("ok") }),
    assistant(S, "msg_2", [toolUse("toolu_2", "Bash", { command: "nosuch" })]),
    user(S, [toolResult("toolu_2", fail, true)], { toolUseResult: `Error: ${fail}` }),
    result(S),
  ]);
  const start = steps[1]!.calls![0]!;
  assert.equal(start.what, "started");
  const s = start.call;
  assert.deepEqual([s.id, s.seq, s.tool, s.kind, s.label, s.target, s.status, s.arm, s.note(), s.args, s.argsCut, s.startLine, s.endLine, s.responseId, s.exitStatus], [
    "toolu_1", 1, "Bash", "shell", "Ran terminal command", "make test", "open", undefined, "", input, false, 2, undefined, "msg_1", undefined,
  ]);
  assert.equal(s.args, input, "the input as logged, not a copy");
  const ok = done(steps).get("toolu_1")!;
  assert.deepEqual([ok.seq, ok.kind, ok.label, ok.target, ok.status, ok.arm, ok.note(), ok.exitStatus, ok.signal, ok.args, ok.argsCut, ok.startLine, ok.endLine, ok.startTool, ok.backgroundTask, ok.parentId], [
    1, "shell", "Ran terminal command", "make test", "ok", undefined, "", 0, undefined, { command: "make test" }, true, 2, 3, "Bash", undefined, undefined,
  ]);
  assert.deepEqual(ok.outcome, bashResult("ok"));
  assert.deepEqual(ok.failureText(), { text: "ok", from: "output" });
  assert.deepEqual(ok.timing, {});
  const bad = done(steps).get("toolu_2")!;
  assert.deepEqual([bad.seq, bad.status, bad.arm, bad.note(), bad.exitStatus, bad.outcome, bad.fileChange()], [2, "failed", undefined, "failed, exit 127", 127, undefined, undefined]);
  assert.deepEqual(bad.failureText(), { text: fail, from: "output" });
});

test("Read, Write (create and update), Edit: kinds, labels, targets, and the file change the result holds", () => {
  const created = "hello\nworld\n";
  const { steps } = read([
    init(S),
    assistant(S, "m1", [toolUse("r", "Read", { file_path: "/p/a.txt" })]),
    user(S, [toolResult("r", "     1\tone")], { toolUseResult: { type: "text", file: { filePath: "/p/a.txt", content: "one\n", numLines: 1, startLine: 1, totalLines: 1 } } }),
    assistant(S, "m2", [toolUse("w1", "Write", { file_path: "/p/new.txt", content: created })]),
    user(S, [toolResult("w1", "File created successfully at: /p/new.txt")], { toolUseResult: { type: "create", filePath: "/p/new.txt", content: created, structuredPatch: [], originalFile: null, userModified: false } }),
    assistant(S, "m3", [toolUse("w2", "Write", { file_path: "/p/a.txt", content: "one\nTWO\n" })]),
    user(S, [toolResult("w2", "The file /p/a.txt has been updated.")], {
      toolUseResult: { type: "update", filePath: "/p/a.txt", content: "one\nTWO\n", structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" one", "-two", "+TWO"] }], originalFile: "one\ntwo\n", userModified: false },
    }),
    assistant(S, "m4", [toolUse("e1", "Edit", { file_path: "/p/b.ts", old_string: "let x = 1;", new_string: "let x = 2;", replace_all: false })]),
    user(S, [toolResult("e1", "The file /p/b.ts has been updated.")], {
      toolUseResult: {
        filePath: "/p/b.ts",
        oldString: "let x = 1;",
        newString: "let x = 2;",
        originalFile: "a\nlet x = 1;\nb\n",
        structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" a", "-let x = 1;", "+let x = 2;", " b"] }],
        userModified: false,
        replaceAll: false,
      },
    }),
    assistant(S, "m5", [toolUse("e2", "Edit", { file_path: "/p/c.txt", old_string: "y", new_string: "Y", replace_all: false })]),
    user(S, [toolResult("e2", "ok")], { toolUseResult: { filePath: "/p/c.txt", oldString: "y", newString: "Y", originalFile: "x y x", userModified: false, replaceAll: false } }),
    assistant(S, "m6", [toolUse("e3", "Edit", { file_path: "/p/c.txt", old_string: "x", new_string: "Z", replace_all: false })]),
    user(S, [toolResult("e3", "ok")], { toolUseResult: { filePath: "/p/c.txt", oldString: "x", newString: "Z", originalFile: "x y x", userModified: false, replaceAll: false } }),
    assistant(S, "m7", [toolUse("e4", "Edit", { file_path: "/p/c.txt", old_string: "x", new_string: "Z", replace_all: true })]),
    user(S, [toolResult("e4", "ok")], { toolUseResult: { filePath: "/p/c.txt", oldString: "x", newString: "Z", originalFile: "x y x", userModified: false, replaceAll: true } }),
    assistant(S, "m8", [toolUse("e5", "Edit", { file_path: "/p/d.txt", old_string: "q", new_string: "r", replace_all: false })]),
    user(S, [toolResult("e5", "ok")], { toolUseResult: { filePath: "/p/d.txt", oldString: "q", newString: "r", originalFile: "not what the patch says\n", structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-q", "+r"] }] } }),
    assistant(S, "m9", [toolUse("e6", "Edit", { file_path: "/p/e.txt", old_string: "nope", new_string: "x", replace_all: false })]),
    user(S, [toolResult("e6", "<tool_use_error>String to replace not found in file.\nString: nope</tool_use_error>", true)], { toolUseResult: "Error: String to replace not found in file.\nString: nope" }),
    result(S),
  ]);
  const c = done(steps);
  const read_ = c.get("r")!;
  assert.deepEqual([read_.kind, read_.label, read_.target, read_.targetIsPath, read_.targetWith(() => "a.txt"), read_.writesFiles, read_.fileChange()], ["read", "Read file", "/p/a.txt", true, "a.txt", false, undefined]);
  // A Write is an edit as it starts; its result says whether it created the file.
  const wStart = steps[3]!.calls![0]!.call;
  assert.deepEqual([wStart.kind, wStart.label, wStart.writesFiles, wStart.fileChange()], ["edit", "Edited file", true, undefined]);
  const w1 = c.get("w1")!;
  assert.deepEqual([w1.kind, w1.label, w1.target], ["write", "Created new file", "/p/new.txt"]);
  assert.deepEqual(w1.fileChange(), { op: "create", path: "/p/new.txt", before: null, after: created, added: 2 });
  const w2 = c.get("w2")!;
  assert.deepEqual([w2.kind, w2.label], ["edit", "Edited file"]);
  assert.deepEqual(w2.fileChange(), { op: "edit", path: "/p/a.txt", before: "one\ntwo\n", after: "one\nTWO\n", diffString: "@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n", added: 1, removed: 1 });
  assert.deepEqual(c.get("e1")!.fileChange(), {
    op: "edit",
    path: "/p/b.ts",
    before: "a\nlet x = 1;\nb\n",
    after: "a\nlet x = 2;\nb\n",
    diffString: "@@ -1,3 +1,3 @@\n a\n-let x = 1;\n+let x = 2;\n b\n",
    added: 1,
    removed: 1,
  });
  // No patch logged: old → new applied when exact and unambiguous; two occurrences without replaceAll, no after.
  assert.deepEqual(c.get("e2")!.fileChange(), { op: "edit", path: "/p/c.txt", before: "x y x", after: "x Y x" });
  assert.deepEqual(c.get("e3")!.fileChange(), { op: "edit", path: "/p/c.txt", before: "x y x" });
  assert.deepEqual(c.get("e4")!.fileChange(), { op: "edit", path: "/p/c.txt", before: "x y x", after: "Z y Z" });
  // A patch that does not match the file it was made from: no after, the hunks as logged.
  assert.deepEqual(c.get("e5")!.fileChange(), { op: "edit", path: "/p/d.txt", before: "not what the patch says\n", diffString: "@@ -1 +1 @@\n-q\n+r\n", added: 1, removed: 1 });
  // A failed Edit: no change; its message without the <tool_use_error> wrapper.
  const e6 = c.get("e6")!;
  assert.deepEqual([e6.status, e6.note(), e6.exitStatus, e6.fileChange(), e6.outcome], ["failed", "error: String to replace not found in file.\nString: nope", undefined, undefined, undefined]);
  assert.deepEqual(e6.failureText(), { text: "String to replace not found in file.\nString: nope", from: "error" });
});

test("applyHunks: context and removals must match; a missing final newline on either side is kept as the hunks say", () => {
  const h = (oldStart: number, oldLines: number, newStart: number, newLines: number, lines: string[]) => ({ oldStart, oldLines, newStart, newLines, lines });
  assert.equal(applyHunks("a\nb\nc\nd", [h(1, 1, 1, 1, ["-a", "+z"])]), "z\nb\nc\nd");
  assert.equal(applyHunks("a\nb", [h(1, 2, 1, 2, [" a", "-b", "\\ No newline at end of file", "+c", "\\ No newline at end of file"])]), "a\nc");
  assert.equal(applyHunks("a", [h(1, 1, 1, 1, ["-a", "\\ No newline at end of file", "+a"])]), "a\n");
  assert.equal(applyHunks("a\n", [h(1, 1, 1, 1, ["-a", "+a", "\\ No newline at end of file"])]), "a");
  assert.equal(applyHunks("", [h(0, 0, 1, 2, ["+a", "+b"])]), "a\nb\n");
  assert.equal(applyHunks("a\nb\n", [h(2, 0, 3, 1, ["+c"])]), "a\nb\nc\n");
  assert.equal(applyHunks("a\n", [h(1, 1, 0, 0, ["-a"])]), "");
  assert.equal(applyHunks("a\nb\n", [h(1, 1, 1, 1, ["-b", "+c"])]), undefined);
  assert.equal(applyHunks("a\nb\n", [h(1, 2, 1, 2, ["-a", "+c"])]), undefined, "counts that are not the lines'");
});

test("a denial: permission_denied before the result, tool_result_meta on it: refused, with the agent's word; the result's permission_denials change nothing", () => {
  const msg = "Permission to use Bash with command rm -rf /tmp/x has been denied.";
  const { steps } = read([
    init(S),
    assistant(S, "m1", [toolUse("d1", "Bash", { command: "rm -rf /tmp/x" })]),
    permissionDenied(S, "d1", "Bash", msg),
    user(S, [toolResult("d1", msg, true)], { toolUseResult: `Error: ${msg}`, meta: [{ id: "d1", non_execution_kind: "permission-rule" }] }),
    assistant(S, "m2", [toolUse("d2", "Edit", { file_path: "/etc/hosts", old_string: "a", new_string: "b" })]),
    permissionDenied(S, "d2", "Edit", "Permission to use Edit has been denied."),
    user(S, [toolResult("d2", "Permission to use Edit has been denied.", true)]),
    result(S, { permission_denials: [{ tool_name: "Bash", tool_use_id: "d1", tool_input: { command: "rm -rf /tmp/x" } }] }),
  ]);
  assert.deepEqual([steps[2]!.calls, steps[2]!.notice], [undefined, undefined]);
  const c = done(steps);
  const d1 = c.get("d1")!;
  assert.deepEqual([d1.status, d1.arm, d1.note(), d1.exitStatus], ["refused", "permission-rule", `permission denied: ${msg}`, undefined]);
  assert.deepEqual(d1.failureText(), { text: msg, from: "error", inNote: true });
  const d2 = c.get("d2")!;
  assert.deepEqual([d2.status, d2.arm, d2.note(), d2.fileChange()], ["refused", "rule", "permission denied: Permission to use Edit has been denied.", undefined]);
  assert.equal(steps[0]!.run.outcome, "finished");
});

test("a PreToolUse hook's block, told by the failed tool_result's text alone (2.1.283: `PreToolUse:Edit hook error: <reason>`): refused, its word the hook's event; the same words without is_error, the plain reason (2.1.220) or the words inside the text are not a refusal", () => {
  const blocked = "PreToolUse:Edit hook error: dist/ is build output: edit src/ and run npm run build";
  const edit = { file_path: "/w/dist/index.html", old_string: "a", new_string: "b" };
  const { steps } = read([
    init(S),
    assistant(S, "m1", [toolUse("h1", "Edit", edit)]),
    user(S, [toolResult("h1", blocked, true)], { toolUseResult: `Error: ${blocked}` }),
    assistant(S, "m2", [toolUse("h2", "Bash", { command: "npm run build" })]),
    user(S, [toolResult("h2", "PreToolUse:Bash hook error: builds are run by CI", true)]),
    assistant(S, "m3", [toolUse("f1", "Edit", edit)]),
    user(S, [toolResult("f1", "dist/ is build output: edit src/ and run npm run build", true)]),
    assistant(S, "m4", [toolUse("f2", "Bash", { command: "cat hook.log" })]),
    user(S, [toolResult("f2", `Exit code 1\n${blocked}`, true)]),
    assistant(S, "m5", [toolUse("o1", "Bash", { command: "echo" })]),
    user(S, [toolResult("o1", blocked)]),
    result(S),
  ]);
  const c = done(steps);
  const h1 = c.get("h1")!;
  assert.deepEqual([h1.status, h1.arm, h1.note(), h1.fileChange()], ["refused", "PreToolUse", `permission denied: ${blocked}`, undefined]);
  assert.deepEqual([c.get("h2")!.status, c.get("h2")!.arm, c.get("h2")!.exitStatus], ["refused", "PreToolUse", undefined]);
  assert.deepEqual([c.get("f1")!.status, c.get("f1")!.arm, c.get("f1")!.note()], ["failed", undefined, "error: dist/ is build output: edit src/ and run npm run build"]);
  assert.deepEqual([c.get("f2")!.status, c.get("f2")!.exitStatus], ["failed", 1]);
  assert.deepEqual([c.get("o1")!.status, c.get("o1")!.arm], ["ok", undefined]);
});

test("parallel tool_use blocks in one 2.1.15 line, answered by one user line: Step.calls in block order; no times; a tool_use_result shared by two results describes neither", () => {
  const { steps } = read([
    init(S, { version: "2.1.15" }),
    assistant(S, "msg_1", [text("Checking."), toolUse("a", "Glob", { pattern: "**/*.ts" }), toolUse("b", "Grep", { pattern: "TODO", path: "src" })], { early: true }),
    user(S, [toolResult("a", "src/x.ts"), toolResult("b", "src/x.ts:1:TODO")], { early: true, toolUseResult: { filenames: ["src/x.ts"], numFiles: 1 } }),
    result(S),
  ]);
  assert.deepEqual(
    events(steps).map((e) => [e.what, e.call.id, e.call.seq, e.call.kind, e.call.label, e.call.target]),
    [
      ["started", "a", 1, "glob", "Searched for files", "**/*.ts"],
      ["started", "b", 2, "grep", "Searched file contents", "TODO in src"],
      ["done", "a", 1, "glob", "Searched for files", "**/*.ts"],
      ["done", "b", 2, "grep", "Searched file contents", "TODO in src"],
    ],
  );
  assert.deepEqual(steps[1]!.text, { text: "Checking.", delta: false });
  assert.equal(steps[1]!.calls!.length, 2);
  assert.equal(steps[2]!.calls!.length, 2);
  assert.deepEqual(
    events(steps).map((e) => [e.call.timing, e.call.outcome]),
    [
      [{}, undefined],
      [{}, undefined],
      [{}, undefined],
      [{}, undefined],
    ],
  );
  const run = steps[0]!.run;
  assert.deepEqual([run.start, run.end, steps.map((s) => s.at)], [undefined, undefined, [undefined, undefined, undefined, undefined]]);
  // The message's text comes before its calls: the final message starts again after them.
  const t = new RunText();
  for (const s of steps) t.observe(s);
  assert.deepEqual([t.text(), t.finalMessage()], ["Checking.", ""]);
});

test("a subagent: its lines carry Step.parentId and its calls Call.parentId; its text is not the run's", () => {
  const { steps } = read([
    init(S),
    assistant(S, "m1", [toolUse("ag", "Agent", { subagent_type: "general-purpose", description: "sleeper", prompt: "Run sleep 1", model: "haiku" })], { at: T }),
    assistant(S, "m2", [thinking()], { at: T + 1000, parent: "ag" }),
    assistant(S, "m2", [toolUse("sb", "Bash", { command: "sleep 1" })], { at: T + 1100, parent: "ag" }),
    user(S, [toolResult("sb", "", false)], { at: T + 2200, parent: "ag", toolUseResult: bashResult("") }),
    assistant(S, "m3", [text("SUBREPLY")], { at: T + 2500, parent: "ag" }),
    user(S, [toolResult("ag", [{ type: "text", text: "SUBREPLY" }])], { at: T + 2600 }),
    assistant(S, "m4", [text("Done.")], { at: T + 3000 }),
    result(S),
  ]);
  assert.deepEqual(
    steps.map((s) => s.parentId),
    [undefined, undefined, "ag", "ag", "ag", "ag", undefined, undefined, undefined],
  );
  assert.deepEqual(steps[2]!.thinking, { text: "", done: true });
  assert.deepEqual(steps[5]!.text, { text: "SUBREPLY", delta: false });
  const c = done(steps);
  const sb = c.get("sb")!;
  assert.deepEqual([sb.parentId, sb.status, sb.exitStatus, sb.timing], ["ag", "ok", 0, { start: { ms: T + 1100, from: "event" }, end: { ms: T + 2200, from: "event" }, durationMs: 1100 }]);
  assert.equal(steps[3]!.calls![0]!.call.parentId, "ag");
  const ag = c.get("ag")!;
  assert.deepEqual([ag.kind, ag.label, ag.target, ag.parentId, ag.mcp, ag.backgroundTask, ag.timing.durationMs], ["task", "Ran subagent task", "sleeper", undefined, undefined, undefined, 2600]);
  assert.deepEqual(ag.subagent, { agentId: undefined, model: "haiku", background: undefined, durationMs: undefined });
  assert.deepEqual(ag.failureText(), { text: "SUBREPLY", from: "output" });
  const t = new RunText();
  for (const s of steps) t.observe(s);
  assert.equal(t.text(), "Done.");
  assert.equal(t.finalMessage(), "Done.");
});

test("a background Bash whose end comes after the result: the task's lines stay in the run that started it; its end is timed by task_updated's end_time", () => {
  const reader = claudeDialect.reader({});
  const lines = [
    init(S),
    assistant(S, "m1", [toolUse("bg", "Bash", { command: "sleep 30", run_in_background: true })], { at: T }),
    system(S, "background_tasks_changed", { tasks: [{ task_id: "b1", task_type: "local_bash", description: "sleep 30" }] }),
    taskStarted(S, "b1", "bg", true),
    user(S, [toolResult("bg", "Command running in background with ID: b1. Output is being written to: /tmp/tasks/b1.output")], { at: T + 100, toolUseResult: bashResult("", { backgroundTaskId: "b1" }) }),
    assistant(S, "m2", [toolUse("fg", "Bash", { command: "sleep 3" })], { at: T + 200 }),
    taskStarted(S, "f1", "fg", false),
    taskNotification(S, "f1", "fg", "completed", "sleep 3", ""),
    user(S, [toolResult("fg", "")], { at: T + 3300, toolUseResult: bashResult("") }),
    assistant(S, "m3", [text("Started.")], { at: T + 3400 }),
    result(S),
    system(S, "background_tasks_changed", { tasks: [] }),
    taskUpdated(S, "b1", "killed", T + 3500),
    taskNotification(S, "b1", "bg", "stopped", "sleep 30"),
  ];
  const steps: Step[] = [];
  let runningAtResult: string[] = [];
  for (const rec of recordsOf(lines, "c.ndjson")) {
    const step = reader.read(rec);
    steps.push(step);
    if (step.result === true) runningAtResult = step.run.backgroundRunning!().map((c) => c.id);
  }
  const run = steps[0]!.run;
  assert.ok(steps.every((s) => s.run === run));
  assert.deepEqual(runningAtResult, ["bg"]);
  const bg = done(steps).get("bg")!;
  assert.deepEqual([bg.status, bg.backgroundTask, bg.exitStatus], ["ok", "b1", undefined]);
  assert.equal(done(steps).get("fg")!.exitStatus, 0);
  assert.deepEqual(
    steps.map((s) => s.backgroundEnd?.taskId),
    [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, "b1"],
  );
  assert.deepEqual(steps[13]!.backgroundEnd, { taskId: "b1", call: bg, status: "stopped", ok: false, title: "sleep 30", detail: undefined, line: 14, at: { ms: T + 3500, from: "event" }, durationMs: 3500 });
  assert.deepEqual([run.backgroundCount, run.backgroundEnded, run.backgroundRunning!()], [1, 1, []]);
  assert.deepEqual([run.outcome, run.lastLine, run.end], ["finished", 14, { ms: T + 3500, from: "event" }]);
  assert.equal(reader.endFile(14), run);
});

test("an async Agent is a background task; in `bgagent` the CLI's own turn (a second init) comes before both results: the first result ends the run, the second is a run of its own", () => {
  const { steps, last } = read([
    hookStarted(S),
    init(S),
    assistant(S, "m1", [toolUse("ag", "Agent", { subagent_type: "general-purpose", description: "sleeper", run_in_background: true, prompt: "Run sleep 5" })], { at: T }),
    taskStarted(S, "a17", "ag", true, "local_agent"),
    user(S, [toolResult("ag", [{ type: "text", text: "Async agent launched successfully." }])], { at: T + 60, toolUseResult: { isAsync: true, status: "async_launched", agentId: "a17", description: "sleeper", outputFile: "/tmp/tasks/a17.output" } }),
    assistant(S, "m2", [text("LAUNCHED")], { at: T + 1800 }),
    assistant(S, "m3", [text("SUBREPLY")], { at: T + 7600, parent: "ag" }),
    taskUpdated(S, "a17", "completed", T + 7700),
    taskNotification(S, "a17", "ag", "completed", "SUBREPLY"),
    init(S),
    assistant(S, "m4", [text('Agent "sleeper" completed. Result: SUBREPLY')], { at: T + 10100 }),
    result(S, { result: "LAUNCHED", result_index: 0 }),
    result(S, { result: 'Agent "sleeper" completed. Result: SUBREPLY', result_index: 1, origin: { kind: "task-notification", producer: "session-task" }, num_turns: 1 }),
  ]);
  const first = steps[0]!.run;
  assert.ok(steps.slice(0, 12).every((s) => s.run === first));
  assert.deepEqual([steps[9]!.init, steps[9]!.begun, steps[9]!.ended], [true, undefined, undefined]);
  const ag = done(steps).get("ag")!;
  assert.deepEqual([ag.backgroundTask, ag.subagent], ["a17", { agentId: "a17", model: undefined, background: true, durationMs: undefined }]);
  assert.deepEqual(steps[8]!.backgroundEnd, { taskId: "a17", call: ag, status: "completed", ok: true, title: "SUBREPLY", detail: undefined, line: 9, at: { ms: T + 7700, from: "event" }, durationMs: 7700 });
  assert.deepEqual([steps[11]!.result, first.outcome, first.stated?.text, first.lastLine], [true, "finished", "LAUNCHED", 12]);
  const second = steps[12]!.run;
  assert.notEqual(second, first);
  assert.deepEqual([steps[12]!.begun, steps[12]!.ended, steps[12]!.result], [true, first, true]);
  assert.deepEqual([second.index, second.startLine, second.lastLine, second.sessionId, second.model, second.outcome, second.stated?.text, second.startedCount], [2, 13, 13, S, undefined, "finished", 'Agent "sleeper" completed. Result: SUBREPLY', 0]);
  assert.equal(last, second);
});

test("runs: an init after a result, a resumed process's SessionStart hook, a process that died without result; a compaction's SessionStart hook is not a new run; nextRunIndex numbers them", () => {
  let next = 7;
  const { steps, last } = read(
    [
      init(S, { model: "m-one" }),
      assistant(S, "m1", [text("one")]),
      result(S, { result: "one" }),
      hookStarted(S, "SessionStart:resume"),
      hookResponse(S, "SessionStart:resume"),
      system(S, "status", { status: "compacting" }),
      hookStarted(S, "SessionStart:compact"),
      init(S, { model: "m-two" }),
      assistant(S, "m2", [toolUse("x", "Bash", { command: "sleep 99" })]),
      init(S, { model: "m-three" }),
      result(S),
    ],
    { nextRunIndex: () => next++ },
  );
  const [one, two, three] = [steps[0]!.run, steps[3]!.run, steps[9]!.run];
  assert.deepEqual(
    steps.map((s) => s.run.index),
    [7, 7, 7, 8, 8, 8, 8, 8, 8, 9, 9],
  );
  assert.deepEqual(
    steps.map((s) => s.begun),
    [true, undefined, undefined, true, undefined, undefined, undefined, undefined, undefined, true, undefined],
  );
  assert.deepEqual([steps[3]!.ended, steps[9]!.ended], [one, two]);
  assert.deepEqual([one.model, one.outcome, one.lastLine], ["m-one", "finished", 3]);
  assert.deepEqual([two.model, two.outcome, two.startLine, two.lastLine, two.openCount, two.openCalls().map((c) => [c.id, c.status, c.args, c.argsCut])], [
    "m-two", "cut-off", 4, 9, 1, [["x", "open", { command: "sleep 99" }, true]],
  ]);
  assert.deepEqual([three.model, three.outcome, last], ["m-three", "finished", three]);
  // Without a nextRunIndex, the reader counts its own runs from 1.
  const own = read([init(S), result(S), init(S), result(S)]).steps;
  assert.deepEqual(
    own.map((s) => [s.run.index, s.begun]),
    [
      [1, true],
      [1, undefined],
      [2, true],
      [2, undefined],
    ],
  );
});

test("an auth failure: a synthetic assistant message, then a `success` result with is_error true: failed, the result's text its failure", () => {
  const said = "Not logged in · Please run /login";
  const zero = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  const { steps } = read([
    init(S),
    { ...assistant(S, "1f2e3d4c-0000-4000-8000-000000000000", [text(said)], { model: "<synthetic>" }), error: "authentication_failed", is_api_error_message: true },
    result(S, { subtype: "success", is_error: true, result: said, terminal_reason: "api_error", api_error_status: null, num_turns: 1, total_cost_usd: 0, usage: zero, duration_ms: 120, duration_api_ms: 0 }),
  ]);
  const run = steps[0]!.run;
  assert.deepEqual(steps[1]!.text, { text: said, delta: false });
  assert.deepEqual([run.outcome, run.failure, run.statedDurationMs], ["failed", said, 120]);
  assert.deepEqual(run.stated, { subtype: "success", text: said, requestId: undefined, durationMs: 120, apiDurationMs: 0, terminalReason: "api_error", lineId: "00000000-0000-4000-8000-000000000000" });
  assert.deepEqual(run.usage, { scope: "run", inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, raw: zero });
});

test("max turns: no `result` key, the failure is errors[]", () => {
  const { steps } = read([init(S), result(S, { subtype: "error_max_turns", is_error: true, result: null, errors: ["Reached maximum number of turns (2)"], terminal_reason: "max_turns", num_turns: 3 })]);
  const run = steps[0]!.run;
  assert.deepEqual([run.outcome, run.failure, run.stated?.subtype, run.stated?.text], ["failed", "Reached maximum number of turns (2)", "error_max_turns", undefined]);
});

test("usage and cost come from the result only: the usage each assistant line repeats is never summed", () => {
  const { steps } = read([
    init(S),
    assistant(S, "m1", [thinking()]),
    assistant(S, "m1", [text("a")]),
    assistant(S, "m1", [toolUse("x", "Read", { file_path: "/a" })]),
    user(S, [toolResult("x", "1\ta")]),
    result(S, { total_cost_usd: 0.0488, modelUsage: { "claude-haiku-4-5": { inputTokens: 46, outputTokens: 779, costUSD: 0.0488 } } }),
  ]);
  const run = steps[0]!.run;
  const before = read([init(S), assistant(S, "m1", [text("a")]), assistant(S, "m1", [toolUse("x", "Read", { file_path: "/a" })])]).steps[0]!.run;
  assert.deepEqual([before.usage, before.cost], [undefined, undefined], "no usage before the result");
  assert.deepEqual(run.usage, { scope: "run", inputTokens: 18, outputTokens: 176, cacheReadTokens: 34862, cacheWriteTokens: 9721, raw: RESULT_USAGE });
  assert.notEqual(run.usage?.inputTokens, 3 * (MESSAGE_USAGE.input_tokens as number));
  assert.deepEqual(run.cost, {
    usd: 0.0488,
    scope: "session",
    byModel: { "claude-haiku-4-5": { inputTokens: 46, outputTokens: 779, costUSD: 0.0488 } },
    models: [{ model: "claude-haiku-4-5", usd: 0.0488, inputTokens: 46, outputTokens: 779 }],
  });
});

test("times: the lines' ISO timestamps only, parsed strictly; a call's duration from its two lines; the run from the earliest to the latest; acceptTime can refuse one", () => {
  assert.equal(isoMs("2026-10-01T12:00:01.500Z"), T + 1500);
  assert.equal(isoMs("2026-10-01T14:00:01.5+02:00"), T + 1500);
  assert.equal(isoMs("2026-10-01T12:00:01.123456789Z"), T + 1123);
  assert.equal(isoMs("2024-02-29T00:00:00Z"), Date.UTC(2024, 1, 29));
  for (const bad of ["2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-10-01T24:00:00Z", "2026-10-01 12:00:00Z", "2026-10-01T12:00Z", "2026-10-01T12:00:00", "1790856000000", 1790856000000, null]) {
    assert.equal(isoMs(bad), undefined, String(bad));
  }
  const lines = [
    init(S),
    assistant(S, "m1", [toolUse("a", "Bash", { command: "sleep 4" })], { at: T + 1500 }),
    user(S, [toolResult("a", "")], { at: T + 5600, toolUseResult: bashResult("") }),
    { ...assistant(S, "m2", [text("x")]), timestamp: "2026-10-01T12:00:00" },
    assistant(S, "m3", [toolUse("b", "Bash", { command: "true" })], { at: T + 6000 }),
    user(S, [toolResult("b", "")], { at: T + 6500, toolUseResult: bashResult("") }),
    result(S),
  ];
  const { steps } = read(lines);
  const c = done(steps);
  assert.deepEqual(c.get("a")!.timing, { start: { ms: T + 1500, from: "event" }, end: { ms: T + 5600, from: "event" }, durationMs: 4100 });
  assert.deepEqual(
    steps.map((s) => s.at),
    [undefined, T + 1500, T + 5600, undefined, T + 6000, T + 6500, undefined],
  );
  const run = steps[0]!.run;
  assert.deepEqual([run.start, run.end], [
    { ms: T + 1500, from: "event" },
    { ms: T + 6500, from: "event" },
  ]);
  // A time the output refuses is absent: from the line, the call, the run.
  const asked: [number, string, number][] = [];
  const refused = read(lines, { acceptTime: (ms, field, line) => (asked.push([ms, field, line]), line !== 6) }).steps;
  assert.deepEqual(asked, [
    [T + 1500, "timestamp", 2],
    [T + 5600, "timestamp", 3],
    [T + 6000, "timestamp", 5],
    [T + 6500, "timestamp", 6],
  ]);
  assert.deepEqual(done(refused).get("b")!.timing, { start: { ms: T + 6000, from: "event" } });
  assert.deepEqual([refused[5]!.at, refused[0]!.run.end], [undefined, { ms: T + 6000, from: "event" }]);
});

test("an open call keeps its target up to KEPT_TARGET_MAX characters, cut ones ending in … when read (not stored so: an ASCII command stays one byte a character)", () => {
  const long = "echo " + "x".repeat(KEPT_TARGET_MAX + 900);
  const { steps } = read([init(S), assistant(S, "m1", [toolUse("z", "Bash", { command: long })], { at: T })]);
  const open = steps[0]!.run.openCalls()[0]!;
  assert.equal(open.target, long.slice(0, KEPT_TARGET_MAX - 1) + "…");
  assert.deepEqual([open.argsCut, (open.args!.command as string).length, Object.keys(open.args!)], [true, KEPT_TARGET_MAX, ["command"]]);
  // Read twice, the same (a new object each time: nothing of it is kept with the call).
  assert.equal(steps[0]!.run.openCalls()[0]!.target, open.target);
});

test("a call never answered stays open at the end of its file; maxOpen keeps the first and counts the rest; numberUnstarted numbers a result without a start", () => {
  const { steps, last } = read([init(S), assistant(S, "m1", [toolUse("z", "Bash", { command: "sleep 99", description: "wait" })], { at: T })]);
  const run = steps[0]!.run;
  assert.equal(last, run);
  assert.deepEqual([run.outcome, run.lastLine, run.openCount, run.startedCount], ["cut-off", 2, 1, 1]);
  const open = run.openCalls()[0]!;
  assert.deepEqual([open.id, open.seq, open.status, open.note(), open.args, open.argsCut, open.target, open.timing, open.startLine, open.endLine], [
    "z", 1, "open", "", { command: "sleep 99" }, true, "sleep 99", { start: { ms: T, from: "event" } }, 2, undefined,
  ]);
  assert.deepEqual([...run.eachOpenCall!()].map((c) => c.id), ["z"]);

  const lines = [
    init(S),
    assistant(S, "m1", [toolUse("a", "Read", { file_path: "/a" }), toolUse("b", "Read", { file_path: "/b" }), toolUse("c", "Read", { file_path: "/c" })]),
    user(S, [toolResult("c", "x")]),
    user(S, [toolResult("q", "x")]),
  ];
  const capped = read(lines, { maxOpen: 2 });
  assert.deepEqual(capped.steps[1]!.calls!.map((e) => [e.what, e.call.id]), [
    ["started", "a"],
    ["started", "b"],
  ]);
  const r = capped.steps[0]!.run;
  assert.deepEqual([r.openCount, r.openCalls().map((c) => c.id), r.startedCount], [2, ["a", "b"], 3]);
  const alone = capped.steps[2]!.calls![0]!.call;
  assert.deepEqual([alone.seq, alone.tool, alone.kind, alone.label, alone.startLine, alone.startTool, alone.status], [0, "unknown", "unknown", "Used tool unknown", undefined, undefined, "ok"]);
  const numbered = read(lines, { numberUnstarted: true }).steps;
  assert.deepEqual(numbered[3]!.calls!.map((e) => [e.call.id, e.call.seq]), [["q", 4]]);
});

test("tools in cursor-agent's words: MCP, todos, web, other tools; a restart of an open call", () => {
  const { steps } = read([
    init(S),
    assistant(S, "m1", [
      toolUse("m", "mcp__claude_ai_Docs__query", { q: "x" }),
      toolUse("t", "TodoWrite", { todos: [{ content: "a" }, { content: "b" }] }),
      toolUse("f", "WebFetch", { url: "https://example.com/", prompt: "Summarise" }),
      toolUse("s", "WebSearch", { query: "stream-json" }),
      toolUse("o", "BashOutput", { bash_id: "b1" }),
      toolUse("k", "TaskCreate", { subject: "Write tests", description: "cover the reader" }),
    ]),
    assistant(S, "m1", [toolUse("m", "mcp__claude_ai_Docs__query", { q: "x" })]),
    user(S, [toolResult("m", [{ type: "text", text: "found" }])], { toolUseResult: [{ type: "text", text: "found" }] }),
    user(S, [toolResult("t", "Todos have been modified successfully.")], { toolUseResult: { oldTodos: [], newTodos: [] } }),
    result(S),
  ]);
  assert.deepEqual(
    steps[1]!.calls!.map((e) => [e.call.kind, e.call.label, e.call.target]),
    [
      ["mcp", "Called MCP tool", "claude_ai_Docs/query"],
      ["updateTodos", "Updated todos", "2 todos"],
      ["webFetch", "Fetched web page", "https://example.com/"],
      ["webSearch", "Searched the web", "stream-json"],
      ["BashOutput", "Used tool BashOutput", ""],
      ["updateTodos", "Updated todos", "cover the reader"],
    ],
  );
  assert.deepEqual(steps[2]!.calls!.map((e) => [e.what, e.call.id, e.call.seq]), [["restarted", "m", 1]]);
  const c = done(steps);
  const m = c.get("m")!;
  assert.deepEqual([m.mcp, m.outcome, m.failureText()], [{ server: "claude_ai_Docs", tool: "query" }, undefined, { text: "found", from: "output" }]);
  assert.deepEqual([c.get("t")!.target, Object.keys(c.get("t")!.args!), (c.get("t")!.args!.todos as unknown[]).length], ["2 todos", ["todos"], 2]);
});

test("text, thinking, notices, the user's messages: partial text deltas, whole thinking pieces, api_retry, a prompt only from the run's own non-synthetic user text", () => {
  const { steps } = read([
    init(S),
    user(S, [text("Fix the test")]),
    textDelta(S, "Hel"),
    textDelta(S, "lo"),
    assistant(S, "m1", [thinking("I should look"), text("Hello")]),
    system(S, "api_retry", { attempt: 2, max_retries: 10, retry_delay_ms: 500, error_status: 529, error: "overloaded" }),
    user(S, "This session is being continued from a previous conversation…", { synthetic: true }),
    user(S, [text("sub prompt")], { parent: "ag" }),
    user(S, [text("Also this")]),
    result(S),
  ]);
  assert.deepEqual(
    steps.map((s) => [s.user, s.text, s.thinking, s.notice]),
    [
      [undefined, undefined, undefined, undefined],
      ["Fix the test", undefined, undefined, undefined],
      [undefined, { text: "Hel", delta: true }, undefined, undefined],
      [undefined, { text: "lo", delta: true }, undefined, undefined],
      [undefined, { text: "Hello", delta: false }, { text: "I should look", done: true }, undefined],
      [undefined, undefined, undefined, { kind: "retrying", attempt: 2 }],
      [undefined, undefined, undefined, undefined],
      ["sub prompt", undefined, undefined, undefined],
      ["Also this", undefined, undefined, undefined],
      [undefined, undefined, undefined, undefined],
    ],
  );
  assert.equal(steps[0]!.run.prompt, "Fix the test");
  const t = new RunText();
  for (const s of steps) t.observe(s);
  assert.equal(t.text(), "Hello");
});

test("lines after a result: a subagent's and the background's stay in the run; the main thread's next message begins a new one; a line skipped unread never does", () => {
  const skipped = (value: JsonObject, line: number): JsonRecord => ({ file: "c.ndjson", line, text: "", value, skipped: true });
  const reader = claudeDialect.reader({});
  const recs = recordsOf([init(S), result(S), assistant(S, "m9", [text("late")], { parent: "ag" }), rateLimit(S)], "c.ndjson");
  const steps = recs.map((r) => reader.read(r));
  steps.push(reader.read(skipped({ type: "assistant" }, 5)));
  steps.push(reader.read(recordsOf([user(S, [text("next")])], "c.ndjson")[0]!));
  const first = steps[0]!.run;
  assert.deepEqual(
    steps.map((s) => [s.run === first, s.begun]),
    [
      [true, true],
      [true, undefined],
      [true, undefined],
      [true, undefined],
      [true, undefined],
      [false, true],
    ],
  );
  assert.equal(first.lastLine, 5);
  // A file's first line begins its run, even skipped unread (a commands_changed stand-in).
  const r2 = claudeDialect.reader({});
  const s = r2.read(skipped({ type: "system", subtype: "commands_changed" }, 1));
  assert.deepEqual([s.begun, s.run.startLine, s.run.sessionId], [true, 1, undefined]);
});

test("the CLI's own text: joins the run in progress, else waits for the file's next run, else is unclaimed", () => {
  const reader = claudeDialect.reader({});
  assert.equal(reader.said("c.ndjson", 1, "Error: When using --print, --output-format=stream-json requires --verbose"), undefined);
  const recs = recordsOf([init(S), result(S)], "c.ndjson").map((r) => ({ ...r, line: r.line + 1 }));
  const run = reader.read(recs[0]!).run;
  assert.deepEqual(run.said, { line: 1, text: "Error: When using --print, --output-format=stream-json requires --verbose", more: 0 });
  assert.equal(reader.said("c.ndjson", 3, "hmm"), run);
  reader.read(recs[1]!);
  assert.equal(reader.said("c.ndjson", 5, "after"), undefined);
  assert.equal(reader.endFile(5), run);
  assert.deepEqual(reader.unclaimed(), { line: 5, text: "after", more: 0 });
  assert.equal(reader.unclaimed(), undefined);
});

test("skipUnread: rate limits, heartbeats, partial messages (unless text is needed), commands_changed and thinking_tokens as stand-ins; never an assistant, user or init line", () => {
  const judge = (skip: ReturnType<typeof claudeDialect.skipUnread>, ev: Ev): unknown => {
    const buf = Buffer.from(JSON.stringify(ev));
    return skip!.test(soundLine(buf, 0, buf.length)!);
  };
  const skip = claudeDialect.skipUnread({});
  assert.equal(judge(skip, rateLimit(S)), "rate_limit_event");
  assert.equal(judge(skip, { type: "tool_progress", tool_use_id: "t-heartbeat-1", tool_name: "Bash", elapsed_time_seconds: 30 }), "tool_progress");
  assert.equal(judge(skip, textDelta(S, "x")), "stream_event");
  assert.equal(judge(claudeDialect.skipUnread({ text: true }), textDelta(S, "x")), undefined);
  assert.deepEqual(judge(skip, commandsChanged(S)), { type: "system", subtype: "commands_changed" });
  assert.deepEqual(judge(skip, system(S, "thinking_tokens", { estimated_tokens: 50, estimated_tokens_delta: 50 })), { type: "system", subtype: "thinking_tokens" });
  for (const ev of [init(S), hookStarted(S), assistant(S, "m", [thinking()]), user(S, [toolResult("a", "x")]), result(S), taskNotification(S, "b1", "bg", "completed", "x")]) {
    assert.equal(judge(claudeDialect.skipUnread({ thinking: false, user: false, text: false }), ev), undefined, JSON.stringify(ev).slice(0, 60));
  }
  assert.deepEqual([claudeDialect.agent, claudeDialect.name, claudeDialect.callLineTypes, claudeDialect.fileFieldsRead], ["claude", "Claude Code stream-json", undefined, undefined]);
  for (const f of ["command", "file_path", "pattern", "url", "query", "description", "backgroundTaskId", "agentId"]) assert.ok(claudeDialect.fieldsRead.has(f), f);
});

test("through the driver: one runEnd per run, the background end after the result told in its run, a failed run exit 1, a run cut off exit 4", async () => {
  const { drive } = await import("../src/driver/driver.js");
  const { Reporter } = await import("../src/diagnostics.js");
  const pc = (await import("picocolors")).default;
  const tell = (lines: Ev[]): { told: string[]; code: number; stderr: string } => {
    let stderr = "";
    const reporter = new Reporter((t) => (stderr += t), pc.createColors(false), false);
    const told: string[] = [];
    const stage = drive(
      {
        runStart: (run) => void told.push(`start ${run.index}`),
        callDone: (call, run) => void told.push(`done ${call.id} ${run.index}`),
        backgroundEnd: (end, run) => void told.push(`end ${end.taskId} ${run.index} ${end.call?.id}`),
        runEnd: (run) => void told.push(`runEnd ${run.index} ${run.outcome}`),
      },
      reporter,
      { dialect: claudeDialect },
    );
    const recs = recordsOf(lines, "c.ndjson");
    for (const r of recs) stage.record(r);
    stage.fileEnd?.("c.ndjson", recs.length);
    return { told, code: reporter.code, stderr };
  };
  const ok = tell([
    init(S),
    assistant(S, "m1", [toolUse("bg", "Bash", { command: "sleep 30", run_in_background: true })]),
    user(S, [toolResult("bg", "Command running in background with ID: b1.")], { toolUseResult: bashResult("", { backgroundTaskId: "b1" }) }),
    result(S),
    taskNotification(S, "b1", "bg", "completed", "sleep 30"),
    init(S),
    result(S, { is_error: true, result: "API Error: 500" }),
  ]);
  assert.deepEqual(ok.told, ["start 1", "done bg 1", "runEnd 1 finished", "end b1 1 bg", "start 2", "runEnd 2 failed"]);
  assert.equal(ok.code, 1);
  const cut = tell([init(S), assistant(S, "m1", [toolUse("z", "Bash", { command: "sleep 99" })])]);
  assert.deepEqual(cut.told, ["start 1", "runEnd 1 cut-off"]);
  assert.equal(cut.code, 4);
});
