// Which dialect reads a file (src/dialects/index.ts): decided per file at its first event, so an
// input of Cursor and Claude Code logs is one run of any command; runs numbered across the files;
// the raw-line skip asked per file for that file's dialect; --agent forcing one.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import pc from "picocolors";
import { Reporter } from "../src/diagnostics.js";
import { claudeDialect } from "../src/dialects/claude/reader.js";
import { codexDialect } from "../src/dialects/codex/reader.js";
import { cursorDialect } from "../src/dialects/cursor/reader.js";
import { geminiDialect } from "../src/dialects/gemini/reader.js";
import { autoReader, dialectFor } from "../src/dialects/index.js";
import { drive } from "../src/driver/driver.js";
import type { JsonObject } from "../src/input/record.js";
import { assistant, init, result, toolResult, toolUse, user } from "./helpers/claude-events.js";
import { recordsOf } from "./helpers/records.js";
import { runCli } from "./helpers/run-cli.js";

const CURSOR = "test/fixtures/real-2026.ndjson";
const CLAUDE = "test/fixtures/claude/tools.ndjson";
const CLAUDE_EARLY = "test/fixtures/claude/early-2026.ndjson";
const GEMINI = "test/fixtures/gemini/batch.ndjson";
const GEMINI_TWO = "test/fixtures/gemini/two-runs.ndjson";

test("dialectFor: Claude Code's events (its hook lines before the init too) are Claude's; anything else is cursor-agent's", () => {
  assert.equal(dialectFor(init("s") as JsonObject), claudeDialect);
  assert.equal(dialectFor({ type: "system", subtype: "hook_started", hook_id: "h", hook_name: "SessionStart:startup", hook_event: "SessionStart", uuid: "u", session_id: "s" }), claudeDialect);
  assert.equal(dialectFor({ type: "system", subtype: "init", session_id: "s", model: "gpt-5", cwd: "/w", apiKeySource: "login", permissionMode: "default" }), cursorDialect);
  assert.equal(dialectFor({ type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] }, session_id: "s" }), cursorDialect);
  // Codex's dotted events are Codex's, Gemini CLI's init (an ISO timestamp, no subtype) Gemini's.
  assert.equal(dialectFor({ type: "thread.started", thread_id: "t" }), codexDialect);
  assert.equal(dialectFor({ type: "item.completed", item: { id: "item_0", type: "error", message: "notice" } }), codexDialect);
  assert.equal(dialectFor({ type: "init", timestamp: "2026-03-19T04:50:00.100Z", session_id: "s", model: "m" }), geminiDialect);
});

test("autoReader: each file in its own dialect, runs numbered across them, the CLI's text before a file's first event waiting for it", () => {
  const reporter = new Reporter(() => undefined, pc.createColors(false), false);
  const told: string[] = [];
  const stage = drive(
    {
      runStart: (run) => void told.push(`start ${run.index} ${run.agent} ${run.file}`),
      callDone: (call, run) => void told.push(`done ${call.id} ${call.kind} ${run.index}`),
      runEnd: (run) => void told.push(`end ${run.index} ${run.outcome}${run.said === undefined ? "" : ` said ${JSON.stringify(run.said.text)}`}`),
    },
    reporter,
    {},
  );
  const cursor = recordsOf(
    [
      { type: "system", subtype: "init", session_id: "c1", model: "m" },
      { type: "tool_call", subtype: "started", call_id: "k1", tool_call: { readToolCall: { args: { path: "/a" } } }, session_id: "c1" },
      { type: "tool_call", subtype: "completed", call_id: "k1", tool_call: { readToolCall: { args: { path: "/a" }, result: { success: { content: "x" } } } }, session_id: "c1" },
      { type: "result", subtype: "success", is_error: false, result: "ok", session_id: "c1" },
    ],
    "a.ndjson",
  );
  const claude = recordsOf([init("s2"), assistant("s2", "m1", [toolUse("t1", "Bash", { command: "ls" })]), user("s2", [toolResult("t1", "a\nb")]), result("s2")], "b.ndjson");
  for (const r of cursor) stage.record(r);
  stage.fileEnd?.("a.ndjson", cursor.length);
  // The CLI's text before the Claude file's first event: held, then joined to its run.
  stage.said?.({ kind: "said", file: "b.ndjson", line: 1, message: "Warning: hooks are slow" } as never);
  for (const r of claude) stage.record({ ...r, line: r.line + 1 });
  stage.fileEnd?.("b.ndjson", claude.length + 1);
  for (const r of cursor) stage.record({ ...r, file: "c.ndjson" });
  stage.fileEnd?.("c.ndjson", cursor.length);
  assert.deepEqual(told, [
    "start 1 cursor a.ndjson",
    "done k1 read 1",
    "end 1 finished",
    "start 2 claude b.ndjson",
    "done t1 shell 2",
    'end 2 finished said "Warning: hooks are slow"',
    "start 3 cursor c.ndjson",
    "done k1 read 3",
    "end 3 finished",
  ]);
});

