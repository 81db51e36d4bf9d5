// test-run: stress
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { fakeCollector, type Received } from "../helpers/fake-collector.js";
import { decodeOtlpJson, ENUMS, jsonName, MESSAGES, type DecodedSpan } from "../helpers/otlp-proto.js";
import { runCli } from "../helpers/run-cli.js";

// The independent check of the OTLP export (make stress): what `cursorlog export` writes and sends,
// decoded with the official OTLP definitions (Python's opentelemetry-proto, through
// test/helpers/otlp_decode.py), must be what the Node decoding of the default suite
// (test/helpers/otlp-proto.ts, test/helpers/fake-collector.ts) gives; and the Node table of the
// messages must be the official one. .ci/run installs the packages; in CI (CI=true) their absence
// fails these tests, elsewhere it skips them, saying what to install.

const DECODER = "test/helpers/otlp_decode.py";
const INSTALL = "python3 -m pip install opentelemetry-proto protobuf";
const F = "test/fixtures";
const LONG = `${F}/2026-long.ndjson`;
const BIN = "bin/cursorlog.js";
const BOUND_MS = 60_000;

let available: string | undefined;
/** Whether python3 can import the official definitions; if not, fails in CI and skips elsewhere. */
function needPython(t: TestContext): boolean {
  if (available === undefined) {
    const r = spawnSync("python3", [DECODER, "check"], { encoding: "utf8" });
    available = r.status === 0 ? "" : (r.stderr || r.error?.message || `exit status ${r.status}`).trim();
  }
  if (available === "") return true;
  const why = `python3 with the official OTLP definitions is not available (${available}): run \`${INSTALL}\``;
  if (process.env.CI === "true") throw new Error(`${why} (CI installs them: see .ci/run)`);
  process.stderr.write(`\n*** SKIPPED: ${why} ***\n\n`);
  t.skip(why);
  return false;
}

