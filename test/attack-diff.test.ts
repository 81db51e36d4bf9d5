import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { completed, init, line, result, started, type Ev } from "./helpers/events.js";
import { runCli } from "./helpers/run-cli.js";

/**
 * Issue 24, items 8 and 23: `diff` must not write a path `git apply` refuses (one that leaves the
 * run's folder, names a folder, or lies inside `.git`): `git apply` rejects the whole patch for one
 * such path, the good files included. Each is left out and named once on stderr. A Windows path is
 * inside a Windows cwd whatever the case of its letters; a drive-relative path is placed only when
 * the cwd is on its drive.
 */
const SID = "00000000-0000-4000-8000-000000000024";

/** A successful edit of `path` from `before` to `after`, as a started/completed pair. */
function edit(n: number, path: string, before: string, after: string): Ev[] {
  const id = `call_${n}\nfc_${n}`;
  return [
    started(SID, id, "editToolCall", { path }),
    completed(SID, id, "editToolCall", {
      args: { path },
      result: { success: { path, linesAdded: 1, linesRemoved: 1, beforeFullFileContent: before, afterFullFileContent: after } },
    }),
  ];
}

/** A successful creation of `path` (2025's writeToolCall). */
function create(n: number, path: string, text: string): Ev[] {
  const id = `call_${n}\nfc_${n}`;
  return [started(SID, id, "writeToolCall", { path, fileText: text }), completed(SID, id, "writeToolCall", { args: { path, fileText: text }, result: { success: { path, linesCreated: 1 } } })];
}

function writeLog(dir: string, events: Ev[]): string {
  const log = join(dir, "run.ndjson");
  writeFileSync(log, events.map(line).join(""));
  return log;
}

function git(dir: string, args: string[], input?: string): { code: number; err: string } {
  const r = spawnSync("git", args, { cwd: dir, input, encoding: "utf8", timeout: 30_000 });
  return { code: r.status ?? -1, err: r.stderr };
}

/** A git repository holding `files`, where `git apply --check` of `patch` must pass. */
function assertApplies(files: Record<string, string>, patch: string): void {
  const repo = mkdtempSync(join(tmpdir(), "cursorlog-attack-diff-repo-"));
  try {
    assert.equal(git(repo, ["init", "-q", "."]).code, 0);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, rel)), { recursive: true });
      writeFileSync(join(repo, rel), text);
    }
    const check = git(repo, ["apply", "--check", "-"], patch);
    assert.equal(check.code, 0, check.err);
    assert.equal(git(repo, ["apply", "-"], patch).code, 0);
    assert.equal(readFileSync(join(repo, "src/a.txt"), "utf8"), "2\n");
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

