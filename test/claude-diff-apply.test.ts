// `cursorlog diff` of Claude Code logs against the tree a run started from, as
// test/diff-apply.test.ts does for cursor-agent's: the tree is built here from the log on its own
// (each file's first `originalFile` in a Write's or Edit's `tool_use_result`; a file created
// absent), the patch must pass `git apply --check`, and once applied every file must hold what
// the log says it held last (a Write's `content`; an Edit's `originalFile` with its
// `oldString` → `newString`, worked out here apart from the dialect's reading of structuredPatch).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { test } from "node:test";
import { assistant, init, result, system, taskNotification, text, toolResult, toolUse, user } from "./helpers/claude-events.js";
import { runCli } from "./helpers/run-cli.js";

interface Tree {
  before: Map<string, string>;
  after: Map<string, string>;
}

function treeOf(log: string): Tree {
  const before = new Map<string, string>();
  const after = new Map<string, string>();
  const seen = new Set<string>();
  const tools = new Map<string, string>();
  let cwd = "";
  for (const text of readFileSync(log, "utf8").split("\n")) {
    if (!text.startsWith("{")) continue;
    const ev = JSON.parse(text);
    if (ev.type === "system" && ev.subtype === "init") cwd = ev.cwd;
    for (const b of ev.message?.content ?? []) if (b.type === "tool_use") tools.set(b.id, b.name);
    if (ev.type !== "user" || typeof ev.tool_use_result !== "object" || ev.tool_use_result === null) continue;
    const block = ev.message.content.find((b: { type: string }) => b.type === "tool_result");
    const tool = tools.get(block.tool_use_id);
    const r = ev.tool_use_result;
    if ((tool !== "Write" && tool !== "Edit") || block.is_error === true) continue;
    // A file outside the run's folder is left out of the patch (warned): not in the tree either.
    const rel = posix.relative(cwd, posix.normalize(r.filePath));
    if (rel.startsWith("../")) continue;
    if (!seen.has(rel)) {
      seen.add(rel);
      if (typeof r.originalFile === "string") before.set(rel, r.originalFile);
    }
    if (tool === "Write") after.set(rel, r.content);
    else {
      const from: string = r.originalFile;
      assert.equal(from.split(r.oldString).length, 2, `${rel}: the test works out only edits of one occurrence`);
      after.set(rel, from.replace(r.oldString, () => r.newString));
    }
  }
  return { before, after };
}

function git(dir: string, args: string[], input?: string): { code: number; err: string } {
  const r = spawnSync("git", args, { cwd: dir, input, encoding: "utf8" });
  return { code: r.status ?? -1, err: r.stderr };
}

function build(tree: Tree): string {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-claude-apply-"));
  assert.equal(git(dir, ["init", "-q", "."]).code, 0);
  for (const [rel, content] of tree.before) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/** Every Claude Code fixture whose runs changed files, by their logs' own say. */
const LOGS = ["test/fixtures/claude", "test/fixtures/claude/edge"].flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith(".ndjson"))
    .sort()
    .map((f) => `${d}/${f}`)
    .filter((f) => treeOf(f).after.size > 0),
);

test("the Claude Code fixtures that change files are the ones expected", () => {
  assert.deepEqual(LOGS, ["test/fixtures/claude/tools.ndjson", "test/fixtures/claude/edge/edits.ndjson"]);
});

