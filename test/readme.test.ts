import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { tempDir } from "./helpers/temp-dir.js";

// Every README block that starts with `$ ` is a command and the output it prints. A last line `…`
// means the output goes on (the lines shown must be its beginning).
const blocks = [...readFileSync("README.md", "utf8").matchAll(/```[a-z]*\n(\$ [^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
  command: m[1]!.slice(2),
  expected: m[2]!,
}));

const bin = tempDir("cursorlog-readme-");
writeFileSync(join(bin, "cursorlog"), `#!/bin/sh\nexec node ${JSON.stringify(resolve("bin/cursorlog.js"))} "$@"\n`);
chmodSync(join(bin, "cursorlog"), 0o755);
const hasJq = spawnSync("jq", ["--version"]).status === 0;

test("the README has $ examples", () => assert.ok(blocks.length >= 2, `${blocks.length} found`));

for (const b of blocks) {
  test(`README example: $ ${b.command}`, (t) => {
    if (/\bjq\b/.test(b.command) && !hasJq) return t.skip("jq is not installed");
    const r = spawnSync("bash", ["--norc", "--noprofile", "-o", "pipefail", "-c", b.command], {
      encoding: "utf8",
      env: { PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1", TZ: "UTC" },
    });
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
    const lines = b.expected.split("\n");
    if (lines.at(-2) === "…") assert.ok(r.stdout.startsWith(lines.slice(0, -2).join("\n") + "\n"), r.stdout);
    else assert.equal(r.stdout, b.expected);
  });
}
