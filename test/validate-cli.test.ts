// cursorlog validate / schema through main(): things goldens cannot show (what was read, exact
// bytes of the schema output), plus a few real spawns of bin/cursorlog.js.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { test } from "node:test";
import { main } from "../src/cli/main.js";
import { runCli } from "./helpers/run-cli.js";
import { Writable } from "node:stream";
import { tempDir } from "./helpers/temp-dir.js";

class Sink extends Writable {
  text = "";
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString("utf8");
    cb();
  }
}

/** main() with an `open` that counts what it hands out, for proving what was (not) read. */
async function runCounting(argv: string[], files: Record<string, Buffer>, chunk = 256) {
  const opened: string[] = [];
  let chunksRead = 0;
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(argv, {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: { NO_COLOR: "1" },
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    open: (path) => {
      opened.push(path);
      const data = files[path] ?? readFileSync(path);
      return Readable.from(
        (function* () {
          for (let i = 0; i < data.length; i += chunk) {
            chunksRead++;
            yield data.subarray(i, i + chunk);
          }
        })(),
      );
    },
  });
  return { code, stdout: stdout.text, stderr: stderr.text, opened, chunksRead };
}

test("schema: the entry, every type and defs, byte for byte; --list names them", async () => {
  const entry = await runCli(["schema"]);
  assert.equal(entry.code, 0);
  assert.equal(entry.stdout, readFileSync("schemas/cursor-agent-event.schema.json", "utf8"));
  const tool = await runCli(["schema", "tool_call"]);
  assert.equal(tool.stdout, readFileSync("schemas/tool_call.schema.json", "utf8"));
  const list = await runCli(["schema", "--list"]);
  const names = list.stdout.trimEnd().split("\n");
  // Every file, the entry first (so `schema $t > DIR/$t.schema.json` for each name copies the whole set).
  const files = readdirSync("schemas").filter((f) => f.endsWith(".schema.json"));
  assert.equal(names[0], "cursor-agent-event");
  assert.deepEqual([...names].sort(), files.map((f) => f.replace(".schema.json", "")).sort());
  for (const name of names) {
    const r = await runCli(["schema", name]);
    assert.equal(r.stdout, readFileSync(`schemas/${name}.schema.json`, "utf8"), name);
    assert.equal(r.stderr, "");
  }
});

test("--max-errors stops reading: the rest of a long log is never read", async () => {
  const bad = JSON.stringify({ type: "thinking", subtype: "delta", text: 1, session_id: "s", timestamp_ms: 1 }) + "\n";
  const big = Buffer.from(bad.repeat(20000)); // ~1.6 MB in 256-byte chunks
  const total = Math.ceil(big.length / 256);
  const r = await runCounting(["validate", "--max-errors", "5", "big.ndjson", "next.ndjson"], { "big.ndjson": big, "next.ndjson": big });
  assert.equal(r.code, 1);
  assert.equal(r.stdout.split("\n").filter((l) => l.startsWith("big.ndjson:")).length, 5);
  assert.match(r.stdout, /stopped after 5 errors \(--max-errors\)\n$/);
  assert.deepEqual(r.opened, ["big.ndjson"], "the second file is never opened");
  assert.ok(r.chunksRead < total / 10, `read ${r.chunksRead} of ${total} chunks`);
});

test("a schema that does not compile: exit 3, and no input is opened", async () => {
  const r = await runCounting(["validate", "--schema", "test/fixtures/validate/broken-schemas", "test/fixtures/2025-shape.ndjson"], {});
  assert.equal(r.code, 3);
  assert.deepEqual(r.opened, []);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^cursorlog: error \(at test\/fixtures\/validate\/broken-schemas\/cursor-agent-event\.schema\.json\): schema does not compile: /);
});

/** A --schema file of its own, in a fresh temporary folder. */
function schemaFile(schema: unknown): string {
  const path = join(tempDir("cursorlog-schema-"), "s.json");
  writeFileSync(path, JSON.stringify(schema));
  return path;
}

/** `depth` objects inside each other, as one NDJSON line. */
function nested(depth: number): string {
  let s = "{}";
  for (let i = 1; i < depth; i++) s = `{"a":${s}}`;
  return s + "\n";
}

test('a recursive --schema ({"$ref":"#"}) is the schema\'s fault: one message, exit 3, reading stops', async () => {
  const schema = schemaFile({ $ref: "#" });
  const log = Buffer.from('{"type":"user"}\n'.repeat(50_000)); // 800 KB in 256-byte chunks
  const r = await runCounting(["validate", "--schema", schema, "a.ndjson", "b.ndjson"], { "a.ndjson": log, "b.ndjson": log });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, "", "no line is blamed, and no summary");
  assert.equal(
    r.stderr,
    `cursorlog: error (at ${schema}): schema recurses without end: a "$ref" loop that never goes into the value (such as {"$ref":"#"}) cannot validate anything (it did on a.ndjson:1)\n`,
  );
  assert.deepEqual(r.opened, ["a.ndjson"]);
  const total = Math.ceil(log.length / 256);
  assert.ok(r.chunksRead < total / 10, `read ${r.chunksRead} of ${total} chunks`);
});

