// (shared: its limits are --max-old-space-size caps, which do not depend on the load)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:http";
import { before, test } from "node:test";
import { scaled } from "./helpers/scale.js";
import { tempDir } from "./helpers/temp-dir.js";

// A folder of logs exports with constant memory: each run's spans are written (or sent) when the
// run ends, and only the run in progress is held. Ten times the runs must not need more memory.
//
// A heap cap (--max-old-space-size) does not depend on the load: make test runs this file beside
// others. Sizes (test/helpers/scale.ts): make test exports a folder of 24 logs (960 runs, ~22 MB
// of OTLP/JSON); make stress runs test/stress/export-memory.test.ts, this file at full size (80
// logs, 3200 runs, ~75 MB). Why 24 logs still fail a run that gathers what it exports: a run needs
// ~22 MiB of the 40, so 18 MiB are left, and 24 logs' OTLP/JSON (~21 MiB) is past that even held
// as the text written, before the spans' objects, which take more than their JSON.

const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1" };
const tmp = tempDir("cursorlog-export-mem-");

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});

/** A folder of `files` logs, each 40 runs of 2026-long (about 1 MiB, 40 × 21 spans). */
function folder(name: string, files: number): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  const one = readFileSync("test/fixtures/2026-long.ndjson");
  const log = Buffer.concat(Array.from({ length: 40 }, () => one));
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `run-${String(i).padStart(3, "0")}.ndjson`), log);
  return dir;
}

/** `cursorlog ARGS` with V8's old space capped at HEAP_MB: a run that kept what it exported would die of it. */
// A run needs about 22 MiB of old space (Node, the OpenTelemetry packages, one run in progress): 40 leaves room
// for a loaded machine's late collections, and is still a fraction of what the folder's 75 MB of output would take.
const HEAP_MB = 40;

function measure(args: string[]): Promise<{ code: number | null; bytes: number; lines: number; peakKiB: number; stderr: string }> {
  const rssFile = join(tmp, `rss-${process.hrtime.bigint()}.txt`);
  return new Promise((resolve, reject) => {
    const env = { ...ENV, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` };
    const child = spawn("node", ["test/stress/peak-rss.mjs", rssFile, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    let lines = 0;
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      bytes += d.length;
      for (const b of d) if (b === 10) lines++;
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, bytes, lines, stderr, peakKiB: Number(readFileSync(rssFile, "utf8")) }));
  });
}

// The folder (make stress): 80 MiB of logs, 3200 runs, 67,200 spans (some 100 MiB of OTLP/JSON): all of it held at once needs far more than HEAP_MB.
const FILES = scaled(24, 80);
const RUNS = FILES * 40;
const large = folder("large", FILES);

for (const format of ["otlp-json", "chrome-trace"]) {
  test(`export --format ${format} of a folder of ${FILES} logs (${RUNS} runs) runs in ${HEAP_MB} MiB of heap`, { timeout: 240_000 }, async () => {
    const r = await measure(["export", "--format", format, large]);
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    if (format === "otlp-json") assert.equal(r.lines, RUNS, "one line per run");
    else assert.equal((r.lines - 2) / RUNS, 27, "27 trace events per run (5 metadata for lanes, …)");
    // 25 MiB of the 80 logs' (~28.5 MB for chrome-trace, the smaller), in proportion.
    assert.ok(r.bytes > (25 * 1024 * 1024 * FILES) / 80, `${r.bytes} bytes written`);
    process.stderr.write(`# export --format ${format}: ${r.bytes} bytes out, peak RSS ${Math.round(r.peakKiB / 1024)} MiB\n`);
  });
}

test(`export --endpoint of the same folder runs in ${HEAP_MB} MiB of heap: sent as it is read, not gathered`, { timeout: 240_000 }, async (t) => {
  let requests = 0;
  let received = 0;
  const server = createServer((req, res) => {
    requests++;
    req.on("data", (d: Buffer) => (received += d.length));
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/x-protobuf" }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  const r = await measure(["export", "--endpoint", `http://127.0.0.1:${port}`, large]);
  assert.equal(r.code, 0, r.stderr.slice(0, 2000));
  assert.equal(r.bytes, 0);
  process.stderr.write(`# export --endpoint: ${requests} requests, ${received} bytes received, peak RSS ${Math.round(r.peakKiB / 1024)} MiB\n`);
  // At least one request per 8 logs, and 10 MiB of the 80 logs' in proportion.
  assert.ok(requests >= FILES / 8, `${requests} requests: one per chunk of input, not one at the end`);
  assert.ok(received > (10 * 1024 * 1024 * FILES) / 80, `${received} bytes received`);
});
