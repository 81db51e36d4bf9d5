import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PassThrough, Readable, Writable } from "node:stream";
import { test } from "node:test";
import { main } from "../src/cli/main.js";
import { runCli } from "./helpers/run-cli.js";

const LONG = "test/fixtures/2026-long.ndjson";

test("help: usage, description, examples, then the options in groups", async () => {
  const got = await runCli(["filter", "--help"]);
  assert.equal(got.code, 0);
  assert.match(got.stdout, /^Usage: cursorlog filter \[options\] \[files\.\.\.\]\n\n[^\n]+\n(?:[^\n]+\n)*\nExamples:\n {2}\$ cursorlog filter --exclude-type thinking run\.ndjson > small\.ndjson\n/);
  const groups = ["Predicates:", "Output options:", "Input options:"].map((g) => got.stdout.indexOf(`\n${g}\n`));
  assert.ok(groups.every((i) => i > 0) && groups[0]! < groups[1]! && groups[1]! < groups[2]!, String(groups));
  for (const flag of ["--type <type>", "--exclude-type <type>", "--tool <kind>", "--status <arm>", "--call-id <id>", "--where <clause>", "--since <time>", "--pair", "-c, --count", "-e, --exit-status"]) {
    assert.ok(got.stdout.includes(flag), flag);
  }
  assert.match(got.stdout, /An\s+event\s+without\s+timestamp_ms\s+takes\s+the\s+last\s+timestamp\s+before\s+it\s+in\s+its\s+file/);
});

test("the program lists filter", async () => {
  const got = await runCli(["--help"]);
  assert.match(got.stdout, /\n {2}filter \[options\] \[files\.\.\.\] +write the events that match/);
});

test("empty input: nothing written, status 0; with -e status 1; with -c a zero", async () => {
  assert.deepEqual(await runCli(["filter"], { stdin: "" }), { stdout: "", stderr: "", code: 0 });
  assert.deepEqual(await runCli(["filter", "-e"], { stdin: "\n\n" }), { stdout: "", stderr: "", code: 1 });
  assert.deepEqual(await runCli(["filter", "-c"], { stdin: "" }), { stdout: "0\n", stderr: "", code: 0 });
});

test("a terminal on stdin is a usage error with a hint", async () => {
  const got = await runCli(["filter", "--type", "result"], { stdinIsTTY: true });
  assert.equal(got.code, 2);
  assert.match(got.stderr, /cursorlog filter run\.ndjson/);
});

test("usage errors exit 2 before any input is read", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["--where", "tool_call..x exists"], /argument 'tool_call\.\.x exists' is invalid\. bad path "tool_call\.\.x": an empty key \(\.\.\) at column 11\n/],
    [["--where", "x ~ [z-a]"], /argument 'x ~ \[z-a\]' is invalid\. invalid regular expression \/\[z-a\]\/: /],
    [["--where", "x ~ (.)\\1"], /a backreference \(\\1\) at column 4 is not supported/],
    [["--since", "last week"], /option '--since <time>' argument 'last week' is invalid\. expected an ISO-8601 time/],
    [["--until", "2026-01-01", "--since", "2026-01-01"], /--since \(2026-01-01T00:00:00\.000Z\) must be earlier than --until/],
    [["--frobnicate"], /unknown option '--frobnicate'/],
  ];
  for (const [args, message] of cases) {
    const got = await runCli(["filter", ...args, "does-not-exist.ndjson"]);
    assert.equal(got.code, 2, args.join(" "));
    assert.equal(got.stdout, "");
    assert.match(got.stderr, /^cursorlog: error: /);
    assert.match(got.stderr, message);
    assert.doesNotMatch(got.stderr, /no such file/, "the input was never opened");
  }
  const missing = await runCli(["filter", "--type"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^cursorlog: error: option '--type <type>' argument missing\n/);
});

test("unknown event types and fields pass through untouched", async () => {
  const got = await runCli(["filter", "--exclude-type", "thinking", "test/fixtures/unknown-events.ndjson"]);
  assert.match(got.stdout, /"type":"hologram".*"payload":\{"__proto__":\{"polluted":true\},"constructor":"x"\}/);
  assert.match(got.stdout, /"brandNewField":true/);
  assert.match(got.stdout, /"subtype":"progress"/);
});

test("a reader that goes away (EPIPE) ends the run quietly with status 0", async () => {
  let writes = 0;
  const stdout = new Writable({
    write(_chunk, _enc, cb) {
      writes++;
      const err = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
      cb(writes > 1 ? err : null);
    },
  });
  let stderr = "";
  const big = Buffer.concat(Array.from({ length: 200 }, () => readFileSync(LONG)));
  const code = await main(["filter"], {
    stdin: Readable.from([big]),
    stdout,
    stderr: new Writable({ write: (c, _e, cb) => ((stderr += String(c)), cb()) }),
    env: {},
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  assert.equal(code, 0);
  assert.equal(stderr, "");
});

test("live: a kept line is written when it arrives; with --pair a start waits for its completion", async () => {
  const lines = readFileSync(LONG, "utf8").split("\n");
  const firstStart = lines.findIndex((l) => l.includes('"subtype":"started"'));
  for (const pair of [false, true]) {
    const stdin = new PassThrough();
    let out = "";
    const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
    const done = main(["filter", "--type", "tool_call", ...(pair ? ["--subtype", "completed", "--pair"] : [])], {
      stdin,
      stdout,
      stderr: new Writable({ write: (_c, _e, cb) => cb() }),
      env: {},
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
    });
    // Poll for what must come out (a loaded machine may take a while); hold back is checked after a rest.
    const until = async (want: string) => {
      for (const end = Date.now() + 10_000; Date.now() < end && out !== want; ) await new Promise((r) => setTimeout(r, 10));
    };
    stdin.write(lines.slice(0, firstStart + 1).join("\n") + "\n");
    if (pair) await new Promise((r) => setTimeout(r, 100));
    else await until(lines[firstStart] + "\n");
    assert.equal(out, pair ? "" : lines[firstStart] + "\n", `pair=${pair}: after the first started line`);
    stdin.write(lines[firstStart + 1] + "\n");
    await until(lines[firstStart] + "\n" + lines[firstStart + 1] + "\n");
    assert.equal(out, lines[firstStart] + "\n" + lines[firstStart + 1] + "\n", `pair=${pair}: after its completion`);
    stdin.end(lines.slice(firstStart + 2).join("\n"));
    assert.equal(await done, 0);
  }
});
