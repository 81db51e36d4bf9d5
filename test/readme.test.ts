// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";
import { tempDir } from "./helpers/temp-dir.js";

// Every README block that starts with `$ ` is a command and the output it prints. A last line `…`
// means the output goes on (the lines shown must be its beginning).
//
// make stress (CURSORLOG_STRESS=1, test/helpers/scale.ts) runs each command through bash with the
// built program as `cursorlog`. make test takes cursorlog's part in-process (the source the bundle
// is built from; a process of the built program is ~0.2 CPU s, and test/examples.test.ts runs
// README's commands through it): bash runs the command once with a `cursorlog` that notes its
// arguments (with the shell's quoting and expansions done), those arguments run in-process, and
// bash runs the command again with a `cursorlog` that prints what that run printed and exits with
// its status, so the rest of the pipeline (jq, tail, head) works on the same output.
const blocks = [...readFileSync("README.md", "utf8").matchAll(/```[a-z]*\n(\$ [^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
  command: m[1]!.slice(2),
  expected: m[2]!,
}));

const dir = tempDir("cursorlog-readme-");
const bin = join(dir, "bin");
const noting = join(dir, "noting");
const replaying = join(dir, "replaying");
for (const [d, script] of [
  [bin, `#!/bin/sh\nexec node ${JSON.stringify(resolve("bin/cursorlog.js"))} "$@"\n`],
  // Each argument followed by NUL.
  [noting, `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done >> "$CURSORLOG_ARGV"\n`],
  [replaying, `#!/bin/sh\ncat "$CURSORLOG_STDOUT"\nexit "$(cat "$CURSORLOG_STATUS")"\n`],
] as const) {
  spawnSync("mkdir", ["-p", d]);
  writeFileSync(join(d, "cursorlog"), script);
  chmodSync(join(d, "cursorlog"), 0o755);
}
const hasJq = spawnSync("jq", ["--version"]).status === 0;

const bash = (command: string, path: string, env: Record<string, string> = {}) =>
  spawnSync("bash", ["--norc", "--noprofile", "-o", "pipefail", "-c", command], {
    encoding: "utf8",
    env: { PATH: `${path}:${process.env.PATH}`, NO_COLOR: "1", TZ: "UTC", ...env },
  });

/** The command's stdout, stderr and status, cursorlog's part in-process (see above). */
async function inProcess(command: string): Promise<{ stdout: string; stderr: string; status: number | null }> {
  const argvFile = join(dir, "argv");
  writeFileSync(argvFile, "");
  bash(command, noting, { CURSORLOG_ARGV: argvFile });
  const argv = readFileSync(argvFile, "utf8").split("\0").slice(0, -1);
  assert.ok(argv.length > 0, `${command}: cursorlog was not run`);
  const r = await runCli(argv, { env: { TZ: "UTC", NO_COLOR: "1" } });
  assert.equal(r.stderr, "", `cursorlog ${argv.join(" ")}`);
  writeFileSync(join(dir, "stdout"), r.stdout);
  writeFileSync(join(dir, "status"), String(r.code));
  return bash(command, replaying, { CURSORLOG_STDOUT: join(dir, "stdout"), CURSORLOG_STATUS: join(dir, "status") });
}

test("the README has $ examples", () => assert.ok(blocks.length >= 2, `${blocks.length} found`));

test("make test's in-process form gives what the built program gives: the arguments as the shell gives them, the output and status as cursorlog gave them", async () => {
  const command = `cursorlog filter -c -e --where 'result ~ "a b"' examples/session.ndjson | tr -d '\\n'; echo " $?"`;
  const r = await inProcess(command);
  assert.deepEqual(readFileSync(join(dir, "argv"), "utf8").split("\0").slice(0, -1), ["filter", "-c", "-e", "--where", 'result ~ "a b"', "examples/session.ndjson"]);
  const real = bash(command, bin);
  assert.deepEqual([r.stdout, r.stderr, r.status], [real.stdout, real.stderr, real.status]);
  assert.equal(real.stdout, "0 1\n", "a status that is not 0 comes through");
});

for (const b of blocks) {
  test(`README example: $ ${b.command}`, async (t) => {
    if (/\bjq\b/.test(b.command) && !hasJq) return t.skip("jq is not installed");
    const r = STRESS ? bash(b.command, bin) : await inProcess(b.command);
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
    const lines = b.expected.split("\n");
    if (lines.at(-2) === "…") assert.ok(r.stdout.startsWith(lines.slice(0, -2).join("\n") + "\n"), r.stdout);
    else assert.equal(r.stdout, b.expected);
  });
}
