import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";

const FILES = [
  "test/fixtures/2026-long.ndjson",
  "test/fixtures/crash-no-result.ndjson",
  "test/fixtures/does-not-exist.ndjson",
  "test/fixtures/two-sessions.ndjson",
  "test/fixtures/2026-long.ndjson.gz",
  "test/fixtures/parallel-out-of-order.ndjson",
];

for (const argv of [["json"], ["text", "-v"], ["json", "--allow-incomplete"]]) {
  test(`--jobs 2 and 3 give byte-identical output, diagnostics and status to --jobs 1: ${argv.join(" ")}`, async () => {
    const one = await runCli([...argv, "--jobs", "1", ...FILES]);
    assert.notEqual(one.stdout, "");
    assert.match(one.stderr, /does-not-exist/);
    for (const n of ["2", "3"]) assert.deepEqual(await runCli([...argv, "--jobs", n, ...FILES]), one, `--jobs ${n}`);
  });
}

test("--jobs: directories are expanded, and one that gives no log is reported first, as with --jobs 1", async () => {
  const empty = mkdtempSync(join(tmpdir(), "cursorlog-jobs-empty-"));
  try {
    const files = ["test/fixtures/validate/logs", empty, ...FILES];
    for (const argv of [["json"], ["text", "-v"]]) {
      const one = await runCli([...argv, "--jobs", "1", ...files]);
      assert.equal(one.code, 2);
      assert.ok(one.stderr.startsWith(`cursorlog: error (at ${empty}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory\n`), one.stderr);
      for (const n of ["2", "3"]) assert.deepEqual(await runCli([...argv, "--jobs", n, ...files]), one, `${argv.join(" ")} --jobs ${n}`);
    }
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test("--jobs through the real executable (compiled worker), and | head still quiet", () => {
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1" };
  const seq = spawnSync("node", ["bin/cursorlog.js", "text", ...FILES], { env, encoding: "utf8" });
  const par = spawnSync("node", ["bin/cursorlog.js", "text", "-j", "2", ...FILES], { env, encoding: "utf8" });
  assert.deepEqual([par.status, par.stdout, par.stderr], [seq.status, seq.stdout, seq.stderr]);
  const head = spawnSync("bash", ["--norc", "--noprofile", "-c", `node bin/cursorlog.js text -j 2 ${FILES.join(" ")} 2>/dev/null | head -n1; echo "status=\${PIPESTATUS[0]}"`], { env, encoding: "utf8" });
  assert.equal(head.stdout, "Listed directory\nstatus=0\n");
});
