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
//
// Each case is a process of the built program (~0.2 CPU s). make test runs a covering subset of
// each matrix (every command line, every launch and every kind of fault at least once, chosen by
// position, never at random); make stress (CURSORLOG_STRESS=1, test/helpers/scale.ts) every pair.
const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const LOG = "test/fixtures/2026-long.ndjson";
const dir = mkdtempSync(join(tmpdir(), "cursorlog-output-faults-"));
const manyBad = join(dir, "many-bad.ndjson");

/**
 * Lines that are not JSON: with --lenient, one message each on stderr (~110 bytes a message).
 * Not made smaller in make test: the run ends quietly (0) only if the broken pipe reaches it while
 * it still has lines to say, and a run that ends first gives its own status (5). On the 2-vCPU
 * test machine 4,000 lines gave 5 in 2 runs of 24 and 10,000 in 1 of 24; 20,000 gave 0 in 40 of 40.
 */
const BAD_LINES = 20_000;

before(() => {
  assert.ok(existsSync("dist/bundle/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  writeFileSync(manyBad, Array.from({ length: BAD_LINES }, (_, i) => `{not json ${i}\n`).join(""));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const sh = (script: string) => spawnSync("bash", ["--norc", "--noprofile", "-c", script], { env: ENV, encoding: "utf8", timeout: 60_000 });

// filter --type writes its kept lines with writev straight from the read buffers (DirectOut): that path too.
const FULL_ARGVS = [["json", LOG], ["text", "-v", LOG], ["filter", LOG], ["filter", "--type", "tool_call", LOG], ["timeline", LOG], ["json", "--jobs", "2", LOG, LOG], ["--help"]];
// make test: every other command line into /dev/full (no space: ENOSPC), the others (and the rest
// of CLOSED_ARGVS) into a stdout the shell closed (EBADF) below: each write path meets a failing
// write once. make stress: every one into both.
const FULL_RUN = STRESS ? FULL_ARGVS : FULL_ARGVS.filter((_, i) => i % 2 === 0);

test("stdout to a full disk (/dev/full): one message, status 2, no stack trace", { skip: !existsSync("/dev/full") && "no /dev/full" }, () => {
  for (const argv of FULL_RUN) {
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

// make test: through the first launch (the executable, as /bin/sh finds it) the command lines
// /dev/full above did not run, and through each other shell one of a run and --help in turn;
// make stress: every one through each (CURSORLOG_STRESS=1, test/helpers/scale.ts).
const same = (a: string[], b: string[]) => a.join("\0") === b.join("\0");
const argvsFor = (k: number): string[][] =>
  STRESS ? CLOSED_ARGVS : k === 0 ? CLOSED_ARGVS.filter((a) => !FULL_RUN.some((f) => same(f, a))) : [[["json", LOG], ["--help"]][k % 2]!];

test("stdout closed by the shell (>&-): `cannot write output: bad file descriptor`, status 2, nothing written", () => {
  for (const [k, launch] of LAUNCHES.entries()) {
    for (const argv of argvsFor(k)) {
      const r = shWith(">&-", [...launch, ...argv]);
      assert.deepEqual([r.status, r.stderr, r.stdout], [2, "cursorlog: error: cannot write output: bad file descriptor\n", ""], `${launch.join(" ")} ${argv.join(" ")} >&-`);
    }
  }
});

test("stdout and stderr both closed (>&- 2>&-): status 2, and nothing anywhere", () => {
  const argvs = [["json", LOG], ["--help"]];
  for (const [k, launch] of LAUNCHES.entries()) {
    // make test: a run and --help in turn, one through each launch; make stress: both through each.
    for (const argv of STRESS ? argvs : [argvs[k % 2]!]) {
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
  const argvs = [["json", LOG], ["validate", LOG], ["--version"]];
  const ways: Array<[string, (launch: string[], argv: string[]) => { status: number | null; stderr: string }]> = [
    ["> /dev/null", (launch, argv) => shWith(">/dev/null", [...launch, ...argv])],
    ["1<>/dev/null", (launch, argv) => shWith("1<>/dev/null", [...launch, ...argv])],
    ["stdio ignore", (launch, argv) => spawnSync(launch[0]!, [...launch.slice(1), ...argv], { env: ENV, encoding: "utf8", stdio: ["pipe", "ignore", "pipe"] })],
    // Python's subprocess.DEVNULL: os.open(os.devnull, os.O_RDWR) handed over as fd 1.
    [
      "DEVNULL",
      (launch, argv) => {
        const devnull = openSync("/dev/null", "r+");
        try {
          return spawnSync(launch[0]!, [...launch.slice(1), ...argv], { env: ENV, encoding: "utf8", stdio: ["ignore", devnull, "pipe"] });
        } finally {
          closeSync(devnull);
        }
      },
    ],
  ];
  for (const [k, launch] of [node, ...LAUNCHES].entries()) {
    // make test: through node and through the executable every way, each with one of the command
    // lines in turn (so each of the two runs every way and every line); through each other shell
    // half the ways with a run (dash the first two, bash the last two); make stress: every line
    // every way through each.
    const mine = STRESS ? ways.flatMap((w) => argvs.map((a) => [w, a] as const)) : k < 2 ? ways.map((w, m) => [w, argvs[(k + m) % argvs.length]!] as const) : ways.filter((_, m) => Math.floor(m / 2) === k % 2).map((w) => [w, argvs[0]!] as const);
    for (const [[how, runIt], argv] of mine) {
      const r = runIt(launch, argv);
      assert.deepEqual([r.status, r.stderr], [0, ""], `${how}: ${launch.join(" ")} ${argv.join(" ")}`);
    }
  }
});

test("standard input that is a directory (< /): an error, status 2", () => {
  // make test: json and stats (the one command no other test here runs); make stress: each.
  for (const cmd of STRESS ? ["json", "text", "filter", "stats", "timeline"] : ["json", "stats"]) {
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