test("autoReader alone: a reader of one dialect numbers its own runs when no input-wide count is given", () => {
  const r = autoReader({});
  const a = r.read(recordsOf([init("s")], "x.ndjson")[0]!);
  assert.equal(a.run.index, 1);
  assert.equal(a.run.agent, "claude");
});

/** The files of `dir` made of copies of `files`, in this order (names sort as given). */
function folder(files: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  files.forEach((f, i) => cpSync(f, join(dir, `${String(i).padStart(2, "0")}-${f.split("/").pop()}`)));
  return dir;
}

test("a folder of Cursor and Claude Code logs: each command gives, in one run, what each file gives alone (the skip asked per file: a Claude file's tool results are never skipped as cursor-agent's user lines)", async () => {
  const files = [CURSOR, CLAUDE, CLAUDE_EARLY, CURSOR];
  const dir = folder(files);
  try {
    for (const argv of [["text", "-v"], ["text", "--final"], ["json"], ["timeline"], ["diff", "--name-only"]]) {
      const alone = [];
      for (const f of files) alone.push((await runCli([...argv, f])).stdout);
      const all = await runCli([...argv, dir]);
      assert.equal(all.code, 0, `${argv.join(" ")}: ${all.stderr}`);
      // timeline writes its header once, and numbers sessions across the input.
      if (argv[0] === "timeline") {
        const rows = (s: string) => s.split("\n").slice(1).filter((l) => l !== "");
        assert.equal(rows(all.stdout).length, alone.reduce((n, s) => n + rows(s).length, 0), argv.join(" "));
      } else assert.equal(all.stdout, alone.join(""), argv.join(" "));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--agent forces a dialect for every file: a Claude Code log read as cursor-agent's has no tool calls; --agent claude reads it as without the option", async () => {
  const own = await runCli(["text", CLAUDE]);
  assert.equal((await runCli(["text", "--agent", "claude", CLAUDE])).stdout, own.stdout);
  assert.notEqual(own.stdout, "");
  const forced = await runCli(["text", "--agent", "cursor", CLAUDE]);
  assert.equal(forced.stdout, "");
  const bad = await runCli(["text", "--agent", "qwen", CLAUDE]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /argument 'qwen' is invalid\. Allowed choices are claude, codex, gemini, cursor\./);
});

test("dialectFor: Gemini CLI's init (ISO timestamp, no subtype) is Gemini's, and so is a capture cut at its start", () => {
  assert.equal(dialectFor({ type: "init", timestamp: "2026-03-19T04:50:00.100Z", session_id: "s", model: "auto-gemini-3" }), geminiDialect);
  assert.equal(dialectFor({ type: "tool_use", timestamp: "2026-03-19T04:50:03.900Z", tool_name: "glob", tool_id: "glob_1_0", parameters: {} }), geminiDialect);
  // cursor-agent's system/init stays cursor-agent's; Claude Code's stays Claude's.
  assert.equal(dialectFor({ type: "system", subtype: "init", session_id: "s", model: "gpt-5", cwd: "/w", apiKeySource: "login", permissionMode: "default" }), cursorDialect);
  assert.equal(dialectFor(init("s") as JsonObject), claudeDialect);
});

test("a folder of Cursor, Claude Code and Gemini CLI logs: each command gives, in one run, what each file gives alone", async () => {
  const files = [CURSOR, GEMINI, CLAUDE, GEMINI_TWO, CURSOR];
  const dir = folder(files);
  try {
    for (const argv of [["text", "-v"], ["text", "--final"], ["json"], ["timeline"], ["diff", "--name-only"], ["filter", "--tool", "shell"]]) {
      const alone = [];
      for (const f of files) alone.push((await runCli([...argv, f])).stdout);
      const all = await runCli([...argv, dir]);
      // two-runs.ndjson's second run failed (exit 1) in every command that reads outcomes.
      assert.ok(all.code === 0 || all.code === 1, `${argv.join(" ")}: ${all.stderr}`);
      if (argv[0] === "timeline") {
        const rows = (s: string) => s.split("\n").slice(1).filter((l) => l !== "");
        assert.equal(rows(all.stdout).length, alone.reduce((n, s) => n + rows(s).length, 0), argv.join(" "));
      } else assert.equal(all.stdout, alone.join(""), argv.join(" "));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const CODEX = "test/fixtures/codex/commands.ndjson";
const CODEX_RESUMED = "test/fixtures/codex/resumed.ndjson";
const CODEX_EARLY = "test/fixtures/codex/early-2026.ndjson";

test("dialectFor: a Codex log's first event, whichever it is (thread.started, an error item or event before it)", () => {
  assert.equal(dialectFor({ type: "error", message: "Reconnecting... 1/5" }), codexDialect);
  assert.equal(dialectFor({ type: "turn.started" }), codexDialect);
  // Claude Code's and cursor-agent's first events are not Codex's.
  assert.equal(dialectFor(init("s") as JsonObject), claudeDialect);
  assert.equal(dialectFor({ type: "system", subtype: "init", session_id: "s", model: "gpt-5" }), cursorDialect);
});

test("a folder of Cursor, Claude Code and Codex logs: each command gives, in one run, what each file gives alone; runs numbered across them", async () => {
  const files = [CURSOR, CODEX, CLAUDE, CODEX_RESUMED, CLAUDE_EARLY, CODEX_EARLY, CURSOR];
  const dir = folder(files);
  try {
    for (const argv of [["text", "-v"], ["text", "--final"], ["json"], ["timeline"], ["diff", "--name-only"], ["stats", "--format", "json"]]) {
      const alone = [];
      for (const f of files) alone.push((await runCli([...argv, f])).stdout);
      const all = await runCli([...argv, dir]);
      assert.equal(all.code, 0, `${argv.join(" ")}: ${all.stderr}`);
      if (argv[0] === "timeline") {
        const rows = (s: string) => s.split("\n").slice(1).filter((l) => l !== "");
        assert.equal(rows(all.stdout).length, alone.reduce((n, s) => n + rows(s).length, 0), argv.join(" "));
        // Sessions numbered across the input: the Codex files' rows carry the numbers of their place.
        assert.notEqual(all.stdout, alone.join(""));
      } else if (argv[0] === "stats") {
        // One object per run, then the total: the runs' objects are each file's, renumbered.
        const sessions = (s: string) => s.split("\n").filter((l) => l.startsWith('{"type":"session"')).map((l) => ({ ...JSON.parse(l), index: 0, file: "" }));
        assert.deepEqual(sessions(all.stdout), alone.flatMap(sessions), argv.join(" "));
      } else assert.equal(all.stdout, alone.join(""), argv.join(" "));
    }
    // --jobs: the same as one job.
    const one = await runCli(["json", dir]);
    const two = await runCli(["json", "--jobs", "2", dir]);
    assert.equal(two.stdout, one.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--agent gemini reads a Gemini CLI log as without the option; --agent cursor reads it as cursor-agent's (no tool calls)", async () => {
  const own = await runCli(["text", GEMINI]);
  assert.notEqual(own.stdout, "");
  assert.equal((await runCli(["text", "--agent", "gemini", GEMINI])).stdout, own.stdout);
  assert.equal((await runCli(["text", "--agent", "cursor", GEMINI])).stdout, "");
});

test("--agent codex reads every file as Codex's: a Codex log as without it; a Cursor log read so has no call", async () => {
  const own = await runCli(["text", "-v", CODEX]);
  assert.notEqual(own.stdout, "");
  assert.equal((await runCli(["text", "-v", "--agent", "codex", CODEX])).stdout, own.stdout);
  const forced = await runCli(["text", "-v", "--agent", "codex", CURSOR]);
  assert.equal(forced.stdout, "");
  // Read as cursor-agent's, a Codex log has no run that ends: no result line.
  const asCursor = await runCli(["json", "--agent", "cursor", CODEX]);
  assert.equal(asCursor.stdout, "");
  assert.equal(asCursor.code, 4);
});

test("Codex's stream of before Oct 2025 ({id, msg}, no type) is refused by every command that reads runs, naming it (exit 2); the next file is read", async () => {
  const LEGACY = "test/fixtures/codex/legacy/v1.ndjson";
  for (const argv of [["json"], ["text", "-v"], ["stats"], ["show"], ["timeline"], ["diff", "--stat"], ["export"]]) {
    const r = await runCli([...argv, LEGACY, CODEX]);
    assert.equal(r.code, 2, `${argv.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /^cursorlog: error \(at test\/fixtures\/codex\/legacy\/v1\.ndjson:1\): this is Codex exec --json of before Oct 2025 \(an event \{id, msg\} of msg\.type session_configured\), not cursor-agent's/m, argv.join(" "));
    assert.equal(r.stdout, (await runCli([...argv, CODEX])).stdout, argv.join(" "));
  }
});

test("a folder of the four agents' logs (Cursor, Claude Code, Codex, Gemini CLI): every command gives, in one run and with --jobs 2, what each file gives alone", async () => {
  const files = [CURSOR, CODEX, CLAUDE, GEMINI, CLAUDE_EARLY, CODEX_RESUMED, GEMINI_TWO, CURSOR];
  const dir = folder(files);
  try {
    for (const argv of [["json"], ["text", "-v"], ["text", "--final"], ["filter", "--tool", "shell"], ["filter", "--type", "result"], ["timeline"], ["stats", "--format", "json"], ["validate", "--format", "json"], ["diff", "--name-only"]]) {
      const alone = [];
      let worst = 0;
      for (const f of files) {
        const r = await runCli([...argv, f]);
        alone.push(r.stdout);
        worst = Math.max(worst, r.code);
      }
      const all = await runCli([...argv, dir]);
      const what = `${argv.join(" ")} over the folder`;
      // The status is the worst of the files' (a Gemini run that failed: 1).
      assert.equal(all.code, worst, `${what}: ${all.stderr}`);
      if (argv[0] === "timeline") {
        // Sessions are numbered across the input: the rows are each file's, renumbered.
        const rows = (s: string) => s.split("\n").slice(1).filter((l) => l !== "");
        assert.equal(rows(all.stdout).length, alone.reduce((n, s) => n + rows(s).length, 0), what);
      } else if (argv[0] === "stats") {
        const sessions = (s: string) => s.split("\n").filter((l) => l.startsWith('{"type":"session"')).map((l) => ({ ...(JSON.parse(l) as object), index: 0, file: "" }));
        assert.deepEqual(sessions(all.stdout), alone.flatMap(sessions), what);
      } else if (argv[0] === "validate") {
        // One summary for the input: each file's errors and warnings as alone, the file named as in the folder.
        const problems = (s: string) => s.split("\n").filter((l) => l.startsWith("{") && !l.includes('"type":"summary"')).map((l) => { const o = JSON.parse(l) as { file?: string }; return { ...o, file: "" }; });
        assert.deepEqual(problems(all.stdout), alone.flatMap(problems), what);
      } else assert.equal(all.stdout, alone.join(""), what);
      if (argv[0] === "json" || argv[0] === "text") assert.equal((await runCli([...argv, "--jobs", "2", dir])).stdout, all.stdout, `${what}, --jobs 2`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("dialectFor: an event no dialect claims outright but with another agent's shape is read by that agent's dialect, never refused as a format cursorlog reads (a Gemini CLI init without its timestamp)", async () => {
  assert.equal(dialectFor({ type: "init", session_id: "s", model: "gemini-2.5-pro" }), geminiDialect);
  assert.equal(dialectFor({ type: "result", status: "success", stats: { total_tokens: 1 } }), geminiDialect);
  const lines = readFileSync(GEMINI, "utf8").split("\n");
  const first = JSON.parse(lines[0]!) as JsonObject;
  delete first.timestamp;
  lines[0] = JSON.stringify(first);
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-untimed-init-"));
  try {
    writeFileSync(join(dir, "g.ndjson"), lines.join("\n"));
    const r = await runCli(["text", "-v", join(dir, "g.ndjson")]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, (await runCli(["text", "-v", GEMINI])).stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** What the refusal says cursorlog reads (src/stream/refuse-other-agents.ts). */
const READS = "cursorlog reads the logs of cursor-agent --print --output-format stream-json, gemini -p --output-format stream-json, codex exec --json and claude -p --output-format stream-json --verbose";

test("dialectFor: the look-alikes with Claude Code's envelope (Qwen Code, Amp) are no dialect's: not Claude Code's (its init lists tools), so refused", () => {
  assert.equal(dialectFor({ ...init("s"), qwen_code_version: "0.9.0", claude_code_version: undefined }), cursorDialect);
  assert.equal(dialectFor(assistant("s", "msg_02", [toolUse("t1", "run_shell_command", { command: "ls" })])), cursorDialect);
  assert.equal(dialectFor(init("T-abc")), cursorDialect);
  assert.equal(dialectFor(init("s")), claudeDialect);
});

test("the look-alikes of Claude Code (Qwen Code, Amp) are refused by every command that reads runs with one line naming what they look like (exit 2); the next file in the same run is read", async () => {
  const ndjson = (lines: JsonObject[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  // Qwen Code: Claude's envelope, its own version key, Gemini CLI's tool names (the shapes of claude-reader.test.ts's recognise test).
  const qwen = (sid: string) => [assistant(sid, "msg_02", [toolUse("t1", "run_shell_command", { command: "ls" })]), user(sid, [toolResult("t1", "ok")]), result(sid)];
  const files: Array<[name: string, lines: JsonObject[], line: string]> = [
    ["qwen.ndjson", [{ ...init("s"), qwen_code_version: "0.9.0", claude_code_version: undefined }, ...qwen("s")], "this is Qwen Code stream-json (a system/init event with qwen_code_version)"],
    ["qwen-cut.ndjson", qwen("s"), "this is Qwen Code stream-json (an assistant message calling run_shell_command, a Gemini CLI tool name)"],
    ["amp.ndjson", [init("T-abc"), assistant("T-abc", "msg_01", [toolUse("toolu_1", "Bash", { command: "ls" })]), user("T-abc", [toolResult("toolu_1", "ok")]), result("T-abc")], "this is Amp stream-json (a system/init event with a session id T-…)"],
  ];
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-look-alikes-"));
  try {
    for (const [name, lines, says] of files) {
      const file = join(dir, name);
      writeFileSync(file, ndjson(lines));
      for (const argv of [["json"], ["text", "-v"], ["stats"], ["show"], ["timeline"], ["validate"], ["diff", "--stat"], ["export"]]) {
        const what = `${argv.join(" ")} ${name}`;
        const alone = await runCli([...argv, CLAUDE]);
        const r = await runCli([...argv, file, CLAUDE]);
        assert.equal(r.code, 2, `${what}: ${r.stderr}`);
        assert.equal(r.stderr, `cursorlog: error (at ${file}:1): ${says}, not cursor-agent's: ${READS}\n${alone.stderr}`, what);
        assert.equal(r.stdout, alone.stdout, what);
      }
      // --agent claude reads it as Claude Code's, as asked.
      const forced = await runCli(["text", "--agent", "claude", file]);
      assert.equal(forced.code, 0, forced.stderr);
      assert.notEqual(forced.stdout, "");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
