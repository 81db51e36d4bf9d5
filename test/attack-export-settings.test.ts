import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fakeCollector } from "./helpers/fake-collector.js";
import { decodeOtlpJson, type DecodedSpan } from "./helpers/otlp-proto.js";
import { runCli } from "./helpers/run-cli.js";

// `export` refuses what it cannot do as asked, and writes only what OTLP can hold (issue 24, items
// 6, 7 and 16): --endpoint with -o, OTEL_EXPORTER_OTLP_* values that cannot be used (they used to
// be dropped or replaced silently), and logged times outside what OTLP's timestamps hold (taken
// as absent, said once per run, the same in the file and on the wire). In-process (runCli); the
// wire through a fake collector on loopback.

const LONG = "test/fixtures/2026-long.ndjson";
const scratch = mkdtempSync(join(tmpdir(), "cursorlog-attack-export-settings-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const ENV = { TZ: "UTC", NO_COLOR: "1" };
const usage = (message: string) => `cursorlog: error: ${message}\nRun 'cursorlog export --help' for usage.\n`;

// ---- 6. --endpoint with -o ----------------------------------------------------------------------

test("6: --endpoint or --send with -o FILE is refused, FILE untouched (-o - is standard output: allowed)", async (t) => {
  const file = join(scratch, "kept.jsonl");
  writeFileSync(file, "what was there\n");
  for (const argv of [
    ["export", "--endpoint", "http://127.0.0.1:9", "-o", file, LONG],
    ["-o", file, "export", "--send", LONG],
  ]) {
    const r = await runCli(argv, { env: ENV });
    const flag = argv.includes("--send") ? "--send" : "--endpoint";
    assert.deepEqual(r, { code: 2, stdout: "", stderr: usage(`-o cannot be used with ${flag}: the spans are sent, nothing is written`) }, argv.join(" "));
    assert.equal(readFileSync(file, "utf8"), "what was there\n");
  }
  const rx = await fakeCollector(t);
  const r = await runCli(["export", "--endpoint", rx.url, "-o", "-", LONG], { env: ENV });
  assert.deepEqual(r, { code: 0, stdout: "", stderr: "" });
  assert.equal(rx.requests.length, 1);
});

// ---- 16. The OTEL_EXPORTER_OTLP_* variables, read strictly -------------------------------------

test("16: a header list with a bad percent-escape is refused (it used to send without any header, auth included)", async () => {
  for (const [name, value, message] of [
    ["OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%2,x-team=ci", "OTEL_EXPORTER_OTLP_HEADERS: the value of authorization has a bad percent-escape (a % not followed by two hex digits of UTF-8; write % as %25)"],
    ["OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-team=ci,authorization", "OTEL_EXPORTER_OTLP_TRACES_HEADERS: entry 2 is not name=value"],
    ["OTEL_EXPORTER_OTLP_HEADERS", "x team=ci", 'OTEL_EXPORTER_OTLP_HEADERS: "x team" is not a valid HTTP header name'],
    ["OTEL_EXPORTER_OTLP_HEADERS", "x-token=a%0Ab", "OTEL_EXPORTER_OTLP_HEADERS: the value of x-token holds a character HTTP headers cannot carry (a control character or one past U+00FF)"],
  ]) {
    const r = await runCli(["export", "--send", LONG], { env: { ...ENV, [name!]: value!, OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" } });
    assert.deepEqual(r, { code: 2, stdout: "", stderr: usage(message!) }, `${name}=${value}`);
  }
});

test("16: OTEL_EXPORTER_OTLP_TIMEOUT that is not a whole number of ms from 1 to 2^31-1 is refused, not 10 s (nor Node's TimeoutOverflowWarning)", async () => {
  const cases: Array<[string, string, string]> = [
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "abc", 'expected a whole number of milliseconds (e.g. 10000), got "abc"'],
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "-5", 'expected a whole number of milliseconds (e.g. 10000), got "-5"'],
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "3000ms", 'expected a whole number of milliseconds (e.g. 10000), got "3000ms"'],
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "1e12", 'expected a whole number of milliseconds (e.g. 10000), got "1e12"'],
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "0", "expected 1 to 2147483647 milliseconds, got 0"],
    ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "1000000000000", "expected 1 to 2147483647 milliseconds, got 1000000000000"],
  ];
  for (const [name, value, message] of cases) {
    const r = await runCli(["export", "--endpoint", "http://127.0.0.1:9", LONG], { env: { ...ENV, [name]: value } });
    assert.deepEqual(r, { code: 2, stdout: "", stderr: usage(`${name}: ${message}`) }, `${name}=${value}`);
  }
  const bad = await runCli(["export", "--endpoint", "http://127.0.0.1:9", LONG], { env: { ...ENV, OTEL_EXPORTER_OTLP_COMPRESSION: "brotli" } });
  assert.deepEqual(bad, { code: 2, stdout: "", stderr: usage('OTEL_EXPORTER_OTLP_COMPRESSION: expected gzip or none, got "brotli"') });
});

