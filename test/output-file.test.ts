import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync, copyFileSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const SESSION = "examples/session.ndjson";
const CRASHED = "test/fixtures/crash-no-result.ndjson";

function scratch(): string {
  return tempDir("cursorlog-o-");
}

test("-o FILE: every command writes its output to FILE (nothing on stdout), the same bytes it prints", async () => {
  const dir = scratch();
  for (const argv of [
    ["json", SESSION],
    ["text", "-v", SESSION],
    ["filter", "--type", "result", SESSION],
    ["timeline", SESSION],
    ["timeline", "--format", "html", SESSION],
    ["stats", SESSION],
    ["validate", SESSION],
    ["schema"],
    ["completion", "bash"],
  ]) {
    const plain = await runCli(argv);
    const out = join(dir, `${argv[0]}.out`);
    for (const args of [[...argv, "-o", out], ["-o", out, ...argv], [...argv, "--output", out]]) {
      const r = await runCli(args);
      assert.equal(r.stdout, "", args.join(" "));
      assert.equal(r.stderr, plain.stderr, args.join(" "));
      assert.equal(r.code, plain.code, args.join(" "));
      assert.equal(readFileSync(out, "utf8"), plain.stdout, args.join(" "));
    }
  }
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith(".")), [], "no temporary file left");
});

test("-o - is standard output", async () => {
  const plain = await runCli(["json", SESSION]);
  assert.deepEqual(await runCli(["json", "-o", "-", SESSION]), plain);
});

test("-o replaces FILE when the run read everything (0, 1, 4, 5 with --lenient), keeping its permissions", async () => {
  const dir = scratch();
  const out = join(dir, "result.json");
  writeFileSync(out, "old\n");
  chmodSync(out, 0o640);
  const crashed = await runCli(["json", "--allow-incomplete", CRASHED]);
  const r = await runCli(["json", "-o", out, CRASHED]);
  assert.equal(r.code, 4, "a session without a result: its status, and the output of the others");
  assert.equal(readFileSync(out, "utf8"), (await runCli(["json", CRASHED])).stdout);
  assert.notEqual(crashed.stdout, "");
  assert.equal(statSync(out).mode & 0o777, 0o640);
  const bad = join(dir, "bad.ndjson");
  writeFileSync(bad, readFileSync(SESSION, "utf8") + "[1]\n");
  const lenient = await runCli(["text", "--lenient", "-o", out, bad]);
  assert.equal(lenient.code, 5);
  assert.equal(readFileSync(out, "utf8"), (await runCli(["text", "--lenient", bad])).stdout);
});

test("-o leaves FILE as it was when the run fails (status 2, or 5 where reading stopped), and says so", async () => {
  const dir = scratch();
  const out = join(dir, "calls.csv");
  writeFileSync(out, "old\n");
  const missing = await runCli(["timeline", "-o", out, SESSION, join(dir, "nosuch.ndjson")]);
  assert.equal(missing.code, 2);
  assert.equal(readFileSync(out, "utf8"), "old\n");
  assert.match(missing.stderr, /cannot read: no such file or directory\n/);
  assert.ok(missing.stderr.endsWith(`cursorlog: ${out} left as it was (the run failed)\n`), missing.stderr);
  const bad = join(dir, "bad.ndjson");
  writeFileSync(bad, "[1]\n" + readFileSync(SESSION, "utf8"));
  const malformed = await runCli(["timeline", "-o", out, bad]);
  assert.equal(malformed.code, 5);
  assert.equal(readFileSync(out, "utf8"), "old\n");
  assert.deepEqual(readdirSync(dir).sort(), ["bad.ndjson", "calls.csv"], "no temporary file left");
  const fresh = join(dir, "new.csv");
  const none = await runCli(["timeline", "-o", fresh, join(dir, "nosuch.ndjson")]);
  assert.equal(none.code, 2);
  assert.ok(none.stderr.endsWith(`cursorlog: ${fresh} not written (the run failed)\n`), none.stderr);
  assert.ok(!existsSync(fresh));
});

