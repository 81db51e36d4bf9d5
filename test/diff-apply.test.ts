import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";

/**
 * `cursorlog diff` against the tree a run started from: the tree is built here from the log on its
 * own (each file's first beforeFullFileContent / prevContent; created files absent), the patch must
 * pass `git apply --check`, and once applied every file must hold the log's last content for it.
 */
interface Tree {
  before: Map<string, string>;
  after: Map<string, string | null>;
}

function treeOf(log: string): Tree {
  const before = new Map<string, string>();
  const after = new Map<string, string | null>();
  const seen = new Set<string>();
  let cwd = "";
  for (const text of readFileSync(log, "utf8").split("\n")) {
    if (!text.startsWith("{")) continue;
    const ev = JSON.parse(text);
    if (ev.type === "system" && ev.subtype === "init") cwd = ev.cwd;
    if (ev.type !== "tool_call" || ev.subtype !== "completed") continue;
    const entry = Object.entries(ev.tool_call).find(([k]) => k.endsWith("ToolCall")) as [string, any] | undefined;
    if (entry === undefined) continue;
    const [kind, body] = entry;
    const ok = body.result?.success;
    if (!ok || !["editToolCall", "deleteToolCall", "writeToolCall"].includes(kind)) continue;
    const abs: string = ok.path ?? body.args.path;
    const rel = abs.startsWith(cwd + "/") ? abs.slice(cwd.length + 1) : abs;
    if (!seen.has(rel)) {
      seen.add(rel);
      const b = kind === "deleteToolCall" ? ok.prevContent : ok.beforeFullFileContent;
      if (typeof b === "string") before.set(rel, b);
    }
    after.set(rel, kind === "deleteToolCall" ? null : kind === "writeToolCall" ? body.args.fileText : ok.afterFullFileContent);
  }
  return { before, after };
}

function git(dir: string, args: string[], input?: string): { code: number; err: string } {
  const r = spawnSync("git", args, { cwd: dir, input, encoding: "utf8" });
  return { code: r.status ?? -1, err: r.stderr };
}

function build(tree: Tree): string {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-apply-"));
  assert.equal(git(dir, ["init", "-q", "."]).code, 0);
  for (const [rel, content] of tree.before) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

for (const log of ["test/fixtures/2026-long.ndjson", "test/fixtures/diff/combined.ndjson", "test/fixtures/large-results.ndjson", "test/fixtures/2025-shape.ndjson"]) {
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
      for (const [rel, content] of tree.after) {
        if (content === null) assert.equal(existsSync(join(dir, rel)), false, `${rel} deleted`);
        else assert.equal(readFileSync(join(dir, rel), "utf8"), content, `${rel} holds the log's last content`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("git apply --check refuses the patch against a tree the run did not start from", async () => {
  const log = "test/fixtures/diff/combined.ndjson";
  const got = await runCli(["diff", log]);
  const tree = treeOf(log);
  tree.before.set("src/a.txt", tree.before.get("src/a.txt")!.replace("line 2\n", "line 2 edited elsewhere\n"));
  const dir = build(tree);
  try {
    const check = git(dir, ["apply", "--check", "-"], got.stdout);
    assert.notEqual(check.code, 0);
    assert.match(check.err, /src\/a\.txt/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two runs in one log editing the same file: their patches, one after the other, apply in turn", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-apply-runs-"));
  try {
    const path = "/w/a.txt";
    const edit = (sid: string, id: string, before: string, after: string) => [
      { type: "tool_call", subtype: "started", call_id: id, tool_call: { editToolCall: { args: { path } } }, session_id: sid },
      { type: "tool_call", subtype: "completed", call_id: id, tool_call: { editToolCall: { args: { path }, result: { success: { path, beforeFullFileContent: before, afterFullFileContent: after } } } }, session_id: sid },
    ];
    const log = join(dir, "runs.ndjson");
    const events = [
      { type: "system", subtype: "init", cwd: "/w", session_id: "s1" },
      ...edit("s1", "c1", "1\n2\n3\n", "1\nTWO\n3\n"),
      { type: "result", subtype: "success", is_error: false, session_id: "s1" },
      { type: "system", subtype: "init", cwd: "/w", session_id: "s2" },
      ...edit("s2", "c2", "1\nTWO\n3\n", "1\nTWO\nTHREE\n"),
      { type: "result", subtype: "success", is_error: false, session_id: "s2" },
    ];
    writeFileSync(log, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const got = await runCli(["diff", log]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout.match(/^diff --git a\/a\.txt b\/a\.txt$/gm)?.length, 2);
    const tree = join(dir, "tree");
    mkdirSync(tree);
    assert.equal(git(tree, ["init", "-q", "."]).code, 0);
    writeFileSync(join(tree, "a.txt"), "1\n2\n3\n");
    const check = git(tree, ["apply", "--check", "-"], got.stdout);
    assert.equal(check.code, 0, check.err);
    assert.equal(git(tree, ["apply", "-"], got.stdout).code, 0);
    assert.equal(readFileSync(join(tree, "a.txt"), "utf8"), "1\nTWO\nTHREE\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
