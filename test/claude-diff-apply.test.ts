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

/** What a Read's text numbered `     N→` (2.1.15) shows: its lines' text, joined by newlines (worked out here apart from the dialect). */
function unnumbered(text: string): string {
  return text
    .split("\n")
    .map((l) => /^ *\d+→(.*)$/.exec(l)![1])
    .join("\n");
}

/** `git apply` of `patch` onto files holding `before`: the files after it (a failed check fails the test). */
function applied(patch: string, before: Record<string, string>): Record<string, string> {
  const dir = build({ before: new Map(Object.entries(before)), after: new Map() });
  try {
    const check = git(dir, ["apply", "--check", "-"], patch);
    assert.equal(check.code, 0, check.err);
    assert.equal(git(dir, ["apply", "-"], patch).code, 0);
    return Object.fromEntries(Object.keys(before).map((rel) => [rel, readFileSync(join(dir, rel), "utf8")]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a run of 2.1.15 (no tool_use_result): the Edit is made from what the Read before it showed whole, and git apply takes it onto that content", async () => {
  const log = "test/fixtures/claude/early-2026.ndjson";
  const lines = readFileSync(log, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const shown = lines[4].message.content.find((b: { tool_use_id: string }) => b.tool_use_id === lines[3].message.content[1].id).content;
  const before = unnumbered(shown);
  assert.equal(before.split("\n").length, 6, "the Read shows src/parse.js whole: 5 lines and a newline");
  const edit = lines[5].message.content[0].input;
  const patch = await runCli(["diff", log]);
  assert.deepEqual([patch.code, patch.stderr], [0, ""]);
  assert.deepEqual(applied(patch.stdout, { "src/parse.js": before }), { "src/parse.js": before.replace(edit.old_string, () => edit.new_string) });
  assert.deepEqual([(await runCli(["diff", "--name-only", log])).stdout], ["src/parse.js\n"]);
  assert.match((await runCli(["diff", "--stat", log])).stdout, /^ src\/parse\.js \| 2 \+-\n/);
});

test("the edge log of 2.1.15 reads: a whole Read then two Edits (one replace_all) applies; a part Read, a shell call between, an old_string not found: no patch, each said why", async () => {
  const log = "test/fixtures/claude/edge/reads-2026-early.ndjson";
  const lines = readFileSync(log, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const before = unnumbered(lines[2].message.content[0].content);
  const got = await runCli(["diff", log]);
  assert.equal(got.code, 0);
  assert.deepEqual(applied(got.stdout, { "src/a.js": before }), { "src/a.js": before.replace("const limit = 10;", "const limit = 12;").split("10").join("LIMIT") });
  assert.deepEqual([...got.stdout.matchAll(/^diff --git a\/(\S+) /gm)].map((m) => m[1]), ["src/a.js"]);
  assert.deepEqual(got.stderr.split("\n").filter((l) => l !== "").map((l) => l.replace(/^.*?: no patch: /, "")), [
    "the log shows no whole content of the file before this edit: the Read at line 9 asked for part of the file (offset, limit) (--name-only names it, --stat shows ?)",
    "a shell call (line 15) came between the Read that showed it whole (line 13) and this edit (--name-only names it, --stat shows ?)",
    "its old_string is not found in the content the Read at line 19 showed (--name-only names it, --stat shows ?)",
  ]);
});

/** A 2.1.15 run (no times, no tool_use_result) of these calls, each `[tool, input, result text]`, on stdin. */
async function early(calls: [string, Record<string, unknown>, string][]): Promise<{ code: number; stdout: string; stderr: string }> {
  const S = "4c5d6e7f-8091-4a2b-8c3d-4e5f60718293";
  const lines = [init(S, { cwd: "/work/project", version: "2.1.15" })];
  calls.forEach(([tool, input, out], i) => {
    lines.push(assistant(S, `msg_${i}`, [toolUse(`toolu_${i}`, tool, input)], { early: true }));
    lines.push(user(S, [toolResult(`toolu_${i}`, out)], { early: true }));
  });
  lines.push(result(S));
  return runCli(["diff"], { stdin: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") });
}

const F = "/work/project/src/f.txt";
const numbered = (text: string): string =>
  text
    .split("\n")
    .map((l, i) => `${String(i + 1).padStart(6, " ")}→${l}`)
    .join("\n");
const readF = (text: string, part: Record<string, unknown> = {}): [string, Record<string, unknown>, string] => ["Read", { file_path: F, ...part }, numbered(text)];
const editF = (old_string: string, new_string: string, more: Record<string, unknown> = {}): [string, Record<string, unknown>, string] => ["Edit", { file_path: F, old_string, new_string, ...more }, `The file ${F} has been updated.`];
const bash: [string, Record<string, unknown>, string] = ["Bash", { command: "make fmt", description: "Format" }, "ok"];
const whyOf = (stderr: string): string => /no patch: (.*) \(--name-only/.exec(stderr)?.[1] ?? `(no reason in: ${stderr})`;

test("a Read in part gives no content: a limit, an offset, each said", async () => {
  for (const part of [{ limit: 3 }, { offset: 1 }]) {
    const got = await early([readF("a\nb\nc\n".split("\n").slice(0, 3).join("\n"), part), editF("b", "B")]);
    assert.deepEqual([got.code, got.stdout], [0, ""]);
    assert.equal(whyOf(got.stderr), "the log shows no whole content of the file before this edit: the Read at line 3 asked for part of the file (offset, limit)");
  }
});

test("a Read's text that may be cut gives no content: a line not numbered, 2000 lines, a line of 2000 characters", async () => {
  const cases: [string, string][] = [
    [numbered("a\nb") + "\n... (file truncated)", "the Read at line 3 showed a line that is not numbered 3 (line 3 of its text): not only the file's lines"],
    [numbered(Array.from({ length: 2000 }, (_, i) => `l${i}`).join("\n")), "the Read at line 3 showed 2000 lines: a Read shows at most 2000 unless asked for more, so they may be cut"],
    [numbered("x".repeat(2000) + "\nb"), "the Read at line 3 showed a line of 2000 characters (line 1): a Read cuts longer lines, so it may be cut"],
  ];
  for (const [text, why] of cases) {
    const got = await early([["Read", { file_path: F }, text], editF("b", "B")]);
    assert.deepEqual([got.code, got.stdout], [0, ""]);
    assert.equal(whyOf(got.stderr), `the log shows no whole content of the file before this edit: ${why}`);
  }
});

test("the malware reminder Claude Code adds after a Read's numbered lines is not the file's", async () => {
  const reminder = "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code.\n</system-reminder>\n";
  const got = await early([["Read", { file_path: F }, numbered("a\nb\n") + reminder], editF("b", "B")]);
  assert.deepEqual([got.code, got.stderr], [0, ""]);
  assert.deepEqual(applied(got.stdout, { "src/f.txt": "a\nb\n" }), { "src/f.txt": "a\nB\n" });
});

test("THE RULE: a shell call between the Read and the Edit (or running while it read) leaves no content; a Read after it gives it again", async () => {
  let got = await early([readF("a\nb\n"), bash, editF("b", "B")]);
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.equal(whyOf(got.stderr), "a shell call (line 5) came between the Read that showed it whole (line 3) and this edit");
  // Between two edits: the first is made, the second is not.
  got = await early([readF("a\nb\n"), editF("a", "A"), bash, editF("b", "B")]);
  assert.equal(got.code, 0);
  assert.deepEqual(applied(got.stdout, { "src/f.txt": "a\nb\n" }), { "src/f.txt": "A\nb\n" });
  assert.equal(whyOf(got.stderr), "a shell call (line 7) came between its change at line 5 and this edit");
  // Read again after the shell call: the content is known again.
  got = await early([readF("a\nb\n"), bash, readF("a\nb\n"), editF("b", "B")]);
  assert.deepEqual([got.code, got.stderr], [0, ""]);
  assert.deepEqual(applied(got.stdout, { "src/f.txt": "a\nb\n" }), { "src/f.txt": "a\nB\n" });
  // Read again after the shell call, showing other content than the logged edits left: something the log does not show changed it.
  got = await early([readF("a\nb\n"), editF("a", "A"), bash, readF("A\nb\nc\n"), editF("b", "B")]);
  assert.equal(got.code, 0);
  assert.deepEqual(applied(got.stdout, { "src/f.txt": "a\nb\n" }), { "src/f.txt": "A\nb\n" });
  assert.equal(whyOf(got.stderr), "the Read at line 9 shows it other than its logged changes left it (changed by something the log does not show)");
  // A shell call started with the Read (one message, both calls) and answered after it: it ran while the file was read.
  const S = "4c5d6e7f-8091-4a2b-8c3d-4e5f60718293";
  const lines = [
    init(S, { cwd: "/work/project", version: "2.1.15" }),
    assistant(S, "msg_1", [toolUse("toolu_b", "Bash", { command: "make fmt" }), toolUse("toolu_r", "Read", { file_path: F })], { early: true }),
    user(S, [toolResult("toolu_r", numbered("a\nb\n")), toolResult("toolu_b", "ok")], { early: true }),
    assistant(S, "msg_2", [toolUse("toolu_e", "Edit", { file_path: F, old_string: "b", new_string: "B" })], { early: true }),
    user(S, [toolResult("toolu_e", "ok")], { early: true }),
    result(S),
  ];
  got = await runCli(["diff"], { stdin: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") });
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.equal(whyOf(got.stderr), "the log shows no whole content of the file before this edit: a shell call (line 2) ran while the Read at line 3 was made");
});

test("a Read answered with no start in the log gives no content (whether it asked for a part is not known)", async () => {
  const S = "4c5d6e7f-8091-4a2b-8c3d-4e5f60718293";
  const lines = [
    init(S, { cwd: "/work/project", version: "2.1.15" }),
    user(S, [toolResult("toolu_r", numbered("a\nb"))], { early: true }),
    assistant(S, "msg_2", [toolUse("toolu_e", "Edit", { file_path: F, old_string: "b", new_string: "B" })], { early: true }),
    user(S, [toolResult("toolu_e", "ok")], { early: true }),
    result(S),
  ];
  const got = await runCli(["diff"], { stdin: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") });
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.equal(whyOf(got.stderr), "the log shows no whole content of the file before this edit");
});

test("an old_string the Edit tool could not have found once in the Read's content: no patch, said why", async () => {
  let got = await early([readF("x = “hi”\n"), editF('"hi"', '"yo"')]);
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.equal(whyOf(got.stderr), "its old_string is not found in the content the Read at line 3 showed");
  got = await early([readF("a\na\n"), editF("a", "b")]);
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.equal(whyOf(got.stderr), "its old_string occurs 2 times (the Edit replaces exactly one) in the content the Read at line 3 showed");
  got = await early([readF("a\nb\nc\n"), editF("b", "")]);
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.match(whyOf(got.stderr), /^its old_string is deleted where a newline follows it \(Claude Code may delete that newline too/);
  // replace_all: every one, as the Edit tool replaces them.
  got = await early([readF("a\na\n"), editF("a", "b", { replace_all: true })]);
  assert.deepEqual([got.code, got.stderr], [0, ""]);
  assert.deepEqual(applied(got.stdout, { "src/f.txt": "a\na\n" }), { "src/f.txt": "b\nb\n" });
});

test("a Read with tool_use_result.file: whole by its numbers (startLine 1, numLines = totalLines), else the lines it showed", async () => {
  const S = "4c5d6e7f-8091-4a2b-8c3d-4e5f60718293";
  const run = (file: Record<string, unknown>) => {
    const lines = [
      init(S, { cwd: "/work/project" }),
      assistant(S, "msg_1", [toolUse("toolu_r", "Read", { file_path: F })]),
      user(S, [toolResult("toolu_r", "1\ta\n2\tb\n3\t")], { toolUseResult: { type: "text", file: { filePath: F, ...file } } }),
      // A subagent's Edit, whose user line carries no tool_use_result.
      assistant(S, "msg_2", [toolUse("toolu_e", "Edit", { file_path: F, old_string: "b", new_string: "B", replace_all: false })], { parent: "toolu_agent" }),
      user(S, [toolResult("toolu_e", "ok", false)], { parent: "toolu_agent" }),
      result(S),
    ];
    return runCli(["diff"], { stdin: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") });
  };
  let got = await run({ content: "a\nb\n", numLines: 3, startLine: 1, totalLines: 3 });
  assert.deepEqual([got.code, got.stderr], [0, ""]);
  assert.deepEqual(applied(got.stdout, { "src/f.txt": "a\nb\n" }), { "src/f.txt": "a\nB\n" });
  got = await run({ content: "b\n", numLines: 2, startLine: 2, totalLines: 3 });
  assert.deepEqual([got.code, got.stdout], [0, ""]);
  assert.equal(whyOf(got.stderr), "the log shows no whole content of the file before this edit: the Read at line 3 showed lines 2–3 of 3");
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
