import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { tempDir } from "./helpers/temp-dir.js";

// A few tests run the real executable, with a pinned environment (STYLE 20). They need the build
// (`make test` builds first); `npm test` alone after a source change would run a stale dist/.
const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});

test("bin: --version and json on the bundled example", () => {
  const v = spawnSync("node", [BIN, "--version"], { env: ENV, encoding: "utf8" });
  assert.equal(v.status, 0);
  assert.equal(v.stdout, `${JSON.parse(readFileSync("package.json", "utf8")).version}\n`);
  const j = spawnSync("node", [BIN, "json", "examples/session.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(j.status, 0);
  assert.equal(j.stderr, "");
  assert.equal(j.stdout, readFileSync("test/golden/json-2026-long.stdout", "utf8"));
});

test("bin: exit statuses reach the shell (4 for a log without result, 5 for a malformed line)", () => {
  const crash = spawnSync("node", [BIN, "json", "test/fixtures/crash-no-result.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(crash.status, 4);
  const failed = spawnSync("node", [BIN, "text", "test/fixtures/failed-run.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(failed.status, 4);
  const bad = spawnSync("node", [BIN, "text", "test/fixtures/truncated-last-line.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(bad.status, 5);
  assert.doesNotMatch(bad.stderr, /\n\s+at /, "no stack trace");
});

test("bin: `| head -n1` on a large input ends at once with status 0 and no message", { timeout: 60_000 }, () => {
  const dir = tempDir("cursorlog-spawn-");
  const big = join(dir, "big.ndjson");
  const one = readFileSync("test/fixtures/2026-long.ndjson");
  writeFileSync(big, Buffer.concat(Array.from({ length: 2000 }, () => one))); // ~50 MB
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `set -o pipefail; node ${BIN} text ${big} | head -n1; echo "status=\${PIPESTATUS[0]}" >&2`], {
    env: ENV,
    encoding: "utf8",
  });
  assert.equal(r.stdout, "Listed directory\n");
  assert.equal(r.stderr, "status=0\n");
});

test("bin: a live pipe prints each action as its call completes, before the input ends", { timeout: 60_000 }, async (t) => {
  const lines = readFileSync("test/fixtures/2026-long.ndjson", "utf8").split("\n");
  const child = spawn("node", [BIN, "text"], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
  t.after(() => child.kill());
  let out = "";
  child.stdout.setEncoding("utf8");
  const firstAction = new Promise<void>((resolve) =>
    child.stdout.on("data", (d: string) => {
      out += d;
      if (out.includes("\n")) resolve();
    }),
  );
  // Feed up to and including the first completion, then wait: the line must come out now.
  const firstCompleted = lines.findIndex((l) => l.includes('"type":"tool_call","subtype":"completed"'));
  child.stdin.write(lines.slice(0, firstCompleted + 1).join("\n") + "\n");
  await firstAction;
  assert.equal(out, "Listed directory\n");
  child.stdin.end(lines.slice(firstCompleted + 1).join("\n"));
  const code = await new Promise((resolve) => child.on("close", resolve));
  assert.equal(code, 0);
  assert.equal(out, readFileSync("test/golden/text-2026-long.stdout", "utf8"));
});

for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  test(`bin: ${signal} during a live pipe keeps what was written and exits ${status}`, { timeout: 60_000 }, async (t) => {
    const lines = readFileSync("test/fixtures/2026-long.ndjson", "utf8").split("\n");
    const child = spawn("node", [BIN, "text"], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
    t.after(() => child.kill("SIGKILL"));
    let out = "";
    child.stdout.setEncoding("utf8");
    const got = new Promise<void>((resolve) => child.stdout.on("data", (d: string) => ((out += d), out.includes("Read file\n") && resolve())));
    child.stdin.write(lines.slice(0, 12).join("\n") + "\n");
    await got;
    child.kill(signal);
    const code = await new Promise((resolve) => child.on("close", (c) => resolve(c)));
    assert.equal(code, status);
    // Every line that was complete before the signal, whole, and nothing torn.
    assert.ok(out.startsWith("Listed directory\nRead file\n") && out.endsWith("\n"), out);
    assert.ok(readFileSync("test/golden/text-2026-long.stdout", "utf8").startsWith(out));
  });
}

test("bin: --follow reads a growing file as it is written and stops at the run's result", { timeout: 60_000 }, async (t) => {
  const dir = tempDir("cursorlog-follow-");
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, "live.ndjson");
  const lines = readFileSync("test/fixtures/2026-long.ndjson", "utf8").split("\n");
  writeFileSync(log, lines.slice(0, 12).join("\n") + "\n");
  const child = spawn("node", [BIN, "text", "-f", log], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => child.kill("SIGKILL"));
  let out = "";
  child.stdout.setEncoding("utf8");
  const early = new Promise<void>((resolve) => child.stdout.on("data", (d: string) => ((out += d), out.includes("Read file\n") && resolve())));
  await early;
  // The writer goes on, a line at a time, the last one cut in two.
  const { appendFileSync } = await import("node:fs");
  const rest = lines.slice(12).join("\n");
  appendFileSync(log, rest.slice(0, 5000));
  await new Promise((r) => setTimeout(r, 400));
  appendFileSync(log, rest.slice(5000));
  const code = await new Promise((resolve) => child.on("close", resolve));
  assert.equal(code, 0);
  assert.equal(out, readFileSync("test/golden/text-2026-long.stdout", "utf8"));
});

test("bin: --follow on a run without a result waits until interrupted (130)", { timeout: 60_000 }, async (t) => {
  const dir = tempDir("cursorlog-follow-");
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, "stuck.ndjson");
  writeFileSync(log, readFileSync("test/fixtures/crash-no-result.ndjson"));
  const child = spawn("node", [BIN, "text", "--follow", log], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => child.kill("SIGKILL"));
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  // Wait for the one complete action however slow the machine is, then give it time to (wrongly) end.
  await new Promise<void>((resolve) => {
    if (out.includes("\n")) return resolve();
    child.stdout.on("data", () => out.includes("\n") && resolve());
  });
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(child.exitCode, null, "still following");
  assert.equal(out, "Read file\n");
  child.kill("SIGINT");
  assert.equal(await new Promise((resolve) => child.on("close", resolve)), 130);
});

test("bin: help piped into head ends quietly with 0", () => {
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `for i in 1 2 3 4 5; do node ${BIN} help text | head -c 10 >/dev/null; echo -n "\${PIPESTATUS[0]}"; done`], { env: ENV, encoding: "utf8" });
  assert.equal(r.stdout, "00000");
  assert.equal(r.stderr, "");
});