test("diff leaves out paths that leave the run's folder, name a folder or lie in .git: git apply takes the rest", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-diff-"));
  try {
    const log = writeLog(dir, [
      init(SID, { cwd: "/home/dev/app" }),
      ...create(1, "../x.txt", "x\n"),
      ...edit(2, "/home/dev/app/src/a.txt", "1\n", "2\n"),
      ...create(3, "src/../../y.txt", "y\n"),
      ...create(4, "..\\..\\z.txt", "z\n"),
      ...create(5, "dir/", "d\n"),
      ...create(6, ".git/hooks/post-checkout", "#!/bin/sh\n"),
      ...create(7, "/home/dev/app/sub/.GIT/config", "c\n"),
      ...create(8, "/home/dev/elsewhere.txt", "e\n"),
      ...create(9, "/home/dev/app/../outside.txt", "o\n"),
      ...create(10, "../x.txt", "x again\n"),
      ...create(11, "src/./new.txt", "n\n"),
      result(SID, { duration_ms: 1, is_error: false, result: "" }),
    ]);
    const r = await runCli(["diff", log]);
    assert.equal(r.code, 0);
    const at = (n: number) => `cursorlog: warning (at ${log}:${n}): `;
    assert.equal(
      r.stderr,
      [
        `${at(3)}../x.txt: not inside the run's folder /home/dev/app: left out of the patch`,
        `${at(7)}src/../../y.txt: not inside the run's folder /home/dev/app: left out of the patch`,
        `${at(9)}..\\..\\z.txt: not inside the run's folder /home/dev/app: left out of the patch`,
        `${at(11)}dir/: a folder, not a file: left out of the patch`,
        `${at(13)}.git/hooks/post-checkout: inside .git, which git apply refuses: left out of the patch`,
        `${at(15)}/home/dev/app/sub/.GIT/config: inside .git, which git apply refuses: left out of the patch`,
        `${at(17)}/home/dev/elsewhere.txt: not inside the run's folder /home/dev/app: left out of the patch`,
        `${at(19)}/home/dev/app/../outside.txt: not inside the run's folder /home/dev/app: left out of the patch`,
        "",
      ].join("\n"),
    );
    assert.equal(
      r.stdout,
      [
        "diff --git a/src/a.txt b/src/a.txt",
        "--- a/src/a.txt",
        "+++ b/src/a.txt",
        "@@ -1 +1 @@",
        "-1",
        "+2",
        "diff --git a/src/new.txt b/src/new.txt",
        "new file mode 100644",
        "--- /dev/null",
        "+++ b/src/new.txt",
        "@@ -0,0 +1 @@",
        "+n",
        "",
      ].join("\n"),
    );
    assertApplies({ "src/a.txt": "1\n" }, r.stdout);
    // --stat and --name-only list the patch's files: the ones left out are not among them.
    assert.equal((await runCli(["diff", "--name-only", log])).stdout, "src/a.txt\nsrc/new.txt\n");
    assert.equal((await runCli(["diff", "--stat", log])).stdout, " src/a.txt   | 2 +-\n src/new.txt | 1 +\n 2 files changed, 2 insertions(+), 1 deletion(-)\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("diff places a Windows path inside a Windows cwd whatever its case; a drive-relative path only on the cwd's drive", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-diff-"));
  try {
    const log = writeLog(dir, [
      init(SID, { cwd: "C:\\Users\\Dev\\App" }),
      ...edit(1, "c:\\users\\dev\\app\\src\\a.txt", "1\n", "2\n"),
      ...create(2, "C:..\\..\\x.txt", "x\n"),
      ...create(3, "C:sub\\y.txt", "y\n"),
      ...create(4, "D:z.txt", "z\n"),
      ...create(5, "D:\\Users\\Dev\\App\\w.txt", "w\n"),
      ...create(6, "C:\\Users\\Dev\\Application\\v.txt", "v\n"),
      result(SID, { duration_ms: 1, is_error: false, result: "" }),
    ]);
    const r = await runCli(["diff", "--name-only", log]);
    assert.equal(r.code, 0);
    const at = (n: number) => `cursorlog: warning (at ${log}:${n}): `;
    assert.equal(
      r.stderr,
      [
        `${at(5)}C:..\\..\\x.txt: not inside the run's folder C:\\Users\\Dev\\App: left out of the patch`,
        `${at(9)}D:z.txt: relative to the current folder of drive D:, which the log does not give: left out of the patch`,
        `${at(11)}D:\\Users\\Dev\\App\\w.txt: not inside the run's folder C:\\Users\\Dev\\App: left out of the patch`,
        `${at(13)}C:\\Users\\Dev\\Application\\v.txt: not inside the run's folder C:\\Users\\Dev\\App: left out of the patch`,
        "",
      ].join("\n"),
    );
    assert.equal(r.stdout, "src/a.txt\nsub/y.txt\n");
    assertApplies({ "src/a.txt": "1\n" }, (await runCli(["diff", log])).stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("diff without a cwd in the log keeps relative paths and leaves out absolute ones", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-diff-"));
  try {
    const log = writeLog(dir, [init(SID), ...edit(1, "src/a.txt", "1\n", "2\n"), ...create(2, "/etc/x.txt", "x\n"), result(SID, { duration_ms: 1, is_error: false, result: "" })]);
    const r = await runCli(["diff", log]);
    assert.equal(r.stderr, `cursorlog: warning (at ${log}:5): /etc/x.txt: the log names no cwd to place it in: left out of the patch\n`);
    assertApplies({ "src/a.txt": "1\n" }, r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
