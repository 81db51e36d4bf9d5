import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

// Output that cannot be written, and standard streams that are not what they should be: the real
// executable (bin/ with its bundle: `npm run build` first), with a pinned environment.
const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const LOG = "test/fixtures/2026-long.ndjson";
const dir = mkdtempSync(join(tmpdir(), "cursorlog-output-faults-"));
const manyBad = join(dir, "many-bad.ndjson");

before(() => {
  assert.ok(existsSync("dist/bundle/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  // 20,000 lines that are not JSON: with --lenient, one message each on stderr.
  writeFileSync(manyBad, Array.from({ length: 20_000 }, (_, i) => `{not json ${i}\n`).join(""));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const sh = (script: string) => spawnSync("bash", ["--norc", "--noprofile", "-c", script], { env: ENV, encoding: "utf8", timeout: 60_000 });

test("stdout to a full disk (/dev/full): one message, status 2, no stack trace", { skip: !existsSync("/dev/full") && "no /dev/full" }, () => {
  for (const argv of [["json", LOG], ["text", "-v", LOG], ["filter", LOG], ["timeline", LOG], ["json", "--jobs", "2", LOG, LOG], ["--help"]]) {
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync("node", [BIN, ...argv], { env: ENV, encoding: "utf8", stdio: ["ignore", full, "pipe"] });
      assert.deepEqual([r.status, r.stderr], [2, "cursorlog: error: cannot write output: no space left on device\n"], argv.join(" "));
    } finally {
      closeSync(full);
    }
  }
});

test("stderr's reader gone (2>&1 | head -1): ends quietly like a closed stdout pipe", () => {
  for (const argv of [`json --lenient ${manyBad}`, `text --lenient ${manyBad}`, `validate ${manyBad}`]) {
    const r = sh(`node ${BIN} ${argv} 2>&1 | head -n1; echo "status=\${PIPESTATUS[0]}"`);
    const lines = r.stdout.split("\n");
    assert.match(lines[0]!, /many-bad\.ndjson:1\b/, argv);
    assert.equal(lines.slice(1).join("\n"), "status=0\n", argv);
    assert.equal(r.stderr, "", argv);
  }
});

test("stdout that a parent discards with /dev/null opened read-write (Python's DEVNULL, Node's stdio ignore): status 0, like > /dev/null", () => {
  // What Node makes of a stdout the shell closed (>&-) looks the same from inside, so neither is
  // refused (README LIMITATIONS).
  for (const argv of [["json", LOG], ["validate", LOG], ["--version"]]) {
    const discarded = sh(`node ${BIN} ${argv.join(" ")} >/dev/null`);
    assert.deepEqual([discarded.status, discarded.stderr], [0, ""], `> /dev/null: ${argv.join(" ")}`);
    const ignored = spawnSync("node", [BIN, ...argv], { env: ENV, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
    assert.deepEqual([ignored.status, ignored.stderr], [0, ""], `stdio ignore: ${argv.join(" ")}`);
    const rw = sh(`node ${BIN} ${argv.join(" ")} 1<>/dev/null`);
    assert.deepEqual([rw.status, rw.stderr], [0, ""], `1<>/dev/null: ${argv.join(" ")}`);
  }
});

test("standard input that is a directory (< /): an error, status 2", () => {
  for (const cmd of ["json", "text", "filter", "stats", "timeline"]) {
    const r = sh(`node ${BIN} ${cmd} < /`);
    assert.equal(r.stderr, "cursorlog: error (at <stdin>): cannot read: is a directory\n", cmd);
    assert.equal(r.status, 2, cmd);
  }
  const v = sh(`node ${BIN} validate < /`);
  assert.equal(v.status, 2);
  assert.match(v.stderr, /^cursorlog: error \(at <stdin>\): cannot read: is a directory\n/);
  // A directory on stdin is not read when files are named.
  const named = sh(`node ${BIN} json ${LOG} < /`);
  assert.deepEqual([named.status, named.stdout], [0, readFileSync("test/golden/json-2026-long.stdout", "utf8")]);
});