/** Runs otlp_decode.py; its output, a JSON value a line. */
function python(args: string[]): any[] {
  const r = spawnSync("python3", [DECODER, ...args], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${DECODER} ${args[0]} failed (${r.status}): ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** Each line of `text` (OTLP/JSON documents), parsed by the official TracesData: {line, spans} or {line, error}. */
function pythonFile(dir: string, text: string): Array<{ line: number; spans?: DecodedSpan[]; error?: string }> {
  const file = join(dir, "traces.jsonl");
  writeFileSync(file, text);
  return python(["file", file]);
}

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-otlp-python-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("the Node table of the OTLP messages is the official one (numbers, names, types, labels, oneofs, enums)", async (t) => {
  if (!needPython(t)) return;
  interface OfficialField {
    no: number;
    name: string;
    jsonName: string;
    type: string;
    ref: string | null;
    repeated: boolean;
    oneof: string | null;
  }
  const [official] = python(["schema"]) as [Record<string, { fields?: OfficialField[]; enum?: Record<string, number> }>];
  for (const [type, fields] of Object.entries(MESSAGES)) {
    const theirs = official[type]?.fields;
    assert.ok(theirs, `${type} is no official message`);
    for (const def of fields) {
      const o: OfficialField | undefined = theirs.find((x) => x.no === def.no);
      assert.ok(o, `${type} has no field ${def.no} (${def.name}) in the official definitions`);
      assert.deepEqual(
        { name: def.name, jsonName: jsonName(def.name), type: def.type, ref: def.ref ?? null, repeated: def.repeated ?? false, oneof: def.oneof ?? null },
        { name: o.name, jsonName: o.jsonName, type: o.type, ref: o.ref, repeated: o.repeated, oneof: o.oneof },
        `${type} field ${def.no}`,
      );
    }
    const extra = theirs.filter((x) => !fields.some((d) => d.no === x.no));
    // A field added upstream later: the Node decoders would refuse it (strict), cursorlog does not write it.
    if (extra.length > 0) t.diagnostic(`${type}: official fields test/helpers/otlp-proto.ts does not know: ${extra.map((x) => `${x.no} ${x.name}`).join(", ")}`);
  }
  for (const [type, values] of Object.entries(ENUMS)) {
    const theirs = official[type]?.enum;
    assert.ok(theirs, `${type} is no official enum`);
    for (const [name, n] of Object.entries(values)) assert.equal(theirs[name], n, `${type}.${name}`);
  }
  for (const type of Object.keys(official)) if (!(type in MESSAGES) && !(type in ENUMS)) t.diagnostic(`official type not in test/helpers/otlp-proto.ts: ${type}`);
});

test("every fixture's OTLP/JSON: the official TracesData parse accepts each line and gives the spans the Node decoding gives", { timeout: 600_000 }, async (t) => {
  if (!needPython(t)) return;
  const dir = tempDir(t);
  const inputs = [
    ...readdirSync(F).filter((f) => f.endsWith(".ndjson")).map((f) => `${F}/${f}`),
    ...readdirSync(`${F}/export`).filter((f) => f.endsWith(".ndjson")).map((f) => `${F}/export/${f}`),
    `${F}/filter/reused-call-ids.ndjson`,
    `${F}/timeline/no-timestamps-2025.ndjson`,
    `${F}/timeline/clocks-and-ends.ndjson`,
    `${F}/stats/usage-runs.ndjson`,
  ];
  let text = "";
  const origin: string[] = [];
  for (const path of inputs) {
    for (const argv of [["--allow-incomplete", path], ["--include-content", "--allow-incomplete", path]]) {
      const r = await runCli(["export", ...argv]);
      for (const line of r.stdout.split("\n").filter((l) => l !== "")) {
        text += line + "\n";
        origin.push(argv.join(" "));
      }
    }
  }
  assert.ok(origin.length >= inputs.length, "every fixture gave at least one run");
  const node = decodeOtlpJson(text);
  const official = pythonFile(dir, text);
  assert.equal(official.length, node.length);
  for (let i = 0; i < node.length; i++) {
    assert.equal(official[i]!.error, undefined, `export ${origin[i]}: a run is not a valid TracesData: ${official[i]!.error}`);
    assert.equal(node[i]!.error, undefined, `export ${origin[i]}: the Node decoding refuses what the official one accepts: ${node[i]!.error}`);
    assert.deepEqual(node[i]!.spans, official[i]!.spans, `export ${origin[i]}: the spans`);
  }
});

test("what the Node JSON decoding refuses, the official one refuses, and the reverse", async (t) => {
  if (!needPython(t)) return;
  const dir = tempDir(t);
  const line = (await runCli(["export", LONG])).stdout.split("\n")[0]!;
  const doc = () => JSON.parse(line);
  const span = (d: any) => d.resourceSpans[0].scopeSpans[0].spans[0];
  const edit = (f: (d: any) => void) => {
    const d = doc();
    f(d);
    return JSON.stringify(d);
  };
  const attr = (value: unknown) => edit((d) => span(d).attributes.push({ key: "x", value }));
  const cases: Array<[string, string, boolean]> = [
    ["as written", line, true],
    ["an unknown top-level field", edit((d) => (d.extra = 1)), false],
    ["an unknown span field", edit((d) => (span(d).foo = "bar")), false],
    ["proto field names", edit((d) => ((d.resource_spans = d.resourceSpans), delete d.resourceSpans)), true],
    ["kind by name", edit((d) => (span(d).kind = "SPAN_KIND_SERVER")), true],
    ["an unknown kind name", edit((d) => (span(d).kind = "bogus")), false],
    ["an unknown status code number (open enum)", edit((d) => (span(d).status = { code: 7 })), true],
    ["a null status", edit((d) => (span(d).status = null)), true],
    ["a time as a number", edit((d) => (span(d).startTimeUnixNano = 123)), true],
    ["a time with a fraction", edit((d) => (span(d).startTimeUnixNano = "1.5")), false],
    ["a negative fixed64", edit((d) => (span(d).startTimeUnixNano = "-1")), false],
    ["a negative uint32", edit((d) => (span(d).droppedAttributesCount = -1)), false],
    ["a name that is a number", edit((d) => (span(d).name = 5)), false],
    ["a trace id that is no hex", edit((d) => (span(d).traceId = "xyz")), false],
    ["attributes that are no list", edit((d) => (span(d).attributes = {})), false],
    ["a null in a list", edit((d) => span(d).attributes.push(null)), false],
    ["two arms of a oneof", attr({ stringValue: "a", intValue: 1 }), false],
    ["an int64 as a string", attr({ intValue: "12" }), true],
    ["an int64 with a fraction", attr({ intValue: 1.5 }), false],
    ["a quoted bool", attr({ boolValue: "true" }), false],
    ["a double as a string", attr({ doubleValue: "1.5" }), true],
    ["a list and a map", attr({ arrayValue: { values: [{ intValue: 1 }, { kvlistValue: { values: [{ key: "k", value: { boolValue: true } }] } }] } }), true],
    ["base64 bytes", attr({ bytesValue: "3q2+7w==" }), true],
    ["an unset value", attr({}), true],
    ["not JSON", "{", false],
  ];
  const text = cases.map((c) => c[1]).join("\n") + "\n";
  const node = decodeOtlpJson(text);
  const official = pythonFile(dir, text);
  cases.forEach(([what, , ok], i) => {
    assert.equal(official[i]!.error === undefined, ok, `${what}: the official parse ${ok ? "refuses" : "accepts"} it: ${official[i]!.error ?? ""}`);
    assert.equal(node[i]!.error === undefined, ok, `${what}: the Node decoding ${ok ? "refuses" : "accepts"} it: ${node[i]!.error ?? ""}`);
    if (ok) assert.deepEqual(node[i]!.spans, official[i]!.spans, `${what}: the spans`);
  });
});

/** Runs the built cursorlog to its exit (bounded). */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("node", [BIN, ...args], { env: { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb", ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`cursorlog ${args.join(" ")} did not end within ${BOUND_MS} ms; stderr: ${stderr}`));
    }, BOUND_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

test("what cursorlog sends, protobuf and JSON: the official ExportTraceServiceRequest decodes each body to the spans the fake collector decoded", { timeout: 600_000 }, async (t) => {
  if (!needPython(t)) return;
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` first");
  const dir = tempDir(t);
  mkdirSync(join(dir, "logs"));
  for (const f of ["2026-long.ndjson", "two-sessions.ndjson", "parallel-out-of-order.ndjson", "2025-shape.ndjson", "large-results.ndjson"]) copyFileSync(`${F}/${f}`, join(dir, "logs", f));
  const rx = await fakeCollector(t);
  const sends: Array<[string[], Record<string, string>]> = [
    [["--endpoint", rx.url, LONG], {}],
    [["--endpoint", rx.url, "--include-content", join(dir, "logs")], {}],
    [["--endpoint", rx.url, "-j", "2", join(dir, "logs")], {}],
    [["--endpoint", rx.url, "--protocol", "http/json", LONG], {}],
    [["--send", "--include-content", join(dir, "logs")], { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }],
  ];
  for (const [argv, env] of sends) {
    const r = await run(["export", ...argv], env);
    assert.equal(r.code, 0, r.stderr);
  }
  const types = new Set<string>();
  const byType = new Map<string, Array<{ rec: Received; path: string }>>();
  rx.requests.forEach((rec, i) => {
    const path = join(dir, `body-${i}`);
    writeFileSync(path, rec.body);
    types.add(rec.contentType);
    byType.set(rec.contentType, [...(byType.get(rec.contentType) ?? []), { rec, path }]);
  });
  assert.deepEqual([...types].sort(), ["application/json", "application/x-protobuf"]);
  for (const [ctype, bodies] of byType) {
    const official = python(["body", ctype, ...bodies.map((b) => b.path)]) as Array<{ path: string; spans?: DecodedSpan[]; error?: string }>;
    assert.equal(official.length, bodies.length);
    bodies.forEach(({ rec, path }, i) => {
      assert.equal(official[i]!.path, path);
      assert.equal(official[i]!.error, undefined, `${ctype} request ${path}: the official decoding fails: ${official[i]!.error}`);
      assert.equal(rec.error, undefined, `${ctype} request ${path}: the fake collector's decoding fails: ${rec.error}`);
      assert.ok(rec.spans!.length > 0);
      assert.deepEqual(rec.spans, official[i]!.spans, `${ctype} request ${path}: the spans`);
    });
  }
});
