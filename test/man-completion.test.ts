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
  assert.equal((JSON.parse(readFileSync("package.json", "utf8")) as { man?: string }).man, "./man/cursorlog.1");
});

test("the man page names every command and every option of each", () => {
  const man = readFileSync("man/cursorlog.1", "utf8").replace(/\\-/g, "-");
  for (const cmd of program.commands) {
    if (cmd.name() === "help" || cmd.name() === "man") continue;
    assert.ok(man.includes(`.SS "cursorlog ${cmd.name()}`), `command ${cmd.name()}`);
    for (const o of cmd.options) assert.ok(man.includes(o.flags), `${cmd.name()} ${o.flags}`);
  }
});

function bashComplete(line: string): string[] {
  const words = line.split(" ");
  const script = `${(spawnSync("node", ["--import", "tsx", "-e", 'import("./src/cli/main.ts").then(async (m) => { const { PassThrough } = await import("node:stream"); const out = new PassThrough(); out.pipe(process.stdout); await m.main(["completion","bash"], { stdin: new PassThrough(), stdout: out, stderr: process.stderr, env: {}, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false }); out.end(); })'], { encoding: "utf8" }).stdout)}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}
_cursorlog; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script], { encoding: "utf8", cwd: "test/fixtures" });
  assert.equal(r.stderr, "");
  return r.stdout.split("\n").filter(Boolean);
}

test("bash completion: commands, then the chosen command's options, then files", () => {
  assert.deepEqual(bashComplete("cursorlog ti"), ["timeline"]);
  assert.ok(bashComplete("cursorlog t").includes("text"));
  assert.deepEqual(bashComplete("cursorlog json --pr"), ["--pretty", "--progress"]);
  assert.deepEqual(bashComplete("cursorlog json --allow"), ["--allow-incomplete"]);
  assert.ok(bashComplete("cursorlog text -").includes("--verbose"));
  assert.ok(bashComplete("cursorlog json 2026").includes("2026-long.ndjson"));
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
  const r = await runCli(["completion", "fish"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "cursorlog: error: command-argument value 'fish' is invalid for argument 'shell'. Allowed choices are bash, zsh.\nRun 'cursorlog completion --help' for usage.\n");
});
