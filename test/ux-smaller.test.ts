import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const F = "test/fixtures";

test("timeline --format ndjson: --safe-csv and --no-header are usage errors (they would change the data, or do nothing)", async () => {
  for (const flags of [["--safe-csv"], ["--no-header"]]) {
    const r = await runCli(["timeline", "--format", "ndjson", ...flags, `${F}/2026-long.ndjson`]);
    assert.equal(r.code, 2, flags.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, `cursorlog: error: ${flags[0]} cannot be used with --format ndjson (csv and tsv only)\nRun 'cursorlog timeline --help' for usage.\n`);
  }
  for (const format of ["csv", "tsv"]) assert.equal((await runCli(["timeline", "--format", format, "--safe-csv", "--no-header", `${F}/2026-long.ndjson`])).code, 0);
});

test("timeline --help says CSV is one record per line, how line breaks are written, and where the exact values are", async () => {
  // Issue 26 (A): the default CSV is one record per line; the help said it was not, and pointed to tsv.
  const help = (await runCli(["timeline", "--help"])).stdout;
  assert.match(help.replace(/\s+/g, " "), /One record per line, for head, wc -l, cut and column: a line break inside a value \(OpenAI-style call ids hold one, as do multi-line commands\) is written \\n \(CR: \\r\), as 'cursorlog text -v' shows it\. Backslashes are left as they are, so a value that held the two characters \\n reads the same: for exact values, use --multiline/);
});

test("validate --strict: `attempt` on connection and retry events is declared (FORMAT.md), not an unknown field", async () => {
  const dir = tempDir("cursorlog-attempt-");
  const log = join(dir, "retry.ndjson");
  const sid = `"session_id":"s","timestamp_ms":1767225600000`;
  writeFileSync(
    log,
    [
      `{"type":"connection","subtype":"reconnecting","attempt":1,"endpoint_url":"https://api2.cursor.sh",${sid}}`,
      `{"type":"connection","subtype":"reconnected","attempt":1,${sid}}`,
      `{"type":"retry","subtype":"starting","attempt":1,"is_resume":false,${sid}}`,
      `{"type":"retry","subtype":"later-kind","attempt":2,${sid}}`,
    ].join("\n") + "\n",
  );
  const r = await runCli(["validate", "--strict", "--no-lifecycle", log]);
  assert.equal(r.stdout, "checked 4 lines in 1 file: 4 valid, 0 invalid; 0 errors, 0 warnings\n");
  assert.equal(r.code, 0);
});

test("validate --strict: an unknown field's diagnostic carries its JSON path, as the others do", async () => {
  const r = await runCli(["validate", "--strict", "--no-lifecycle", "--format", "json"], {
    stdin: `{"type":"retry","subtype":"starting","attempt":1,"is_resume":false,"session_id":"s","timestamp_ms":1,"extra":{"a":1}}\n`,
  });
  const d = JSON.parse(r.stdout.split("\n")[0]!) as { rule: string; path: string; message: string };
  assert.deepEqual([d.rule, d.path, d.message], ["unknown-field", "/extra", 'unknown field "extra"']);
  const text = await runCli(["validate", "--strict", "--no-lifecycle"], { stdin: `{"type":"retry","subtype":"starting","attempt":1,"is_resume":false,"session_id":"s","timestamp_ms":1,"extra":1}\n` });
  assert.match(text.stdout, /^<stdin>:1: \/extra: unknown field "extra" \(unknown-field\)\n/);
});

test("validate's summary says how many errors are about lines and how many about sessions", async () => {
  const r = await runCli(["validate", `${F}/crash-no-result.ndjson`]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /\nchecked 9 lines in 1 file: 9 valid, 0 invalid; 2 errors \(0 in lines, 2 in sessions\), 0 warnings\n$/);
  const clean = await runCli(["validate", "examples/session.ndjson"]);
  assert.doesNotMatch(clean.stdout, /in sessions/, "no split when no session error");
});