test("a --schema loop through allOf that only some lines reach: the lines before it are checked, then exit 3", async () => {
  const schema = schemaFile({ if: { required: ["loop"] }, then: { allOf: [{ $ref: "#/$defs/b" }] }, $defs: { b: { allOf: [{ $ref: "#" }] } }, type: "object", properties: { n: { type: "number" } } });
  const r = await runCounting(["validate", "--no-lifecycle", "--schema", schema, "a.ndjson"], { "a.ndjson": Buffer.from('{"n":1}\n{"n":"x"}\n{"loop":1}\n{"n":"y"}\n') });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, 'a.ndjson:2: /n: must be number (type)\n');
  assert.match(r.stderr, /^cursorlog: error \(at .*s\.json\): schema recurses without end: .* \(it did on a\.ndjson:3\)\n$/);
});

test("a deep value is not blamed on a recursive --schema, nor a looping schema on a deep value (the edge: 256 levels)", async () => {
  // Recursing into the value is fine however deep the value (4,000 levels here).
  const descends = schemaFile({ type: "object", properties: { a: { $ref: "#" } } });
  const ok = await runCounting(["validate", "--no-lifecycle", "--schema", descends, "a.ndjson"], { "a.ndjson": Buffer.from(nested(4000)) });
  assert.deepEqual([ok.code, ok.stderr, ok.stdout], [0, "", "checked 1 line in 1 file: 1 valid, 0 invalid; 0 errors, 0 warnings\n"]);
  const loops = schemaFile({ $ref: "#" });
  const shallow = await runCounting(["validate", "--no-lifecycle", "--schema", loops, "a.ndjson"], { "a.ndjson": Buffer.from(nested(255)) });
  assert.equal(shallow.code, 3);
  const deep = await runCounting(["validate", "--no-lifecycle", "--schema", loops, "a.ndjson"], { "a.ndjson": Buffer.from(nested(256)) });
  assert.equal(deep.code, 1, "a value 256 deep may be too deep by itself: its line is reported, the run goes on");
  assert.equal(deep.stdout, "a.ndjson:1: the JSON value is nested too deeply to process (thousands of levels) (parse)\nchecked 1 line in 1 file: 0 valid, 1 invalid; 1 error, 0 warnings\n");
});

test("--lenient is accepted and changes nothing (validate always goes on past bad lines)", async () => {
  const a = await runCli(["validate", "test/fixtures/validate/bad-json.ndjson"]);
  const b = await runCli(["validate", "--lenient", "test/fixtures/validate/bad-json.ndjson"]);
  assert.deepEqual(b, a);
  assert.equal(a.code, 1);
});

test("exit status: an unreadable input (2) wins over invalid lines (1); warnings alone are 0", async () => {
  const r = await runCli(["validate", "test/fixtures/validate/wrong-types.ndjson", "test/fixtures/nope.ndjson"]);
  assert.equal(r.code, 2);
  assert.equal((await runCli(["validate", "test/fixtures/validate/lifecycle-warnings.ndjson"])).code, 0);
});

test("reading from a terminal is a usage error, before any schema work", async () => {
  const r = await runCli(["validate", "--schema", "nowhere"], { stdinIsTTY: true });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^cursorlog: reading a log from the terminal/);
});

test("--help: usage, description, examples, then the options in groups", async () => {
  const r = await runCli(["validate", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^Usage: cursorlog validate [^\n]+\n\n[^\n]+\n(?:[^\n]+\n)*\nExamples:\n  \$ cursorlog validate run\.ndjson\n/);
  for (const group of ["Validation options:", "Output options:", "Input options:"]) assert.ok(r.stdout.includes(group), group);
  assert.doesNotMatch(r.stdout, /--lenient/);
});

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };

test("bin: exit statuses 0, 1 and 3 reach the shell, diagnostics on stdout", { skip: !existsSync("dist/cli/main.js") && "run npm run build first" }, () => {
  const ok = spawnSync("node", [BIN, "validate", "test/fixtures/2025-shape.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(ok.status, 0);
  assert.equal(ok.stdout, "checked 13 lines in 1 file: 13 valid, 0 invalid; 0 errors, 0 warnings\n");
  const bad = spawnSync("node", [BIN, "validate", "test/fixtures/validate/wrong-types.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(bad.status, 1);
  assert.equal(bad.stdout, readFileSync("test/golden/validate-wrong-types.stdout", "utf8"));
  const broken = spawnSync("node", [BIN, "validate", "--schema", "test/fixtures/validate/broken-ref.schema.json", "x.ndjson"], { env: ENV, encoding: "utf8" });
  assert.equal(broken.status, 3);
  assert.equal(broken.stdout, "");
});
