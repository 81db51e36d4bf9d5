// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { STRESS } from "./helpers/scale.js";

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
  // filter --type writes its kept lines with writev straight from the read buffers (DirectOut): that path too.
  for (const argv of [["json", LOG], ["text", "-v", LOG], ["filter", LOG], ["filter", "--type", "tool_call", LOG], ["timeline", LOG], ["json", "--jobs", "2", LOG, LOG], ["--help"]]) {
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

// A standard output closed by the shell (`>&-`): Node reopens fd 1 on /dev/null read-write before
// any JavaScript runs, so only the executable's sh line (bin/cursorlog.js) can see it. Run as
// users run it: the executable itself, found by /bin/sh, and under each of dash (Debian's /bin/sh),
// bash in POSIX mode (macOS's) and busybox sh (Alpine's) that is installed.
const EXE = resolve(BIN);
const hasShell = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`], { env: ENV }).status === 0;
const LAUNCHES = [[EXE], ...(hasShell("dash") ? [["dash", EXE]] : []), ...(hasShell("bash") ? [["bash", "--posix", EXE]] : []), ...(hasShell("busybox") ? [["busybox", "sh", EXE]] : [])];
/** `COMMAND... REDIRECTIONS` through /bin/sh, the arguments passed as "$@" (never re-split). */
const shWith = (redirections: string, argv: string[]) =>
  spawnSync("/bin/sh", ["-c", `exec "$@" ${redirections}`, "sh", ...argv], { env: ENV, encoding: "utf8", timeout: 60_000 });
const CLOSED_ARGVS = [["json", LOG], ["text", "-v", LOG], ["filter", LOG], ["filter", "--type", "tool_call", LOG], ["validate", LOG], ["timeline", LOG], ["json", "--jobs", "2", LOG, LOG], ["--help"], ["--version"]];

// make test: every command line through the first launch (the executable, as /bin/sh finds it),
// and two of them (a run, --help) through each other shell; make stress: every one through each
// (CURSORLOG_STRESS=1, test/helpers/scale.ts).
const argvsFor = (launch: string[], argvs: string[][], few: string[][]) => (STRESS || launch === LAUNCHES[0] ? argvs : few);

test("stdout closed by the shell (>&-): `cannot write output: bad file descriptor`, status 2, nothing written", () => {
  for (const launch of LAUNCHES) {
    for (const argv of argvsFor(launch, CLOSED_ARGVS, [["json", LOG], ["--help"]])) {
      const r = shWith(">&-", [...launch, ...argv]);
      assert.deepEqual([r.status, r.stderr, r.stdout], [2, "cursorlog: error: cannot write output: bad file descriptor\n", ""], `${launch.join(" ")} ${argv.join(" ")} >&-`);
    }
  }
});

test("stdout and stderr both closed (>&- 2>&-): status 2, and nothing anywhere", () => {
  for (const launch of LAUNCHES) {
    for (const argv of [["json", LOG], ["--help"]]) {
      const r = shWith(">&- 2>&-", [...launch, ...argv]);
      assert.deepEqual([r.status, r.stderr, r.stdout], [2, "", ""], `${launch.join(" ")} ${argv.join(" ")} >&- 2>&-`);
    }
  }
});

test("stdout closed but not needed (-o FILE >&-): the run is not refused", () => {
  const out = join(dir, "closed-stdout.json");
  for (const launch of LAUNCHES) {
    rmSync(out, { force: true });
    const r = shWith(">&-", [...launch, "json", "-o", out, LOG]);
    assert.deepEqual([r.status, r.stderr], [0, ""], launch.join(" "));
    assert.equal(readFileSync(out, "utf8"), readFileSync("test/golden/json-2026-long.stdout", "utf8"));
  }
});

test("stdout that a parent discards with /dev/null opened read-write (Python's DEVNULL, Node's stdio ignore): status 0, like > /dev/null", () => {
  // From inside Node these look like a stdout the shell closed (>&-), which only the executable's
  // sh line tells apart: through it and through `node bin/cursorlog.js`, none of them is refused.
  const node = ["node", BIN];
  for (const launch of [node, ...LAUNCHES]) {
    // make test: the three through node and through the executable, one through each other shell.
    for (const argv of STRESS || launch === node || launch === LAUNCHES[0] ? [["json", LOG], ["validate", LOG], ["--version"]] : [["json", LOG]]) {
      const what = `${launch.join(" ")} ${argv.join(" ")}`;
      const discarded = shWith(">/dev/null", [...launch, ...argv]);
      assert.deepEqual([discarded.status, discarded.stderr], [0, ""], `> /dev/null: ${what}`);
      const rw = shWith("1<>/dev/null", [...launch, ...argv]);
      assert.deepEqual([rw.status, rw.stderr], [0, ""], `1<>/dev/null: ${what}`);
      const ignored = spawnSync(launch[0]!, [...launch.slice(1), ...argv], { env: ENV, encoding: "utf8", stdio: ["pipe", "ignore", "pipe"] });
      assert.deepEqual([ignored.status, ignored.stderr], [0, ""], `stdio ignore: ${what}`);
      // Python's subprocess.DEVNULL: os.open(os.devnull, os.O_RDWR) handed over as fd 1.
      const devnull = openSync("/dev/null", "r+");
      try {
        const python = spawnSync(launch[0]!, [...launch.slice(1), ...argv], { env: ENV, encoding: "utf8", stdio: ["ignore", devnull, "pipe"] });
        assert.deepEqual([python.status, python.stderr], [0, ""], `DEVNULL: ${what}`);
      } finally {
        closeSync(devnull);
      }
    }
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