test("-o into a directory that does not exist, or onto a directory: status 2 before reading, nothing created", async () => {
  const dir = scratch();
  const r = await runCli(["json", "-o", join(dir, "no", "x.json"), SESSION]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, `cursorlog: error: cannot write ${join(dir, "no", "x.json")}: no such directory\n`);
  const d = await runCli(["json", "-o", dir, SESSION]);
  assert.equal(d.code, 2);
  assert.equal(d.stderr, `cursorlog: error: cannot write ${dir}: is a directory\n`);
  assert.deepEqual(readdirSync(dir), []);
});

test("-o may name an input: it is replaced after everything was read (as sort -o)", async () => {
  const dir = scratch();
  const log = join(dir, "run.ndjson");
  copyFileSync(SESSION, log);
  const want = (await runCli(["filter", "--exclude-type", "thinking", SESSION])).stdout;
  const r = await runCli(["filter", "--exclude-type", "thinking", "-o", log, log]);
  assert.equal(r.code, 0);
  assert.equal(readFileSync(log, "utf8"), want);
});

test("-o through a symbolic link replaces the file it points to and keeps the link", async () => {
  const dir = scratch();
  writeFileSync(join(dir, "real.json"), "old\n");
  symlinkSync("real.json", join(dir, "link.json"));
  assert.equal((await runCli(["json", "-o", join(dir, "link.json"), SESSION])).code, 0);
  assert.equal(readFileSync(join(dir, "real.json"), "utf8"), (await runCli(["json", SESSION])).stdout);
  assert.equal(readFileSync(join(dir, "link.json"), "utf8"), (await runCli(["json", SESSION])).stdout);
});

test("-o with --jobs: the files' outputs in file order, in FILE", async () => {
  const dir = scratch();
  const files = [SESSION, "test/fixtures/two-sessions.ndjson", "test/fixtures/2026-long.ndjson"];
  const out = join(dir, "all.txt");
  const r = await runCli(["text", "-v", "--jobs", "2", "-o", out, ...files]);
  assert.equal(r.stdout, "");
  assert.equal(readFileSync(out, "utf8"), (await runCli(["text", "-v", ...files])).stdout);
});

test("timeline --format html is refused on a terminal, with a hint; -o or a pipe gets it", async () => {
  const r = await runCli(["timeline", "--format", "html", SESSION], { stdoutIsTTY: true });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    "cursorlog: error: not writing an HTML page to a terminal; write it to a file and open that:\n" +
      "  cursorlog timeline --format html -o run.html FILE...\n" +
      "(to see the HTML itself, pipe it: ... | less)\n",
  );
  const dir = scratch();
  const page = join(dir, "run.html");
  const o = await runCli(["timeline", "--format", "html", "-o", page, SESSION], { stdoutIsTTY: true });
  assert.equal(o.code, 0);
  assert.equal(readFileSync(page, "utf8"), (await runCli(["timeline", "--format", "html", SESSION])).stdout);
  assert.match(readFileSync(page, "utf8"), /^<!DOCTYPE html>/i);
});

test("-o: interrupted, FILE stays as it was and no temporary file is left", async () => {
  const dir = scratch();
  const out = join(dir, "out.txt");
  writeFileSync(out, "old\n");
  const child = spawn(process.execPath, [resolve("bin/cursorlog.js"), "text", "-o", out], { stdio: ["pipe", "ignore", "pipe"] });
  child.stdin.write(readFileSync(SESSION).subarray(0, 200)); // the run is under way, its input still open
  const deadline = Date.now() + 15_000;
  while (!readdirSync(dir).some((f) => f.endsWith(".tmp"))) {
    assert.ok(Date.now() < deadline, "the temporary file did not appear");
    await new Promise((r) => setTimeout(r, 20));
  }
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  child.kill("SIGINT");
  assert.equal(await exited, 130);
  assert.equal(readFileSync(out, "utf8"), "old\n");
  assert.deepEqual(readdirSync(dir), ["out.txt"]);
  assert.ok(existsSync(out));
});
