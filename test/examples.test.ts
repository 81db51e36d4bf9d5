// test-run: scaled
// Every example a user can copy is run: each `$ …` line of every command's --help (with its
// continuation lines), and each command line of README.md's code blocks. They run through bash
// with pipefail, as the built program (bin/cursorlog.js: `npm run build` first), in a fresh
// temporary folder per help text or README block holding the files they name (run.ndjson, logs/,
// the tree the run's diff applies to, …), the examples of one help text or block in order, as a
// reader would type them. Each must exit 0 (or the status listed in EXIT, when finding something
// is the example's point) with nothing on stderr. A `cursor-agent` on PATH prints
// examples/session.ndjson, so the pipelines that start with the agent run too.
//
// README blocks that start with `$ ` (a command and its output) are run, output included, by
// test/readme.test.ts, the library's ```js example by test/library-readme.test.ts; synopses
// (`cursorlog show [--format …]`) and blocks of messages are not commands. The few examples not run are in NOT_RUN, each with its reason.
//
// make test (each example a process of the built program, ~0.2-0.3 CPU s: 112 of them were 36
// CPU s) runs every README command (one README shows twice, once). Of the --help examples (helpPlan) it runs the first of a help
// text whose command no README command line runs (export's today), and no other: one that is the
// same command line as a README command or an earlier help text's (a trailing `# comment` aside)
// runs there; each of the rest is still checked: run through bash with a `cursorlog` that only
// notes its arguments (dryArgvs), every command line it would have run must parse (the command,
// its options and their values: parsesAs). make stress (CURSORLOG_STRESS=1,
// test/helpers/scale.ts) runs every example, as before.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { after, describe, test } from "node:test";
import { buildProgram } from "../src/cli/program.js";
import { runCli } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";

/** Examples not run, by their exact text, and why. */
const NOT_RUN = new Map<string, string>([
  ["cursorlog export --endpoint http://localhost:4318 logs/  # OpenTelemetry", "needs a collector on port 4318 (export-otlp and export-wire send to one on a free port)"],
  ["cursorlog export --endpoint http://localhost:4318 logs/   # Jaeger, Tempo", "needs a collector on port 4318 (export-otlp and export-wire send to one on a free port)"],
  ["OTEL_EXPORTER_OTLP_ENDPOINT=https://otel.example.com \\\n      cursorlog export --send run.ndjson", "sends to a host on the network"],
  ['cursorlog completion zsh > "${fpath[1]}/_cursorlog"', "zsh's $fpath: bash would write /_cursorlog (man-completion checks the zsh script)"],
  ["make demo     # installs (npm ci), builds, and runs text and json on examples/session.ndjson", "builds this checkout in place (make-build-once checks its rules)"],
  ["make test     # installs (npm ci), builds, and runs the whole test suite", "runs the whole suite, this file included (make-build-once checks its rules)"],
  ["make stress   # the heavy runs: what make test runs small, at full size", "runs the heavy suite (tens of minutes; CI runs it)"],
]);

/** Examples whose answer is a non-zero status with the files given here. */
const EXIT = new Map<string, number>([
  // The log has an unknown tool kind, an error under --strict: the example lists the errors.
  [`cursorlog validate --strict --format json logs/*.ndjson | jq -r 'select(.severity == "error") | "\\(.file):\\(.line) \\(.message)"'`, 1],
  ["cursorlog validate --strict --format json run.ndjson |\n      jq -r 'select(.severity == \"error\") | .message'", 1],
]);

/** Commands these examples use besides cursorlog and the shell's own; a missing one skips its examples. */
const TOOLS = ["jq", "mlr", "git", "less", "parallel"];
const have = new Map(TOOLS.map((t) => [t, spawnSync("sh", ["-c", `command -v ${t}`]).status === 0]));

interface Example {
  /** Where it was found, for the test's name. */
  source: string;
  command: string;
}

// ---------------------------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------------------------