test("16: an invalid OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is named as such", async () => {
  const r = await runCli(["export", "--send", LONG], { env: { ...ENV, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "not a url", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" } });
  assert.deepEqual(r, { code: 2, stdout: "", stderr: usage("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: expected an http:// or https:// URL, e.g. http://localhost:4318") });
  const r2 = await runCli(["export", "--send", LONG], { env: { ...ENV, OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" } });
  assert.deepEqual(r2, { code: 2, stdout: "", stderr: usage("OTEL_EXPORTER_OTLP_ENDPOINT: expected an http:// or https:// URL (OTLP/HTTP), got localhost:4318") });
});

test("16: the variables that are valid reach the collector: headers decoded, TRACES_ over the general one, --header over both, gzip", async (t) => {
  const rx = await fakeCollector(t);
  const r = await runCli(["export", "--send", "--header", "x-team=cli", LONG], {
    env: {
      ...ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
      OTEL_EXPORTER_OTLP_HEADERS: " authorization = Bearer%20t0k%2C1 , x-team=env, x-which=general,",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-which=traces",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
      OTEL_EXPORTER_OTLP_TIMEOUT: " 5000 ",
    },
  });
  assert.deepEqual(r, { code: 0, stdout: "", stderr: "" });
  const q = rx.requests[0]!;
  assert.deepEqual([q.headers.authorization, q.headers["x-team"], q.headers["x-which"], q.headers["content-encoding"]], ["Bearer t0k,1", "cli", "traces", "gzip"]);
  assert.equal(q.error, undefined);
  assert.ok(q.spans!.length > 0);
});

// ---- 7. Times OTLP cannot hold are absent, in the file and on the wire ---------------------------

/** The long fixture with line `at` (1-based) given `field: value` (timestamp_ms of the event, or a call's startedAtMs). */
function withTime(name: string, at: number, value: number, field: "timestamp_ms" | "startedAtMs" = "timestamp_ms"): string {
  const lines = readFileSync(LONG, "utf8").split("\n");
  const ev = JSON.parse(lines[at - 1]!);
  if (field === "timestamp_ms") ev.timestamp_ms = value;
  else ev.tool_call.startedAtMs = value;
  lines[at - 1] = JSON.stringify(ev);
  const path = join(scratch, `${name}.ndjson`);
  writeFileSync(path, lines.join("\n"));
  return path;
}

const RANGE = "OTLP can hold (1970-01-01T00:00:00Z to 2554-07-21T23:34:33.709Z)";
const warning = (path: string, line: number, what: string) =>
  `cursorlog: warning (at ${path}:${line}): ${what} is not a time ${RANGE}: taken as absent, as is any other such time in this run\n`;
/** A span with its log file's name left out (the copies differ from the fixture by name only). */
const bare = (spans: DecodedSpan[]) => spans.map((s) => ({ ...s, attributes: { ...s.attributes, "cursor.log.file": "" } }));

test("7: a time before 1970 or past 2^64 ns (year 9999, 1e308) is absent: valid OTLP/JSON, one warning per run, the rest unchanged", async () => {
  const plain = decodeOtlpJson((await runCli(["export", LONG], { env: ENV })).stdout)[0]!.spans!;
  const cases: Array<[string, number, number, "timestamp_ms" | "startedAtMs", string]> = [
    ["negative", 4, -5, "timestamp_ms", "timestamp_ms -5"],
    ["year-9999", 4, 253402300799000, "timestamp_ms", "timestamp_ms 253402300799000"],
    ["huge", 4, 1e308, "timestamp_ms", "timestamp_ms 1e+308"],
    ["past-2-64-ns", 4, 18446744073710, "timestamp_ms", "timestamp_ms 18446744073710"],
  ];
  for (const [name, line, value, field, what] of cases) {
    const path = withTime(name, line, value, field);
    const r = await runCli(["export", path], { env: ENV });
    assert.equal(r.code, 0, name);
    assert.equal(r.stderr, warning(path, line, what), name);
    const [doc] = decodeOtlpJson(r.stdout);
    assert.equal(doc!.error, undefined, `${name}: ${doc!.error}`);
    // Line 4 is a thinking delta inside the run: without its time the spans are the fixture's.
    assert.deepEqual(bare(doc!.spans!), bare(plain), name);
  }
  // Two such times in one run: one warning, at the first.
  const lines = readFileSync(LONG, "utf8").split("\n").map((l, i) => (i === 3 || i === 4 ? JSON.stringify({ ...JSON.parse(l), timestamp_ms: -1 }) : l));
  const two = join(scratch, "two-bad.ndjson");
  writeFileSync(two, lines.join("\n"));
  const r = await runCli(["export", two], { env: ENV });
  assert.equal(r.stderr, warning(two, 4, "timestamp_ms -1"));
});

test("7: a call's startedAtMs OTLP cannot hold is absent (its event's time stands in), and the wire carries what the file holds", async (t) => {
  const lines = readFileSync(LONG, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes('"subtype":"started"') && l.includes('"startedAtMs"')) + 1;
  const path = withTime("call-start", at, 1e300, "startedAtMs");
  const file = await runCli(["export", path], { env: ENV });
  assert.equal(file.code, 0);
  assert.equal(file.stderr, warning(path, at, "startedAtMs 1e+300"));
  const [doc] = decodeOtlpJson(file.stdout);
  assert.equal(doc!.error, undefined);
  for (const s of doc!.spans!) assert.ok(BigInt(s.end) < 2n ** 64n && BigInt(s.start) >= 0n, `${s.name}: ${s.start}..${s.end}`);
  const rx = await fakeCollector(t);
  const sent = await runCli(["export", "--endpoint", rx.url, path], { env: ENV });
  assert.deepEqual({ code: sent.code, stderr: sent.stderr }, { code: 0, stderr: warning(path, at, "startedAtMs 1e+300") });
  const key = (s: DecodedSpan) => s.spanId;
  assert.deepEqual(
    [...rx.requests[0]!.spans!].sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    [...doc!.spans!].sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  );
});

test("7: a duration_ms longer than the time since 1970 does not move the run's start before it; one past 2^53 is no attribute", async () => {
  const lines = readFileSync(LONG, "utf8").split("\n");
  const last = lines.findLastIndex((l) => l.includes('"type":"result"'));
  const plain = decodeOtlpJson((await runCli(["export", LONG], { env: ENV })).stdout)[0]!.spans![0]!;
  for (const [name, duration, attribute] of [
    ["long-duration", 5e15, 5e15],
    ["huge-duration", 1e300, undefined],
  ] as Array<[string, number, number | undefined]>) {
    lines[last] = JSON.stringify({ ...JSON.parse(lines[last]!), duration_ms: duration });
    const path = join(scratch, `${name}.ndjson`);
    writeFileSync(path, lines.join("\n"));
    const r = await runCli(["export", path], { env: ENV });
    assert.deepEqual({ code: r.code, stderr: r.stderr }, { code: 0, stderr: "" }, name);
    const [doc] = decodeOtlpJson(r.stdout);
    assert.equal(doc!.error, undefined, name);
    const root = doc!.spans![0]!;
    // The run starts at its first logged time (the fixture's own duration_ms starts it 2.6 s earlier).
    assert.deepEqual([root.start, root.end], ["1767225600137000000", plain.end], name);
    assert.equal(root.attributes["cursor.duration_ms"], attribute, name);
  }
});
