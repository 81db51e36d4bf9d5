import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { test } from "node:test";
import { Progress } from "../src/cli/progress.js";
import { expandInputs } from "../src/input/expand-inputs.js";
import { logCommands } from "./helpers/run-chunks.js";
import { runCli } from "./helpers/run-cli.js";

test("progress line: bytes done of total, MB/s, time left; redrawn at most every 200 ms; erased at the end", () => {
  let t = 0;
  let out = "";
  const p = new Progress((s) => (out += s), 100e6, () => t);
  t = 100;
  p.add(10e6); // the first bytes draw at once
  assert.equal(out, "\r\u001b[Kcursorlog: 10.0 MB of 100.0 MB (10%), 100 MB/s, 0:01 left");
  t = 200;
  p.add(5e6);
  assert.equal(out.split("\r\u001b[K").length, 2, "not redrawn within 200 ms");
  t = 1000;
  p.add(10e6);
  out = out.slice(out.lastIndexOf("\r"));
  assert.equal(out, "\r\u001b[Kcursorlog: 25.0 MB of 100.0 MB (25%), 25 MB/s, 0:03 left");
  p.end();
  assert.ok(out.endsWith("\r\u001b[K"));
});

test("the CLI shows progress only on a terminal outside CI, or with --progress; never with --no-progress", async () => {
  const f = "test/fixtures/2026-long.ndjson";
  const size = statSync(f).size;
  const plain = await runCli(["json", f]);
  assert.equal(plain.stderr, "");
  assert.equal((await runCli(["json", f], { stderrIsTTY: true, env: { CI: "true" } })).stderr, "");
  assert.equal((await runCli(["json", "--no-progress", f], { stderrIsTTY: true, env: {} })).stderr, "");
  for (const r of [await runCli(["json", "--progress", f], { chunkSize: 64 }), await runCli(["json", f], { stderrIsTTY: true, env: {} })]) {
    assert.equal(r.stdout, plain.stdout);
    assert.match(r.stderr, new RegExp(`^\r\u001b\\[Kcursorlog: [\\d.]+ kB of ${(size / 1e3).toFixed(1)} kB \\(\\d+%\\), \\d+ MB/s`), JSON.stringify(r.stderr));
    assert.ok(r.stderr.endsWith("\r\u001b[K"), "erased at the end");
  }
  assert.equal((await runCli(["json", "--progress"], { stdin: readFileSync(f, "utf8") })).stderr, "", "standard input has no total: nothing drawn");
});

test("every command that reads logs (validate too) honours --progress, over the files of a directory as well", async () => {
  const dir = "test/fixtures/validate/logs";
  const total = expandInputs([dir]).files.reduce((n, f) => n + statSync(f).size, 0);
  const drawn = new RegExp(`^\r\u001b\\[Kcursorlog: [\\d.]+ kB of ${(total / 1e3).toFixed(1)} kB \\(\\d+%\\), \\d+ MB/s`);
  for (const { name } of logCommands()) {
    const plain = await runCli([name, dir]);
    const r = await runCli([name, "--progress", dir], { chunkSize: 64 });
    assert.equal(r.stdout, plain.stdout, name);
    assert.equal(r.code, plain.code, name);
    assert.match(r.stderr, drawn, `${name}: ${JSON.stringify(r.stderr)}`);
    assert.equal(r.stderr.replace(/\r\u001b\[K(?:cursorlog: [\d.]+ [kMG]B[^\r\n]*)?/g, ""), plain.stderr, `${name}: only the progress line was added, and erased`);
    assert.equal((await runCli([name, "--no-progress", dir], { stderrIsTTY: true, env: {} })).stderr, plain.stderr, `${name} --no-progress`);
  }
});