/** The `$ ` lines of a help text, each with the more-indented lines that continue it. */
export function helpExamples(help: string): string[] {
  const out: string[] = [];
  let current: { indent: number; lines: string[] } | undefined;
  for (const line of help.split("\n")) {
    const m = /^(\s*)\$ (.*)$/.exec(line);
    if (m) {
      if (current) out.push(current.lines.join("\n"));
      current = { indent: m[1]!.length, lines: [m[2]!] };
    } else if (current && line.trim() !== "" && /^\s*/.exec(line)![0].length > current.indent + 2) {
      current.lines.push(line);
    } else if (current) {
      out.push(current.lines.join("\n"));
      current = undefined;
    }
  }
  if (current) out.push(current.lines.join("\n"));
  return out;
}

interface Block {
  line: number;
  kind: "session" | "synopsis" | "messages" | "commands" | "code";
  commands: string[];
}

const COMMAND_START = /^(?:[A-Z_]+=\S+ |cursorlog |cursor-agent |eval |find |make |mkdir |for )/;

/** README's code blocks, each sorted into what it is. */
export function readmeBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  for (const m of readme.matchAll(/```([a-z]*)\n([\s\S]*?)```/g)) {
    const line = readme.slice(0, m.index).split("\n").length;
    const lines = m[2]!.split("\n").filter((l) => l.trim() !== "");
    let kind: Block["kind"];
    if (m[1] === "js") kind = "code";
    else if (lines[0]!.startsWith("$ ")) kind = "session";
    else if (lines.some((l) => /(^|\s)\[(-|[A-Z])/.test(l))) kind = "synopsis";
    else if (lines.every((l) => l.startsWith("#") || COMMAND_START.test(l))) kind = "commands";
    else kind = "messages";
    blocks.push({ line, kind, commands: kind === "commands" ? lines.filter((l) => !l.startsWith("#")) : [] });
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// The folder an example runs in
// ---------------------------------------------------------------------------------------------

const root = mkdtempSync(join(tmpdir(), "cursorlog-examples-"));
after(() => rmSync(root, { recursive: true, force: true }));

const bin = join(root, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "cursorlog"), `#!/bin/sh\nexec node ${JSON.stringify(resolve("bin/cursorlog.js"))} "$@"\n`);
// The agent, recorded: whatever it is asked, it prints a real run's log.
writeFileSync(join(bin, "cursor-agent"), `#!/bin/sh\nexec cat ${JSON.stringify(resolve("examples/session.ndjson"))}\n`);
for (const f of ["cursorlog", "cursor-agent"]) chmodSync(join(bin, f), 0o755);

let folders = 0;
/** A fresh folder with what the examples name: logs, the tree the run's patch applies to, a HOME. */
function folder(): string {
  const dir = join(root, `run-${++folders}`);
  const session = readFileSync("examples/session.ndjson");
  const crashed = readFileSync("examples/crashed.ndjson");
  mkdirSync(join(dir, "examples"), { recursive: true });
  copyFileSync("examples/session.ndjson", join(dir, "examples", "session.ndjson"));
  writeFileSync(join(dir, "run.ndjson"), session);
  writeFileSync(join(dir, "crashed.ndjson"), crashed);
  mkdirSync(join(dir, "logs"));
  writeFileSync(join(dir, "logs", "run.ndjson"), session);
  writeFileSync(join(dir, "logs", "run.ndjson.gz"), gzipSync(session));
  // The files as they were before the run (`cursorlog diff run.ndjson | git apply`).
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "sum.ts"), "export const sum = (a, b) => a - b;\n");
  mkdirSync(join(dir, "tmp"));
  writeFileSync(join(dir, "tmp", "old.log"), "old\n");
  mkdirSync(join(dir, "home", ".config", "fish", "completions"), { recursive: true });
  return dir;
}

