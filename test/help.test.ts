import assert from "node:assert/strict";
import { test } from "node:test";
import { buildProgram, COMMANDS as TABLE } from "../src/cli/program.js";
import { runCli } from "./helpers/run-cli.js";

const program = buildProgram({ io: {} as never, setRun: () => undefined }, "0");
const COMMANDS = program.commands.map((c) => c.name()).filter((n) => n !== "man");

test("help, for the program and each command: Usage first, then the description, then the examples, then the options; 80 columns", async () => {
  for (const argv of [["--help"], ...COMMANDS.filter((n) => n !== "help").map((n) => [n, "--help"]), ["help", "text"]]) {
    const r = await runCli(argv);
    assert.equal(r.code, 0, argv.join(" "));
    const lines = r.stdout.split("\n");
    assert.match(lines[0]!, /^Usage: cursorlog/, argv.join(" "));
    assert.equal(lines[1], "");
    assert.notEqual(lines[2], "", `${argv.join(" ")}: the description`);
    const examples = lines.indexOf("Examples:");
    const options = lines.indexOf("Options:");
    assert.ok(examples > 2 && lines[examples - 1] === "", `${argv.join(" ")}: examples after the description`);
    assert.ok(options > examples, `${argv.join(" ")}: options after the examples`);
    for (const l of lines) assert.ok([...l].length <= 80, `${argv.join(" ")}: a line of ${[...l].length} columns: ${l}`);
  }
});

test("the command table's names are the names its commands give themselves; a run that names one makes it alone", () => {
  const ctx = { io: {} as never, setRun: () => undefined };
  assert.deepEqual(
    TABLE.map(([, make]) => make(ctx).name()),
    TABLE.map(([name]) => name),
  );
  for (const [name] of TABLE) assert.deepEqual(buildProgram(ctx, "0", name).commands.map((c) => c.name()), [name]);
});

test("a command made alone (`CMD --help`) shows the same help as in the whole program (`help CMD`)", async () => {
  for (const name of COMMANDS.filter((n) => n !== "help")) {
    const alone = await runCli([name, "--help"]);
    const whole = await runCli(["help", name]);
    assert.deepEqual(alone, whole, name);
  }
});

test("an option error points to the command's own help", async () => {
  const r = await runCli(["text", "--bogus", "examples/session.ndjson"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "cursorlog: error: unknown option '--bogus'\nRun 'cursorlog text --help' for usage.\n");
  const t = await runCli(["timeline", "--format", "xml"]);
  assert.match(t.stderr, /\nRun 'cursorlog timeline --help' for usage\.\n$/);
  const p = await runCli(["--bogus"]);
  assert.equal(p.stderr, "cursorlog: error: unknown option '--bogus'\nRun 'cursorlog --help' for usage.\n");
});

test("a log named where the command goes: status 2 and the command line that reads it", async () => {
  const reader = COMMANDS.includes("show") ? "show" : "text -v";
  for (const argv of [["examples/session.ndjson"], ["--color", "never", "examples/session.ndjson"], ["run.ndjson"], ["logs/run.jsonl.gz"]]) {
    const name = argv[argv.length - 1]!;
    const r = await runCli(argv);
    assert.equal(r.code, 2, argv.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, `cursorlog: error: '${name}' is not a command; name the command first:\n  cursorlog ${reader} ${name}\nRun 'cursorlog --help' for the commands.\n`);
  }
  const other = await runCli(["jsno"]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /unknown command 'jsno'/, "a word that is not a log: commander's message and suggestion");
});

test("options before the command apply to it: --color, --no-progress, -o", async () => {
  const plain = await runCli(["text", "-v", "examples/session.ndjson"], { env: { FORCE_COLOR: "1" } });
  assert.match(plain.stdout, /\u001b\[/, "FORCE_COLOR colours");
  const never = await runCli(["--color", "never", "text", "-v", "examples/session.ndjson"], { env: { FORCE_COLOR: "1" } });
  assert.equal(never.code, 0);
  assert.doesNotMatch(never.stdout, /\u001b/);
  const always = await runCli(["--color", "always", "text", "-v", "examples/session.ndjson"], { env: {} });
  assert.equal(always.stdout, plain.stdout);
  const after = await runCli(["--color", "never", "text", "--color", "always", "-v", "examples/session.ndjson"], { env: {} });
  assert.equal(after.stdout, plain.stdout, "after the command wins");
  const quiet = await runCli(["--no-progress", "json", "test/fixtures/2026-long.ndjson"], { stderrIsTTY: true, env: {} });
  assert.equal(quiet.stderr, "");
  const bad = await runCli(["--color", "sometimes", "text"]);
  assert.equal(bad.code, 2);
});

test("cursorlog help NOSUCH: unknown command, status 2, with a suggestion when one is close", async () => {
  const r = await runCli(["help", "nosuch"]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "cursorlog: error: unknown command 'nosuch'\nRun 'cursorlog --help' for the commands.\n");
  const near = await runCli(["help", "txt"]);
  assert.equal(near.stderr, "cursorlog: error: unknown command 'txt' (did you mean 'text'?)\nRun 'cursorlog --help' for the commands.\n");
  assert.equal((await runCli(["help"])).code, 0);
});

test("--columns with a misspelt name: did you mean", async () => {
  const r = await runCli(["timeline", "--columns", "seq,kidn", "examples/session.ndjson"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown column "kidn" \(did you mean 'kind'\?\); valid columns: session_id,/);
  const far = await runCli(["timeline", "--columns", "seq,zzzzzz", "examples/session.ndjson"]);
  assert.doesNotMatch(far.stderr, /did you mean/);
});

test("help CMD is status 0, and no command at all status 2, whatever process.exitCode says (main in a process that did other work: a test runner with a failure)", async () => {
  const saved = process.exitCode;
  try {
    for (const set of [undefined, 1, 5]) {
      process.exitCode = set;
      const help = await runCli(["help", "timeline"]);
      const none = await runCli([]);
      process.exitCode = saved;
      assert.deepEqual({ help: help.code, stderr: help.stderr, usage: help.stdout.startsWith("Usage: cursorlog timeline ") }, { help: 0, stderr: "", usage: true }, `process.exitCode ${set}`);
      assert.deepEqual({ none: none.code, stdout: none.stdout, usage: none.stderr.startsWith("Usage: cursorlog ") }, { none: 2, stdout: "", usage: true }, `process.exitCode ${set}`);
    }
  } finally {
    process.exitCode = saved;
  }
});
