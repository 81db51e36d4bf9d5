// README's "Library" example, run as a user runs it: the ```js block of that section written to a
// folder whose node_modules/cursorlog is this package, so `import … from "cursorlog"` goes through
// package.json's exports to the built dist/ (`npm run build` first). Its output and status must
// be the CLI's, for a gzip log, a cut gzip log and a plain one; and the stages take no picocolors.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { after, test } from "node:test";
import { gzipSync } from "node:zlib";
import { ndjsonTransform, toActionsText, toDiff, toShow } from "../src/index.js";
import { runCli } from "./helpers/run-cli.js";

const readme = readFileSync("README.md", "utf8");
const section = readme.slice(readme.indexOf("\n## Library\n"), readme.indexOf("\n## ", readme.indexOf("\n## Library\n") + 1));
const example = /```js\n([\s\S]*?)```/.exec(section)?.[1];

const dir = mkdtempSync(join(tmpdir(), "cursorlog-library-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function runExample(file: string) {
  return spawnSync(process.execPath, ["actions.mjs", file], { cwd: dir, encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH, TZ: "UTC" } });
}

test("README's Library section has the example, importing from \"cursorlog\"", () => {
  assert.ok(section.length > 0, "no ## Library section");
  assert.ok(example !== undefined, "no ```js block in it");
  assert.match(example, /from "cursorlog";/);
  assert.doesNotMatch(example, /picocolors/, "colours are optional: the example needs no picocolors");
});

test("the example runs from the built package: a .gz log gives `cursorlog text -v`'s output and status", async () => {
  assert.ok(existsSync("dist/index.js"), "dist/ is missing: run `npm run build` (make test does)");
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(resolve("."), join(dir, "node_modules", "cursorlog"), "dir");
  writeFileSync(join(dir, "actions.mjs"), example!);
  const log = readFileSync("examples/session.ndjson");
  writeFileSync(join(dir, "run.ndjson.gz"), gzipSync(log));
  writeFileSync(join(dir, "run.ndjson"), log);
  const cli = await runCli(["text", "-v", "examples/session.ndjson"]);
  for (const file of ["run.ndjson.gz", "run.ndjson"]) {
    const r = runExample(file);
    assert.equal(r.stderr, "", file);
    assert.equal(r.stdout, cli.stdout, file);
    assert.equal(r.status, 0, file);
  }

  // A cut gzip log: the CLI's message and status 2, no stack trace.
  const gz = gzipSync(log);
  writeFileSync(join(dir, "cut.ndjson.gz"), gz.subarray(0, gz.length - 40));
  const cut = runExample("cut.ndjson.gz");
  assert.equal(cut.stderr, "cursorlog: error (at cut.ndjson.gz): cannot read: truncated gzip data (unexpected end of file)\n");
  assert.equal(cut.status, 2);
  // Bytes after the last member: gzip's warning after everything, status 2, as the CLI.
  writeFileSync(join(dir, "garbage.ndjson.gz"), Buffer.concat([gz, Buffer.from("not gzip\n")]));
  const garbage = runExample("garbage.ndjson.gz");
  const cliGarbage = await runCli(["text", "-v", join(dir, "garbage.ndjson.gz")]);
  assert.equal(garbage.stdout, cli.stdout);
  assert.equal(garbage.stderr, "cursorlog: warning (at garbage.ndjson.gz): decompression OK, trailing garbage ignored\n");
  assert.equal(cliGarbage.stderr, `cursorlog: warning (at ${join(dir, "garbage.ndjson.gz")}): decompression OK, trailing garbage ignored\n`);
  assert.equal(garbage.status, cliGarbage.code);
});

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  let out = "";
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