function run(e: Example, dir: string) {
  return spawnSync("bash", ["--norc", "--noprofile", "-o", "pipefail", "-c", e.command], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: join(dir, "home"),
      NO_COLOR: "1",
      TZ: "UTC",
      GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// make test's plan for the help examples (make stress runs them all)
// ---------------------------------------------------------------------------------------------

/** An example's command line without a trailing `# comment` on each line (one outside quotes). */
function commandLine(example: string): string {
  return example
    .split("\n")
    .map((l) => l.replace(/\s+#\s[^'"]*$/, "").trimEnd())
    .join("\n");
}

type Plan = { run: true } | { run: false; sameAs: string } | { run: false; parse: true };

/**
 * What make test does with each help text's examples: an example that is a README command's
 * command line, or an earlier help text's, runs there; of the others, the first runs here when no
 * README command line runs the help text's command (`cursorlog X …` for `cursorlog X --help`);
 * the rest are parsed (dryArgvs, parsesAs).
 */
function helpPlan(helps: Array<[string, string[]]>, readmeCommands: string[]): Map<string, Plan[]> {
  const where = new Map<string, string>();
  for (const c of readmeCommands) where.set(commandLine(c), "a README command");
  const plans = new Map<string, Plan[]>();
  for (const [source, examples] of helps) {
    const command = /^cursorlog (\S+) --help$/.exec(source)?.[1];
    // The program's own --help shows other commands' examples: theirs are its commands.
    let first = command !== undefined && !readmeCommands.some((c) => new RegExp(`\\bcursorlog ${command}\\b`).test(c));
    plans.set(
      source,
      examples.map((e) => {
        const line = commandLine(e);
        const sameAs = where.get(line);
        if (sameAs !== undefined) return { run: false, sameAs };
        where.set(line, `an example of ${source}`);
        if (!first) return { run: false, parse: true };
        first = false;
        return { run: true };
      }),
    );
  }
  return plans;
}

// A `cursorlog` that only notes its arguments (each followed by NUL, a call ended by \x01), and
// prints nothing: the command lines an example would run, with the shell's expansions done.
const dryBin = join(root, "dry-bin");
mkdirSync(dryBin);
writeFileSync(join(dryBin, "cursorlog"), `#!/bin/sh\n{ for a in "$@"; do printf '%s\\0' "$a"; done; printf '\\001'; } >> "$CURSORLOG_ARGV_LOG"\n`);
copyFileSync(join(bin, "cursor-agent"), join(dryBin, "cursor-agent"));
for (const f of ["cursorlog", "cursor-agent"]) chmodSync(join(dryBin, f), 0o755);

/** The cursorlog command lines EXAMPLE runs (through bash, in DIR, with the noting cursorlog). */
function dryArgvs(example: string, dir: string): string[][] {
  const log = join(dir, "argv.log");
  rmSync(log, { force: true });
  writeFileSync(log, "");
  spawnSync("bash", ["--norc", "--noprofile", "-o", "pipefail", "-c", example], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: `${dryBin}:${process.env.PATH}`, HOME: join(dir, "home"), NO_COLOR: "1", TZ: "UTC", GITHUB_STEP_SUMMARY: join(dir, "summary.md"), CURSORLOG_ARGV_LOG: log },
  });
  return readFileSync(log, "utf8")
    .split("\x01")
    .slice(0, -1)
    .map((call) => call.split("\0").slice(0, -1));
}

/** Commander's complaint about ARGV (an unknown command or option, a bad value), or "" when it parses to a command. */
async function parsesAs(argv: string[]): Promise<string> {
  let said = "";
  let ran = false;
  const sink = { write: (s: string | Uint8Array) => ((said += String(s)), true) };
  const program = buildProgram({ io: { stdout: sink, stderr: sink, env: {} } as never, setRun: () => (ran = true) }, "0");
  const quiet = (c: typeof program): void => {
    c.exitOverride().configureOutput({ writeOut: (s) => (said += s), writeErr: (s) => (said += s) });
    for (const sub of c.commands) quiet(sub);
  };
  quiet(program);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    return said || String(err);
  }
  return ran ? said : said || "no command ran";
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

const program = buildProgram({ io: {} as never, setRun: () => undefined }, "0");
const HELP_ARGV = [["--help"], ...program.commands.map((c) => c.name()).filter((n) => n !== "help" && n !== "man").map((n) => [n, "--help"])];
const readme = readmeBlocks(readFileSync("README.md", "utf8"));
const seen = new Set<string>();

function runAll(source: string, commands: string[], plans?: Plan[]): void {
  let dir: string | undefined;
  let dryDir: string | undefined;
  for (const [i, command] of commands.entries()) {
    seen.add(command);
    const e = { source, command };
    const plan: Plan = STRESS || plans === undefined ? { run: true } : plans[i]!;
    const how = plan.run ? "" : "sameAs" in plan ? ` (make test: runs as ${plan.sameAs})` : " (make test: its command lines parsed, not run)";
    test(`${source}: ${command}${how}`, async (t) => {
      const reason = NOT_RUN.get(command);
      if (reason !== undefined) return t.skip(`not run: ${reason}`);
      if (!plan.run && "sameAs" in plan) return t.skip(`make test runs it as ${plan.sameAs}; make stress here too`);
      if (!plan.run) {
        dryDir ??= folder();
        const argvs = dryArgvs(command, dryDir);
        assert.ok(argvs.length > 0, `${command}: no cursorlog command line`);
        for (const argv of argvs) assert.equal(await parsesAs(argv), "", `${command}: cursorlog ${argv.join(" ")}`);
        return;
      }
      const missing = TOOLS.find((tool) => new RegExp(`(^|[|;&(]\\s*)${tool}\\b`, "m").test(command) && !have.get(tool));
      if (missing) return t.skip(`${missing} is not installed`);
      dir ??= folder();
      const r = run(e, dir);
      assert.equal(r.error, undefined, `${command}: ${r.error?.message}`);
      assert.equal(r.stderr, "", command);
      assert.equal(r.status, EXIT.get(command) ?? 0, `${command}\n${r.stdout.slice(0, 2000)}`);
    });
  }
}

assert.ok(existsSync("dist/bundle/main.js"), "dist/ is missing: run `npm run build` (make test does)");

describe("every --help example runs", async () => {
  const helps: Array<[string, string[]]> = [];
  for (const argv of HELP_ARGV) helps.push([`cursorlog ${argv.join(" ")}`, helpExamples((await runCli(argv)).stdout)]);
  const plans = helpPlan(helps, readme.flatMap((b) => b.commands));
  for (const [source, examples] of helps) {
    test(`${source} has examples`, () => assert.ok(examples.length > 0));
    runAll(source, examples, plans.get(source));
  }
});

describe("every README command runs", () => {
  // make test: a command line README shows twice (a trailing `# comment` aside) runs the first
  // time; make stress: each time.
  const first = new Map<string, string>();
  for (const b of readme.filter((b) => b.kind === "commands")) {
    const plans = b.commands.map((c): Plan => {
      const sameAs = first.get(commandLine(c));
      if (sameAs !== undefined) return { run: false, sameAs };
      first.set(commandLine(c), `README.md:${b.line}`);
      return { run: true };
    });
    runAll(`README.md:${b.line}`, b.commands, plans);
  }

  test("each README code block is a session (readme.test.ts runs it), code (library-readme.test.ts), a synopsis, messages or commands run here", () => {
    const count = (k: Block["kind"]) => readme.filter((b) => b.kind === k).length;
    assert.ok(count("commands") >= 10, `${count("commands")} command blocks`);
    assert.ok(count("session") >= 10, `${count("session")} session blocks`);
    assert.equal(count("code"), 2, "the library examples: text -v as a Transform, and an output of one's own on the driver");
    // A block of messages holds no line a reader could take for a command.
    for (const b of readme.filter((b) => b.kind === "messages")) {
      for (const l of readFileSync("README.md", "utf8").split("\n").slice(b.line, b.line + 40)) {
        if (l.startsWith("```")) break;
        assert.ok(!/^(cursorlog|cursor-agent) (?!.*: )/.test(l), `README.md:${b.line}: a command in a block taken for messages: ${l}`);
      }
    }
  });
});

test("the lists of examples not run and of their statuses name examples that exist", () => {
  for (const command of [...NOT_RUN.keys(), ...EXIT.keys()]) assert.ok(seen.has(command), `no such example: ${command}`);
});

test("make test's plan: a README command line or an earlier help text's runs there, the first of a command README does not run runs here, the rest are parsed; a bad option does not parse", async () => {
  const P = { run: false, parse: true };
  const plans = helpPlan(
    [
      ["cursorlog --help", ["cursorlog text y", "cursorlog stats y"]],
      ["cursorlog json --help", ["cursorlog json x   # a comment", "a", "b"]],
      ["cursorlog text --help", ["cursorlog text y", "c", "d"]],
      ["cursorlog filter --help", ["cursorlog filter z", "e"]],
    ],
    ["cursorlog json x", "find . | xargs cursorlog filter"],
  );
  assert.deepEqual(plans.get("cursorlog --help"), [{ run: false, parse: true }, P]);
  assert.deepEqual(plans.get("cursorlog json --help"), [{ run: false, sameAs: "a README command" }, P, P]);
  assert.deepEqual(plans.get("cursorlog text --help"), [{ run: false, sameAs: "an example of cursorlog --help" }, { run: true }, P]);
  assert.deepEqual(plans.get("cursorlog filter --help"), [P, P]);
  assert.equal(await parsesAs(["json", "--pretty", "x.ndjson"]), "");
  assert.match(await parsesAs(["json", "--no-such-option", "x.ndjson"]), /unknown option '--no-such-option'/);
  assert.match(await parsesAs(["timeline", "--format", "nope", "x.ndjson"]), /nope/);
  assert.match(await parsesAs(["no-such-command"]), /unknown command/);
  const dir = folder();
  assert.deepEqual(dryArgvs("cursorlog json logs/*.gz | jq . && cursorlog text -v 'a b'", dir), [["json", "logs/run.ndjson.gz"], ["text", "-v", "a b"]]);
});

test("extraction: a help example with its continuation lines; README blocks by kind", () => {
  assert.deepEqual(helpExamples("Examples:\n  $ a |\n      b\n  $ c\n\nOptions:\n  -x  y\n"), ["a |\n      b", "c"]);
  assert.deepEqual(
    readmeBlocks("```\n$ cursorlog json x\n{}\n```\n```\ncursorlog json [--pretty] [FILE…]\n```\n```\ncursorlog: error: x\n```\n```\n# c\ncursorlog json x | jq .\n```\n").map((b) => [b.kind, b.commands]),
    [["session", []], ["synopsis", []], ["messages", []], ["commands", ["cursorlog json x | jq ."]]],
  );
});

describe("the schema help's copies are a directory validate --schema reads", () => {
  test("for t in $(cursorlog schema --list); do cursorlog schema $t > $t.json; done: --list names the entry too, found by its $id", async () => {
    const dir = mkdtempSync(join(root, "schemas-"));
    const names = (await runCli(["schema", "--list"])).stdout.trimEnd().split("\n");
    assert.equal(names[0], "cursor-agent-event");
    for (const t of names) writeFileSync(join(dir, `${t}.json`), (await runCli(["schema", t])).stdout);
    const r = await runCli(["validate", "--schema", dir, "examples/session.ndjson"]);
    assert.equal(r.stderr, "");
    assert.equal(r.stdout, (await runCli(["validate", "examples/session.ndjson"])).stdout);
    assert.equal(r.code, 0);
  });

  test("a directory with the entry alone: exit 3, and the message says to write them all", async () => {
    const dir = mkdtempSync(join(root, "entry-only-"));
    writeFileSync(join(dir, "cursor-agent-event.schema.json"), (await runCli(["schema"])).stdout);
    const r = await runCli(["validate", "--schema", dir, "examples/session.ndjson"]);
    assert.equal(
      r.stderr,
      `cursorlog: error (at ${dir}/cursor-agent-event.schema.json): schema does not compile: can't resolve reference system.schema.json from id https://cursorlog.dev/schemas/cursor-agent-event.schema.json` +
        ` (the bundled schemas $ref each other: write them all to the directory, as 'cursorlog schema --help' shows)\n`,
    );
    assert.equal(r.code, 3);
  });
});
