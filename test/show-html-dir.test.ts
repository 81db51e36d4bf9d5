// `show --format html -o DIR` (issue 29): a page per run and index.html linking to each, written
// as safely as -o FILE writes: names from the inputs' file names only (never the log's text), no
// link followed, no device written into, each file taking its name only when whole.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { checkPage } from "./helpers/show-html-check.js";
import { hostileOf } from "./helpers/show-html-hostile.js";

function temp(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-dir-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("-o DIR: a page per run, named from its input file, and index.html linking to each with a row per run", async (t) => {
  const dir = temp(t);
  const out = join(dir, "pages");
  mkdirSync(out);
  const got = await runCli(["show", "--format", "html", "-o", out, "test/fixtures/two-sessions.ndjson", "test/fixtures/claude/subagent.ndjson", "test/fixtures/codex/commands.ndjson", "test/fixtures/gemini/two-runs.ndjson"]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout, "", "nothing on stdout");
  const files = readdirSync(out).sort();
  assert.deepEqual(files, ["commands-4.html", "index.html", "subagent-3.html", "two-runs-5.html", "two-runs-6.html", "two-sessions-1.html", "two-sessions-2.html"]);
  for (const f of files) checkPage(readFileSync(join(out, f), "utf8"), f);
  const index = readFileSync(join(out, "index.html"), "utf8");
  const links = [...index.matchAll(/<td><a href="([^"]+)">([^<]+)<\/a><\/td>/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(links, [
    ["two-sessions-1.html", "test/fixtures/two-sessions.ndjson:1"],
    ["two-sessions-2.html", "test/fixtures/two-sessions.ndjson:5"],
    ["subagent-3.html", "test/fixtures/claude/subagent.ndjson:1"],
    ["commands-4.html", "test/fixtures/codex/commands.ndjson:1"],
    ["two-runs-5.html", "test/fixtures/gemini/two-runs.ndjson:1"],
    ["two-runs-6.html", "test/fixtures/gemini/two-runs.ndjson:8"],
  ]);
  assert.match(index, /<thead><tr><th>file<\/th><th>agent<\/th><th>session<\/th><th>model<\/th><th>start<\/th><th>outcome<\/th><th>duration<\/th><th>calls<\/th><th>failed<\/th><th>tokens<\/th><th>cost<\/th><\/tr><\/thead>/);
  assert.match(index, /<td class="agent">claude-code<\/td>.*<td class="cost">\$0\.0411<\/td>/);
  // The outcome in runs' words (cursorlog runs): finished, failed (its result says so), error (no result, the CLI said why), cut off.
  const outcomes = async (files: string[]): Promise<string[]> => {
    const o = join(dir, `o-${files.length}`);
    mkdirSync(o);
    const r = await runCli(["show", "--format", "html", "-o", o, ...files]);
    assert.ok(r.code === 0 || r.code === 4, r.stderr);
    return [...readFileSync(join(o, "index.html"), "utf8").matchAll(/<td class="outcome[^"]*">([^<]*)<\/td>/g)].map((m) => m[1]!);
  };
  assert.deepEqual(await outcomes(["test/fixtures/gemini/two-runs.ndjson", "test/fixtures/failed-run.ndjson", "examples/crashed.ndjson"]), ["finished", "failed", "error", "cut off"]);
  // Each page holds its own run only.
  const second = readFileSync(join(out, "two-sessions-2.html"), "utf8");
  assert.deepEqual([...second.matchAll(/<section class="run" id="(r\d+)">/g)].map((m) => m[1]), ["r2"]);
});

test("-o DIR/ (a name ending in /) is created; pages already there are replaced; a hostile log and file name give safe names and pages", async (t) => {
  const dir = temp(t);
  const input = join(dir, '..a"<b>\u202e evil.ndjson');
  writeFileSync(input, hostileOf("test/fixtures/2026-long.ndjson"));
  const out = join(dir, "new") + "/";
  let got = await runCli(["show", "--format", "html", "-o", out, input]);
  assert.equal(got.code, 0, got.stderr);
  const name = "a__b___evil-1.html";
  assert.deepEqual(readdirSync(out).sort(), ["a__b___evil-1.html", "index.html"].sort());
  checkPage(readFileSync(join(out, name), "utf8"));
  checkPage(readFileSync(join(out, "index.html"), "utf8"));
  writeFileSync(join(out, name), "old");
  got = await runCli(["show", "--format", "html", "-o", out, input]);
  assert.equal(got.code, 0, got.stderr);
  assert.notEqual(readFileSync(join(out, name), "utf8"), "old", "replaced");
  assert.deepEqual(readdirSync(out).sort(), ["a__b___evil-1.html", "index.html"].sort(), "no temporary file left");
});

test("-o DIR: a link or a FIFO at a page's name is never written through: left as it is, status 2", async (t) => {
  const dir = temp(t);
  const out = join(dir, "pages");
  mkdirSync(out);
  const outside = join(dir, "outside.txt");
  writeFileSync(outside, "keep");
  symlinkSync(outside, join(out, "2026-long-1.html"));
  const got = await runCli(["show", "--format", "html", "-o", out, "test/fixtures/2026-long.ndjson"]);
  assert.equal(got.code, 2);
  assert.match(got.stderr, /2026-long-1\.html: it is not a regular file \(left as it is\)/);
  assert.equal(readFileSync(outside, "utf8"), "keep", "the link's target untouched");
  assert.ok(lstatSync(join(out, "2026-long-1.html")).isSymbolicLink());
  if (process.platform !== "win32") {
    const fifoDir = join(dir, "fifo");
    mkdirSync(fifoDir);
    spawnSync("mkfifo", [join(fifoDir, "index.html")]);
    if (existsSync(join(fifoDir, "index.html"))) {
      const r = await runCli(["show", "--format", "html", "-o", fifoDir, "test/fixtures/2026-long.ndjson"]);
      assert.equal(r.code, 2, "a FIFO named index.html is not opened (the run does not wait for a reader)");
      assert.ok(lstatSync(join(fifoDir, "index.html")).isFIFO());
    }
  }
});

test("-o names a file that is not a folder: one page, as -o FILE writes it; -o DIR with --format text is refused as before", async (t) => {
  const dir = temp(t);
  const file = join(dir, "page.html");
  let got = await runCli(["show", "--format", "html", "-o", file, "test/fixtures/two-sessions.ndjson"]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(checkPage(readFileSync(file, "utf8")).ids.filter((i) => /^r\d$/.test(i)).length, 2);
  got = await runCli(["show", "-o", dir, "test/fixtures/two-sessions.ndjson"]);
  assert.equal(got.code, 2);
  assert.match(got.stderr, /is a directory/);
});

test("-o DIR, a run that fails (a line that is not JSON): the pages of the runs read before it are written, index.html is not, no temporary file is left", (t) => {
  const dir = temp(t);
  const bad = join(dir, "bad.ndjson");
  writeFileSync(bad, readFileSync("test/fixtures/2026-long.ndjson", "utf8").split("\n").slice(0, 6).join("\n") + "\n{not json\n");
  const out = join(dir, "pages");
  mkdirSync(out);
  // A child process: its exit removes the temporary files (bin/cursorlog.js: npm run build first).
  const r = spawnSync(process.execPath, ["bin/cursorlog.js", "show", "--format", "html", "-o", out, "test/fixtures/two-sessions.ndjson", bad], {
    encoding: "utf8",
    env: { ...process.env, TZ: "UTC", NO_COLOR: "1" },
    timeout: 60_000,
  });
  assert.equal(r.status, 5, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ["two-sessions-1.html", "two-sessions-2.html"]);
});