test("gzip through ndjsonTransform at any chunking, cut inside the header too", async () => {
  const log = readFileSync("test/fixtures/2026-long.ndjson");
  const gz = gzipSync(log);
  const expected = readFileSync("test/golden/text-v-2026-long.stdout", "utf8");
  for (const size of [1, 2, 3, 7, 4096, gz.length]) {
    const chunks = Array.from({ length: Math.ceil(gz.length / size) }, (_, i) => gz.subarray(i * size, (i + 1) * size));
    const t = ndjsonTransform((r) => toActionsText({ verbose: true }, r));
    assert.equal(await collect(Readable.from(chunks).pipe(t)), expected, `chunks of ${size}`);
    assert.equal(t.exitCode(), 0);
  }
  // Two members, as `cat a.gz b.gz` makes: both read.
  const two = ndjsonTransform((r) => toActionsText({}, r));
  const half = log.indexOf("\n", log.length >> 1) + 1;
  const plain = await collect(Readable.from([log]).pipe(ndjsonTransform((r) => toActionsText({}, r))));
  assert.equal(await collect(Readable.from([gzipSync(log.subarray(0, half)), gzipSync(log.subarray(half))]).pipe(two)), plain);
  // Corrupt data: the stream errors with the file named, and onDiagnostic has the CLI's line.
  const bad = Buffer.from(gz);
  bad.fill(0xff, 20, 60);
  const seen: string[] = [];
  const t = ndjsonTransform((r) => toActionsText({}, r), { file: "bad.gz", onDiagnostic: (l) => seen.push(l) });
  await assert.rejects(collect(Readable.from([bad]).pipe(t)), /^Error: bad\.gz: cannot read: corrupt gzip data \(/);
  assert.equal(seen.length, 1);
  assert.match(seen[0]!, /^cursorlog: error \(at bad\.gz\): cannot read: corrupt gzip data \(.*\)\n$/);
  assert.equal(t.exitCode(), 2);
  // A one-byte input is not gzip: read as a line.
  const one = ndjsonTransform((r) => toActionsText({}, r), { onDiagnostic: () => {} });
  await assert.rejects(collect(Readable.from([Buffer.from("{")]).pipe(one)), /^Error: <stream>:1: unexpected end of input/);
});

test("colours are optional: none by default, true for ANSI, no picocolors import needed", async () => {
  const log = readFileSync("examples/session.ndjson");
  const text = (colors?: boolean) => collect(Readable.from([log]).pipe(ndjsonTransform((r) => toActionsText({ verbose: true, colors }, r))));
  const plain = await text();
  assert.equal(plain, (await runCli(["text", "-v", "examples/session.ndjson"])).stdout);
  assert.doesNotMatch(plain, /\u001b/);
  const coloured = await text(true);
  assert.match(coloured, /\u001b\[1m/);
  assert.equal(coloured.replace(/\u001b\[[0-9;]*m/g, ""), plain);
  const show = await collect(Readable.from([log]).pipe(ndjsonTransform((r) => toShow({ format: "text", width: 80, thinking: false, lines: 5, diff: false, exitStatus: false, live: false }, r))));
  assert.doesNotMatch(show, /\u001b/);
  const diff = await collect(Readable.from([log]).pipe(ndjsonTransform((r) => toDiff({ mode: "patch", escape: false, width: 80 }, r))));
  assert.equal(diff, (await runCli(["diff", "examples/session.ndjson"])).stdout);
});

// The second block: an output of one's own on the run model (drive + a sink), from the built package.
const driverExample = [...section.matchAll(/```js\n([\s\S]*?)```/g)][1]?.[1];

test("README's driver example runs from the built package: the slow calls, as timeline times them", async () => {
  assert.ok(driverExample !== undefined, "no second ```js block in ## Library");
  assert.match(driverExample, /import \{ drive, ndjsonTransform \} from "cursorlog";/);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  if (!existsSync(join(dir, "node_modules", "cursorlog"))) symlinkSync(resolve("."), join(dir, "node_modules", "cursorlog"), "dir");
  writeFileSync(join(dir, "slow-calls.mjs"), driverExample);
  let out = "";
  for (const f of ["2026-long", "background-shells"]) {
    const file = resolve(`test/fixtures/${f}.ndjson`);
    const r = spawnSync(process.execPath, ["slow-calls.mjs", file], { cwd: dir, encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH, TZ: "UTC" } });
    assert.equal(r.stderr, "", f);
    assert.equal(r.status, 0, f);
    // The same calls and durations as timeline's rows of a second or more.
    const rows = (await runCli(["timeline", "--format", "ndjson", "--columns", "session_id,duration_ms,action,target", file])).stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { session_id: string; duration_ms?: number; action: string; target?: string })
      .filter((row) => row.duration_ms !== undefined && row.duration_ms >= 1000)
      .map((row) => `${row.session_id}\t${row.duration_ms}\t${row.action}: ${row.target ?? ""}`);
    assert.deepEqual(
      r.stdout.split("\n").filter(Boolean).map((l) => l.split("\t").filter((_, i) => i !== 1).join("\t")),
      rows,
      f,
    );
    out += r.stdout;
  }
  assert.equal(
    out,
    [
      "7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01\tfailed\t2400\tRan terminal command: npm test",
      "7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01\tok\t2100\tRan terminal command: npm test && git status --short",
      "7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01\tok\t1800\tRan subagent task: Review the diff",
      "5c3e9a71-1b2d-4e8f-9a0b-7c6d5e4f3a21\tok\t1200\tRan terminal command: npm run build:watch",
      "5c3e9a71-1b2d-4e8f-9a0b-7c6d5e4f3a21\tok\t5000\tWaited for background task: 7",
      "",
    ].join("\n"),
  );
});
