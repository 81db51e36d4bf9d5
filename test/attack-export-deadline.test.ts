// test-run: alone
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fakeCollector } from "./helpers/fake-collector.js";
import { drip, hostileServer, runBuilt, SLOW_HEAD } from "./helpers/hostile-server.js";

// `export --endpoint`'s deadline (issue 24, items 1, 5 and 14): one export, retries included, ends
// by OTEL_EXPORTER_OTLP_TIMEOUT whatever the collector does (no answer, a status line or a body a
// byte at a time, a TLS handshake never completed), with one line naming what happened and exit
// status 2. Servers on loopback (test/helpers/hostile-server.ts); the export timeout is
// TIMEOUT_MS; each run is killed after 20 s, so a run that would hang fails instead. Alone: how long
// a run takes after its deadline is the point, and SLACK_MS is less than one more timeout.
//
// The first four cases run at once (make test's alone phase waits for the longest, not their sum):
// a run is idle from its first connection to its deadline (its server drips a byte every 300 ms,
// or says nothing), and each is timed from its own server's first connection, after its start-up;
// what they share is their exit, a fraction of SLACK_MS. TIMEOUT_MS itself cannot be shorter: it
// must pass SLACK_MS (the handshake case tells one timeout from two), and case 14 needs the one
// retry the first backoff (0.8-1.2 s) allows before it, and not the next.

const LONG = "test/fixtures/2026-long.ndjson";
const TIMEOUT_MS = 1500;
/** What a deadline may overrun by (the exit after it), on a loaded machine. */
const SLACK_MS = 1000;
const env = { OTEL_EXPORTER_OTLP_TIMEOUT: String(TIMEOUT_MS) };
const scratch = mkdtempSync(join(tmpdir(), "cursorlog-attack-export-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});

const line = (url: string, reason: string) => `cursorlog: error: cannot send spans to ${url}: ${reason}\n`;

describe("export --endpoint's deadline, each case at once", { concurrency: true }, () => {

  test("1: a collector that sends its status line a byte at a time: one line and exit 2 at the export timeout", { timeout: 30_000 }, async (t) => {
    const h = await hostileServer(t, (s) => drip(s, "", SLOW_HEAD));
    const r = await runBuilt(["export", "--endpoint", `http://127.0.0.1:${h.port}`, LONG], env);
    assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code: 2, stdout: "", stderr: line(`http://127.0.0.1:${h.port}/v1/traces`, `no answer within the export timeout (${TIMEOUT_MS} ms)`) });
    assert.ok(r.exitAt - h.firstAt < TIMEOUT_MS + SLACK_MS, `${r.exitAt - h.firstAt} ms after the connection`);
  });

  test("1: a 200 whose body comes a byte at a time: one line and exit 2 at the export timeout (its partial_success is unknown)", { timeout: 30_000 }, async (t) => {
    const h = await hostileServer(t, (s) => drip(s, "HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 500\r\n\r\n", "\0".repeat(500)));
    const r = await runBuilt(["export", "--endpoint", `http://127.0.0.1:${h.port}`, LONG], env);
    assert.deepEqual(
      { code: r.code, stdout: r.stdout, stderr: r.stderr },
      { code: 2, stdout: "", stderr: line(`http://127.0.0.1:${h.port}/v1/traces`, `the collector answered 200 OK but its answer did not end within the export timeout (${TIMEOUT_MS} ms)`) },
    );
    assert.ok(r.exitAt - h.firstAt < TIMEOUT_MS + SLACK_MS, `${r.exitAt - h.firstAt} ms after the connection`);
  });

  test("1: the same with -j 2 over a folder: each runner's export has its deadline; one line, exit 2", { timeout: 30_000 }, async (t) => {
    const dir = join(scratch, "drip-jobs");
    mkdirSync(dir);
    for (let i = 0; i < 4; i++) copyFileSync(LONG, join(dir, `run-${i}.ndjson`));
    const h = await hostileServer(t, (s) => drip(s, "", SLOW_HEAD));
    const r = await runBuilt(["export", "--endpoint", `http://127.0.0.1:${h.port}`, "-j", "2", dir], env);
    assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code: 2, stdout: "", stderr: line(`http://127.0.0.1:${h.port}/v1/traces`, `no answer within the export timeout (${TIMEOUT_MS} ms)`) });
    assert.ok(r.exitAt - h.firstAt < 2 * TIMEOUT_MS + SLACK_MS, `${r.exitAt - h.firstAt} ms after the first connection`);
  });

  test("5: https to a server that never completes the TLS handshake: one line at the export timeout, not twice it", { timeout: 30_000 }, async (t) => {
    const h = await hostileServer(t, () => undefined);
    const r = await runBuilt(["export", "--endpoint", `https://127.0.0.1:${h.port}`, LONG], env);
    assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code: 2, stdout: "", stderr: line(`https://127.0.0.1:${h.port}/v1/traces`, `no answer within the export timeout (${TIMEOUT_MS} ms)`) });
    // The SDK's exporter took twice the timeout here: a socket idle timeout for the handshake, then the same again.
    assert.ok(r.exitAt - h.firstAt < TIMEOUT_MS + SLACK_MS, `${r.exitAt - h.firstAt} ms after the connection`);
  });
});

// After the others, on its own: its one retry comes 0.8-1.2 s after the first try, with the deadline at
// 1.5 s, so the start-up of the other cases' processes beside it could push it past (seen once).
test("14: 503 until the timeout names the status; 429 with a Retry-After past the timeout says it was not retried", { timeout: 30_000 }, async (t) => {
  const rx = await fakeCollector(t, { replies: () => 503 });
  const r = await runBuilt(["export", "--endpoint", rx.url, LONG], env);
  assert.deepEqual(
    { code: r.code, stderr: r.stderr },
    { code: 2, stderr: line(`${rx.url}/v1/traces`, "the collector answered 503 Service Unavailable: collector says no (after retrying until the export timeout)") },
  );
  assert.equal(rx.requests.length, 2, "sent, then once more after about a second; the next wait would pass the deadline");
  const rx2 = await fakeCollector(t, { replies: () => ({ status: 429, body: "slow down", headers: { "Retry-After": "30" } }) });
  const r2 = await runBuilt(["export", "--endpoint", rx2.url, LONG], env);
  assert.deepEqual(
    { code: r2.code, stderr: r2.stderr },
    { code: 2, stderr: line(`${rx2.url}/v1/traces`, "the collector answered 429 Too Many Requests: slow down (not retried: its Retry-After of 30 s is past the export timeout)") },
  );
  assert.equal(rx2.requests.length, 1);
});
