import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { buildProgram } from "../src/cli/program.js";
import { runCli } from "./helpers/run-cli.js";

const program = buildProgram({ io: {} as never, setRun: () => undefined }, "0");

test("man/cursorlog.1 is current: it equals what `cursorlog man` generates (run `make man` after changing options)", async () => {
  const r = await runCli(["man"]);
  assert.equal(r.code, 0);
  assert.equal(readFileSync("man/cursorlog.1", "utf8"), r.stdout);
  // An array: current npm links man pages for `npm install -g` only from an array (a string is ignored).
  assert.deepEqual((JSON.parse(readFileSync("package.json", "utf8")) as { man?: unknown }).man, ["./man/cursorlog.1"]);
});

test("the man page names every command and every option of each", () => {
  const man = readFileSync("man/cursorlog.1", "utf8").replace(/\\-/g, "-");
  for (const cmd of program.commands) {
    if (cmd.name() === "help" || cmd.name() === "man") continue;
    assert.ok(man.includes(`.SS "cursorlog ${cmd.name()}`), `command ${cmd.name()}`);
    for (const o of cmd.options) assert.ok(man.includes(o.flags), `${cmd.name()} ${o.flags}`);
  }
});

/** `cursorlog completion bash` from the sources, made once (a node with tsx each time cost a second or two). */
let completionScript: string | undefined;
function bashCompletion(): string {
  completionScript ??= spawnSync("node", ["--import", "tsx", "-e", 'import("./src/cli/main.ts").then(async (m) => { const { PassThrough } = await import("node:stream"); const out = new PassThrough(); out.pipe(process.stdout); await m.main(["completion","bash"], { stdin: new PassThrough(), stdout: out, stderr: process.stderr, env: {}, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false }); out.end(); })'], { encoding: "utf8" }).stdout;
  return completionScript;
}

function bashComplete(line: string): string[] {
  const words = line.split(" ");
  const script = `${bashCompletion()}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}
_cursorlog; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script], { encoding: "utf8", cwd: "test/fixtures" });
  assert.equal(r.stderr, "");
  return r.stdout.split("\n").filter(Boolean);
}

test("bash completion: commands, then the chosen command's options, then files", () => {
  assert.deepEqual(bashComplete("cursorlog ti"), ["timeline"]);
  assert.deepEqual(bashComplete("cursorlog ru"), ["runs"]);
  assert.ok(bashComplete("cursorlog t").includes("text"));
  assert.deepEqual(bashComplete("cursorlog json --pr"), ["--pretty", "--progress"]);
  assert.deepEqual(bashComplete("cursorlog json --allow"), ["--allow-incomplete"]);
  assert.ok(bashComplete("cursorlog text -").includes("--verbose"));
  assert.ok(bashComplete("cursorlog json 2026").includes("2026-long.ndjson"));
});

test("bash completion: option values (--format, --tool, --status, --color, -o), shells, schema names, global options", () => {
  assert.deepEqual(bashComplete("cursorlog timeline --format "), ["csv", "tsv", "ndjson", "html"]);
  assert.deepEqual(bashComplete("cursorlog stats --format m"), ["markdown"]);
  assert.deepEqual(bashComplete("cursorlog runs --format "), ["table", "tsv", "csv", "ndjson"]);
  assert.deepEqual(bashComplete("cursorlog validate --format g"), ["github"]);
  assert.deepEqual(bashComplete("cursorlog filter --tool sh"), ["shell"]);
  assert.deepEqual(bashComplete("cursorlog filter --status fa"), ["failure"]);
  assert.deepEqual(bashComplete("cursorlog filter --type tool"), ["tool_call"]);
  assert.deepEqual(bashComplete("cursorlog text --color a"), ["auto", "always"]);
  assert.deepEqual(bashComplete("cursorlog --color n"), ["never"]);
  assert.deepEqual(bashComplete("cursorlog --color never te"), ["text"], "a global option's value is not the command");
  assert.deepEqual(bashComplete("cursorlog completion "), ["bash", "zsh", "fish"]);
  assert.deepEqual(bashComplete("cursorlog schema tool"), ["tool_call"]);
  assert.deepEqual(bashComplete("cursorlog help ti"), ["timeline"]);
  assert.ok(bashComplete("cursorlog json -o 2026").includes("2026-long.ndjson"), "-o takes a file");
  assert.deepEqual(bashComplete("cursorlog filter --where "), [], "free text: no file names offered");
});

test("fish completion: every command, each option with its values, files for the commands that read logs", async () => {
  const r = await runCli(["completion", "fish"]);
  assert.equal(r.code, 0);
  for (const cmd of program.commands) if (cmd.name() !== "man") assert.ok(r.stdout.includes(`-n __fish_use_subcommand -a ${cmd.name()} -d `), cmd.name());
  assert.ok(r.stdout.includes("complete -c cursorlog -n '__fish_seen_subcommand_from timeline' -l format -x -a 'csv tsv ndjson html' -d "));
  assert.ok(r.stdout.includes("complete -c cursorlog -n '__fish_seen_subcommand_from filter' -l tool -x -a 'shell read edit "));
  assert.ok(r.stdout.includes("complete -c cursorlog -n '__fish_seen_subcommand_from json' -s o -l output -r -F -d "));
  assert.ok(r.stdout.includes("complete -c cursorlog -n '__fish_seen_subcommand_from json' -F\n"));
  assert.ok(r.stdout.includes("complete -c cursorlog -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n"));
  const fish = spawnSync("fish", ["--no-execute"], { input: r.stdout, encoding: "utf8" });
  if (fish.error) return; // fish not installed: the structure above is what it reads
  assert.equal(fish.status, 0, fish.stderr);
});

test("zsh completion: a well-formed compdef script naming every command", async () => {
  const r = await runCli(["completion", "zsh"]);
  assert.equal(r.code, 0);
  assert.ok(r.stdout.startsWith("#compdef cursorlog\n"));
  for (const cmd of program.commands) if (cmd.name() !== "man") assert.ok(r.stdout.includes(`'${cmd.name()}:`), cmd.name());
  const zsh = spawnSync("zsh", ["-n"], { input: r.stdout, encoding: "utf8" });
  if (zsh.error) return; // zsh not installed: the bash test covers the generator
  assert.equal(zsh.status, 0, zsh.stderr);
});

test("completion with an unknown shell is a usage error", async () => {
  const r = await runCli(["completion", "tcsh"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "cursorlog: error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\nRun 'cursorlog completion --help' for usage.\n");
});