for (const log of LOGS) {
  test(`git apply takes cursorlog diff ${log} against the tree the run started from`, async () => {
    const got = await runCli(["diff", log]);
    assert.equal(got.code, 0, got.stderr);
    assert.notEqual(got.stdout, "");
    const tree = treeOf(log);
    const dir = build(tree);
    try {
      const check = git(dir, ["apply", "--check", "-"], got.stdout);
      assert.equal(check.code, 0, check.err);
      assert.equal(git(dir, ["apply", "-"], got.stdout).code, 0);
      for (const [rel, content] of tree.after) assert.equal(readFileSync(join(dir, rel), "utf8"), content, `${rel} holds the log's last content`);
      // Nothing else: the patch names the files the log changed, and only those.
      const named = [...got.stdout.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]).sort();
      assert.deepEqual(named, [...tree.after.keys()].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("git apply --check refuses a Claude Code patch against a tree the run did not start from", async () => {
  const log = "test/fixtures/claude/edge/edits.ndjson";
  const got = await runCli(["diff", log]);
  const tree = treeOf(log);
  tree.before.set("src/list.ts", tree.before.get("src/list.ts")!.replace("const b = 2;", "const b = 3;"));
  const dir = build(tree);
  try {
    const check = git(dir, ["apply", "--check", "-"], got.stdout);
    assert.notEqual(check.code, 0);
    assert.match(check.err, /src\/list\.ts/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a run of 2.1.15 (no tool_use_result): no patch, the file named on stderr and by --name-only, ? in --stat", async () => {
  const log = "test/fixtures/claude/early-2026.ndjson";
  const patch = await runCli(["diff", log]);
  assert.deepEqual([patch.code, patch.stdout], [0, ""]);
  assert.match(patch.stderr, /src\/parse\.js: the log holds no content of this edit/);
  assert.deepEqual([(await runCli(["diff", "--name-only", log])).stdout], ["src/parse.js\n"]);
  assert.match((await runCli(["diff", "--stat", log])).stdout, /^ src\/parse\.js \| \?\n/);
});

test("a background subagent's edit that completes after the run's result is in that run's patch, before the next run's", async () => {
  const S = "9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6";
  const T = Date.parse("2026-10-04T09:00:00.000Z");
  const before = "a\nb\nc\n";
  const editResult = { filePath: "/work/project/notes.txt", oldString: "b", newString: "B", originalFile: before, structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" a", "-b", "+B", " c"] }], userModified: false, replaceAll: false };
  const lines = [
    init(S),
    assistant(S, "msg_1", [toolUse("toolu_agent", "Agent", { subagent_type: "general-purpose", description: "Fix notes", prompt: "…", run_in_background: true })], { at: T }),
    user(S, [toolResult("toolu_agent", [{ type: "text", text: "Async agent launched successfully." }])], { at: T + 100, toolUseResult: { isAsync: true, status: "async_launched", agentId: "a1", description: "Fix notes", prompt: "…", outputFile: "/tmp/a1.output" } }),
    assistant(S, "msg_2", [text("Started a background agent.")], { at: T + 200 }),
    result(S),
    // After the result: the subagent's edit, then its end.
    assistant(S, "msg_3", [toolUse("toolu_edit", "Edit", { file_path: "/work/project/notes.txt", old_string: "b", new_string: "B", replace_all: false })], { at: T + 300, parent: "toolu_agent" }),
    user(S, [toolResult("toolu_edit", "The file /work/project/notes.txt has been updated successfully.")], { at: T + 400, parent: "toolu_agent", toolUseResult: editResult }),
    taskNotification(S, "a1", "toolu_agent", "completed", "Fixed"),
    // The next run (the turn the CLI starts when the task ends), which edits the file again.
    system(S, "init", { cwd: "/work/project", tools: [], mcp_servers: [], model: "claude-haiku-4-5", permissionMode: "default", claude_code_version: "2.1.285" }),
    assistant(S, "msg_4", [toolUse("toolu_edit2", "Edit", { file_path: "/work/project/notes.txt", old_string: "c", new_string: "C", replace_all: false })], { at: T + 500 }),
    user(S, [toolResult("toolu_edit2", "ok")], { at: T + 600, toolUseResult: { ...editResult, oldString: "c", newString: "C", originalFile: "a\nB\nc\n", structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" a", " B", "-c", "+C"] }] } }),
    result(S, { result_index: 1 }),
  ];
  const stdin = Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const got = await runCli(["diff"], { stdin });
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stderr, "");
  assert.equal(
    got.stdout,
    "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" +
      "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n a\n B\n-c\n+C\n",
  );
  // Each run's patch applies in turn to the tree it started from.
  const dir = build({ before: new Map([["notes.txt", before]]), after: new Map() });
  try {
    const check = git(dir, ["apply", "--check", "-"], got.stdout);
    assert.equal(check.code, 0, check.err);
    assert.equal(git(dir, ["apply", "-"], got.stdout).code, 0);
    assert.equal(readFileSync(join(dir, "notes.txt"), "utf8"), "a\nB\nC\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
