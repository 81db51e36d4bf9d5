import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { fakeCollector } from "./helpers/fake-collector.js";
import { decodeOtlpJson, type DecodedSpan } from "./helpers/otlp-proto.js";
import { runCli } from "./helpers/run-cli.js";

// `cursorlog export --endpoint` of a folder of Claude Code and cursor-agent logs, over the wire as
// test/export-wire.test.ts sends Cursor's: the built executable sends to a fake OTLP/HTTP collector
// on loopback, which decodes each request strictly; it receives the spans of the file export, each
// run's under the resource of its own agent (service.name claude-code or cursor-agent).

const BIN = "bin/cursorlog.js";
const BASE_ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
/** Bounds each wait for an event; never a fixed sleep. */
const BOUND_MS = 20_000;

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = spawn("node", [BIN, ...args], { env: BASE_ENV, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`cursorlog ${args.join(" ")} did not end within ${BOUND_MS} ms; stderr: ${stderr}`));
    }, BOUND_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const byId = (spans: DecodedSpan[]) => spans.map((s) => [`${s.spanId} ${JSON.stringify(s)}`, s] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((x) => x[1]);

test("a folder of Claude Code and Cursor logs over --endpoint (and -j 2): the file export's spans, each run under its agent's service.name", { timeout: 90_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-claude-wire-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, from] of [
    ["a-cursor.ndjson", "test/fixtures/2026-long.ndjson"],
    ["b-claude-tools.ndjson", "test/fixtures/claude/tools.ndjson"],
    ["c-claude-after-result.ndjson", "test/fixtures/claude/after-result.ndjson"],
  ]) {
    copyFileSync(from!, join(dir, name!));
  }
  const file = await runCli(["export", dir]);
  assert.equal(file.code, 0, file.stderr);
  const want = decodeOtlpJson(file.stdout).flatMap((d) => d.spans!);
  const rx = await fakeCollector(t);
  for (const jobs of [[], ["-j", "2"]]) {
    const first = rx.requests.length;
    const r = await run(["export", "--endpoint", `http://127.0.0.1:${rx.port}`, ...jobs, dir]);
    assert.deepEqual(r, { code: 0, stdout: "", stderr: "" });
    const got = () => rx.requests.slice(first).flatMap((q) => q.spans ?? []);
    while (got().length < want.length) await rx.waitFor(rx.requests.length + 1);
    for (const q of rx.requests.slice(first)) assert.equal(q.error, undefined);
    assert.deepEqual(byId(got()), byId(want));
    const roots = got().filter((s) => s.parentSpanId === "");
    assert.deepEqual(roots.map((s) => [s.name, s.resource["service.name"], s.attributes["gen_ai.provider.name"]]).sort(), [
      ["invoke_agent claude-code", "claude-code", "anthropic"],
      ["invoke_agent claude-code", "claude-code", "anthropic"],
      ["invoke_agent claude-code", "claude-code", "anthropic"],
      ["invoke_agent cursor-agent", "cursor-agent", "cursor"],
    ]);
  }
});
