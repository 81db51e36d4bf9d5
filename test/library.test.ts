import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { test } from "node:test";
import pc from "picocolors";
import { ndjsonTransform, toActionsText, toDiff, toResultJson, toShow } from "../src/index.js";

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  let out = "";
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

test("library: ndjsonTransform gives what the CLI prints, at any chunking", async () => {
  const log = readFileSync("test/fixtures/2026-long.ndjson");
  for (const size of [1, 7, log.length]) {
    const chunks = Array.from({ length: Math.ceil(log.length / size) }, (_, i) => log.subarray(i * size, (i + 1) * size));
    const text = ndjsonTransform((r) => toActionsText({ verbose: true, final: false, allowIncomplete: false, colors: pc.createColors(false) }, r));
    assert.equal(await collect(Readable.from(chunks).pipe(text)), readFileSync("test/golden/text-v-2026-long.stdout", "utf8"));
    assert.equal(text.exitCode(), 0);
  }
  const json = ndjsonTransform((r) => toResultJson({ pretty: false, allowIncomplete: false }, r));
  assert.equal(await collect(Readable.from([log]).pipe(json)), readFileSync("test/golden/json-2026-long.stdout", "utf8"));
});

test("library: show and diff as Transforms give what the CLI prints into a pipe", async () => {
  const colors = pc.createColors(false);
  const show = ndjsonTransform((r) => toShow({ format: "text", colors, width: 80, thinking: false, lines: 5, diff: false, exitStatus: false, live: false }, r));
  assert.equal(await collect(Readable.from([readFileSync("test/fixtures/partial-output.ndjson")]).pipe(show)), readFileSync("test/golden/show-stdin.stdout", "utf8").replace("log <stdin>:1", "log <stream>:1"));
  const diff = ndjsonTransform((r) => toDiff({ mode: "patch", colors, escape: false, width: 80 }, r));
  assert.equal(await collect(Readable.from([readFileSync("test/fixtures/2026-long.ndjson")]).pipe(diff)), readFileSync("test/golden/diff-stdin.stdout", "utf8"));
});

test("library: a malformed line errors the stream with file:line; diagnostics reach onDiagnostic", async () => {
  const seen: string[] = [];
  const t = ndjsonTransform((r) => toResultJson({ pretty: false, allowIncomplete: false }, r), { file: "run.ndjson", onDiagnostic: (l) => seen.push(l) });
  await assert.rejects(collect(Readable.from([readFileSync("test/fixtures/truncated-last-line.ndjson")]).pipe(t)), /^Error: run\.ndjson:5: unexpected end of input/);
  assert.deepEqual(seen, ["cursorlog: error (at run.ndjson:5): unexpected end of input: the JSON value that starts here is never closed\n"]);
  assert.equal(t.exitCode(), 5);
});

test("library: the agent CLI's own text line is never fatal: the session it ends is reported with it (exit 4)", async () => {
  const seen: string[] = [];
  const t = ndjsonTransform((r) => toResultJson({ pretty: false, allowIncomplete: false }, r), { file: "run.ndjson", onDiagnostic: (l) => seen.push(l) });
  assert.equal(await collect(Readable.from([readFileSync("test/fixtures/failed-run.ndjson")]).pipe(t)), "");
  assert.deepEqual(seen, [
    "cursorlog: error (at run.ndjson:12): session 7b71e0c4-52a9-4f3b-b2d1-6c0e9a8f7d35 has no result; the agent CLI said: RetriableError: [invalid_argument] unknown option '--system-prompt'\n",
  ]);
  assert.equal(t.exitCode(), 4);
});

test("library: a log of an agent without a dialect (Codex's stream of before Oct 2025) gives nothing but one diagnostic naming its format, exit code 2", async () => {
  const seen: string[] = [];
  const t = ndjsonTransform((r) => toActionsText({ verbose: true, final: false, allowIncomplete: false, colors: pc.createColors(false) }, r), { file: "v1.ndjson", onDiagnostic: (l) => seen.push(l) });
  assert.equal(await collect(Readable.from([readFileSync("test/fixtures/codex/legacy/v1.ndjson")]).pipe(t)), "");
  assert.deepEqual(seen, [
    "cursorlog: error (at v1.ndjson:1): this is Codex exec --json of before Oct 2025 (an event {id, msg} of msg.type session_configured), not cursor-agent's: cursorlog reads the logs of cursor-agent --print --output-format stream-json, gemini -p --output-format stream-json, codex exec --json and claude -p --output-format stream-json --verbose\n",
  ]);
  assert.equal(t.exitCode(), 2);
});

test("library: a Claude Code log is read in its own dialect, with no option", async () => {
  const seen: string[] = [];
  const t = ndjsonTransform((r) => toActionsText({ verbose: true, final: false, allowIncomplete: false, colors: pc.createColors(false) }, r), { file: "claude.ndjson", onDiagnostic: (l) => seen.push(l) });
  assert.equal(
    await collect(Readable.from([readFileSync("test/fixtures/claude/denied.ndjson")]).pipe(t)),
    "Ran terminal command: ls dist\nRan terminal command: rm -rf dist (permission denied: Permission to use Bash with command rm -rf dist has been denied.)\nEdited file: /home/dev/app/dist/index.html (permission denied: PreToolUse:Edit hook error: dist/ is build output: edit src/ and run npm run build)\n",
  );
  assert.deepEqual(seen, []);
  assert.equal(t.exitCode(), 0);
});

test("library: a line a stage cannot process (a LineError) is a malformed line: an error at file:line, skipped when lenient", async () => {
  const { LineError } = await import("../src/input/line-error.js");
  const stage = () => ({
    record: (r: { line: number }) => {
      if (r.line === 2) throw new LineError("too costly here");
      return `${r.line}\n`;
    },
  });
  const lines = Buffer.from('{"a":1}\n{"a":2}\n{"a":3}\n');
  const seen: string[] = [];
  const strict = ndjsonTransform(stage, { file: "f.ndjson", onDiagnostic: (l) => seen.push(l) });
  await assert.rejects(collect(Readable.from([lines]).pipe(strict)), /^Error: f\.ndjson:2: too costly here/);
  assert.equal(strict.exitCode(), 5);
  const lenient = ndjsonTransform(stage, { file: "f.ndjson", lenient: true, onDiagnostic: (l) => seen.push(l) });
  assert.equal(await collect(Readable.from([lines]).pipe(lenient)), "1\n3\n");
  assert.equal(lenient.exitCode(), 5);
  assert.deepEqual(seen, ["cursorlog: error (at f.ndjson:2): too costly here\n", "cursorlog: ignoring invalid line (at f.ndjson:2): too costly here\n"]);
});