test("a directory holding only *.json files says they are not read from a directory", async () => {
  const dir = tempDir("cursorlog-json-dir-");
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "a.json"), "{}\n");
  writeFileSync(join(dir, "sub", "b.json.gz"), "");
  const r = await runCli(["json", dir]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, `cursorlog: error (at ${dir}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory; its 2 *.json files are not read from a directory: name them to read them\n`);
  const one = tempDir("cursorlog-json-dir-");
  writeFileSync(join(one, "a.json"), "{}\n");
  assert.match((await runCli(["json", one])).stderr, /its 1 \*\.json file is not read from a directory: name it to read it\n$/);
  const none = tempDir("cursorlog-json-dir-");
  assert.match((await runCli(["json", none])).stderr, /in this directory\n$/);
});

test("a file holding a JSON array of events: the error says how to make NDJSON of it", async () => {
  const r = await runCli(["json"], { stdin: `[{"type":"system","subtype":"init"},{"type":"result"}]\n` });
  assert.equal(r.code, 5);
  assert.equal(r.stderr, "cursorlog: error (at <stdin>:1): expected a JSON object, found an array; for an array of events, make NDJSON first: jq -c '.[]' FILE | cursorlog …\n");
});

test("json colours its output as jq does on a terminal (or --color always); the text under the colours is the same", async () => {
  const plain = await runCli(["json", "--pretty", "examples/session.ndjson"]);
  for (const r of [
    await runCli(["json", "--pretty", "examples/session.ndjson"], { stdoutIsTTY: true, env: {} }),
    await runCli(["json", "--pretty", "--color", "always", "examples/session.ndjson"], { env: {} }),
  ]) {
    assert.match(r.stdout, /^\u001b\[1;39m\{\u001b\[0m\n {2}\u001b\[34;1m"type"\u001b\[0m\u001b\[1;39m:\u001b\[0m \u001b\[0;32m"result"\u001b\[0m/);
    assert.equal(r.stdout.replace(/\u001b\[[0-9;]*m/g, ""), plain.stdout);
  }
  assert.equal((await runCli(["json", "examples/session.ndjson"], { stdoutIsTTY: true, env: { NO_COLOR: "1" } })).stdout.includes("\u001b"), false);
  const nul = await runCli(["json", "--color", "always"], { env: {}, stdin: '{"type":"result","subtype":"success","is_error":false,"result":"a \\"q\\": b","session_id":null}\n' });
  assert.match(nul.stdout, /\u001b\[0;32m"a \\"q\\": b"\u001b\[0m/, "a colon inside a string is not a key");
  assert.match(nul.stdout, /\u001b\[1;30mnull\u001b\[0m/);
});

test("filter --color is for its messages: the events are written as read, never coloured", async () => {
  const r = await runCli(["filter", "--color", "always", "--type", "result", "examples/session.ndjson"], { env: {} });
  assert.equal(r.stdout, (await runCli(["filter", "--type", "result", "examples/session.ndjson"])).stdout);
  assert.match((await runCli(["filter", "--help"])).stdout.replace(/\s+/g, " "), /--color <when> colour the messages on stderr: auto, always or never \(the events are written as read, never coloured\)/);
});

test("json and filter on a terminal: controls, C1 and bidi characters from the log written as \\uXXXX (the same JSON); in a pipe, as read", async () => {
  const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  const line = '{"type":"result","subtype":"success","is_error":false,"result":"x\u009b2J\u202ey\u007f","session_id":"s"}\n';
  for (const argv of [["json"], ["json", "--pretty"], ["filter"], ["filter", "--type", "result"], ["filter", "--session", "s"]]) {
    const piped = await runCli(argv, { stdin: line });
    assert.match(piped.stdout, unsafe, `${argv.join(" ")}: into a pipe the data is unchanged`);
    const tty = await runCli(argv, { stdin: line, stdoutIsTTY: true, env: { NO_COLOR: "1" } });
    assert.doesNotMatch(tty.stdout, unsafe, argv.join(" "));
    assert.match(tty.stdout, /x\\u009b2J\\u202ey\\u007f/, argv.join(" "));
    assert.deepEqual(JSON.parse(tty.stdout), JSON.parse(piped.stdout), `${argv.join(" ")}: the same JSON`);
  }
  const hostile = await runCli(["filter", `${F}/hostile.ndjson`], { stdoutIsTTY: true, env: { NO_COLOR: "1" } });
  assert.doesNotMatch(hostile.stdout, unsafe);
  const plain = await runCli(["filter", `${F}/hostile.ndjson`]);
  assert.deepEqual(hostile.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)), plain.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)));
});
