// test-run: scaled
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, closeSync, existsSync, linkSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, truncateSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, test } from "node:test";
import { logCommands, runFed } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";

// --follow like tail -f / tail -F, with the built executable (npm run build first; make test does):
// a file truncated and written again, renamed and re-created, deleted; pipes; and the end of a run
// decided from the parsed events, whatever the bytes of its result line look like. Each test waits
// for what it checks (output, a message, the exit) with a bound, never a fixed time.
//
// Each case is a process of the built program (~0.2 CPU s). make test runs every case, but where
// a list of cases is run alike it runs them together (the endings: one run following every file,
// one after the other, as -f does; the pipes: several in one run) or a covering subset of a matrix
// (every command once, every kind of damage every way once); make stress (CURSORLOG_STRESS=1,
// test/helpers/scale.ts) runs each case on its own, as before.

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const FIXTURE = "test/fixtures/2026-long.ndjson";
const LOG = readFileSync(FIXTURE, "utf8");
const LINES = LOG.split("\n").slice(0, -1).map((l) => l + "\n"); // 51 lines, the last the result
const GOLDEN = readFileSync("test/golden/text-2026-long.stdout", "utf8");
/** text's output after the first 12 lines: the three calls completed by then. */
const FIRST_12 = "Listed directory\nRead file\nSearched file contents\n";
const BOUND_MS = 15_000;
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-follow-"));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  assert.equal(LINES.length, 51);
  assert.ok(LINES[50]!.startsWith('{"type":"result"'));
  assert.ok(GOLDEN.startsWith(FIRST_12));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function fresh(name: string): string {
  return join(tmp, `${++n}-${name}`);
}

interface Run {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves once `pred` holds for stdout and stderr; fails after the bound. */
  until(pred: (out: string, err: string) => boolean, what: string): Promise<void>;
  /** The exit status; fails (and kills) when the process has not ended within the bound. */
  exit(): Promise<number | null>;
}

function follow(args: string[], t: { after(fn: () => void): void }): Run {
  const child = spawn("node", [BIN, ...args], { env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => child.kill("SIGKILL"));
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  const check = (): void => waiters.forEach((w) => w());
  child.stdout!.setEncoding("utf8").on("data", (d: string) => ((out += d), check()));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => ((err += d), check()));
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => (check(), resolve(code))));
  return {
    child,
    out: () => out,
    err: () => err,
    until: (pred, what) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`waited ${BOUND_MS} ms for ${what}; exit ${child.exitCode}, stdout ${JSON.stringify(out.slice(-300))}, stderr ${JSON.stringify(err)}`));
        }, BOUND_MS);
        const w = (): void => {
          if (!pred(out, err)) return;
          clearTimeout(timer);
          waiters.delete(w);
          resolve();
        };
        waiters.add(w);
        w();
      }),
    exit: async () => {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<"bound">((resolve) => (timer = setTimeout(() => resolve("bound"), BOUND_MS)));
      const r = await Promise.race([closed, bound]);
      clearTimeout(timer);
      if (r === "bound") {
        child.kill("SIGKILL");
        assert.fail(`still following after ${BOUND_MS} ms; stdout ${JSON.stringify(out.slice(-300))}, stderr ${JSON.stringify(err)}`);
      }
      return r;
    },
  };
}

function warning(log: string, message: string): string {
  return `cursorlog: warning (at ${log}): ${message}\n`;
}

const TRUNCATED = "file truncated; reading it again from its start (line numbers start again at 1)";

// ---------------------------------------------------------------------------------------------
// Truncation (`: > f`, logrotate's copytruncate): tail's "file truncated", then the file's start.

test("-f: a file truncated in the middle of a line and written again, longer, is read from its start; the cut line is named", { timeout: 40_000 }, async (t) => {
  const log = fresh("copytruncate.ndjson");
  // 12 lines and the first 100 bytes of the 13th; after the truncation the writer goes on (copytruncate).
  writeFileSync(log, LINES.slice(0, 12).join("") + LINES[12]!.slice(0, 100));
  const r = follow(["text", "-f", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  truncateSync(log, 0);
  await r.until((_o, e) => e.includes("truncated"), "the truncation to be noticed");
  // Longer than what was read: read on from the old offset, this was a line cut in two (status 5).
  appendFileSync(log, LINES.slice(12).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), warning(log, `${TRUNCATED}; the incomplete event at the end of the old content (line 13) is dropped`));
});

test("-f: a file truncated and written again, shorter than what was read, is read from its start (it waited forever)", { timeout: 40_000 }, async (t) => {
  const log = fresh("shorter.ndjson");
  writeFileSync(log, LINES.slice(0, 46).join(""));
  const r = follow(["text", "--follow", log], t);
  await r.until((o) => o === GOLDEN, "every action (the 46 lines hold them all)");
  truncateSync(log, 0);
  await r.until((_o, e) => e.includes("truncated"), "the truncation to be noticed");
  appendFileSync(log, LINES.slice(46).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), warning(log, TRUNCATED));
});

test("-f: a file truncated and written again past what was read, in one step, is read from its start (tail misses this)", { timeout: 40_000 }, async (t) => {
  const log = fresh("rewritten.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = follow(["text", "-f", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  // copytruncate, and the writer goes on: the file is longer than what was read before cursorlog
  // looks again, so its size does not show the truncation; its first bytes do.
  const rest = LINES.slice(12).join("");
  assert.ok(rest.length > LINES.slice(0, 12).join("").length);
  writeFileSync(log, rest);
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), warning(log, TRUNCATED));
});

test("-f: a truncated gzip file written again is inflated from its start", { timeout: 40_000 }, async (t) => {
  const log = fresh("trunc.ndjson.gz");
  writeFileSync(log, gzipSync(LINES.slice(0, 12).join("")));
  const r = follow(["text", "-f", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  truncateSync(log, 0);
  await r.until((_o, e) => e.includes("truncated"), "the truncation to be noticed");
  appendFileSync(log, gzipSync(LINES.slice(12).join("")));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), warning(log, TRUNCATED));
});

// ---------------------------------------------------------------------------------------------
// Renamed, re-created, deleted: -F (--follow=name) follows the name; -f keeps its file.

test("-F: renamed and re-created (logrotate's create): the old file is read to its end, then the new one from its start", { timeout: 40_000 }, async (t) => {
  const log = fresh("rotated.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = follow(["text", "-F", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  // The name is given to a new file in one step (the old file stays as log.1), so the name is
  // never missing; the writer adds two lines to the old file just before.
  linkSync(log, `${log}.1`);
  appendFileSync(`${log}.1`, LINES.slice(12, 14).join(""));
  writeFileSync(`${log}.new`, LINES.slice(14).join(""));
  renameSync(`${log}.new`, log);
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), warning(log, "the file was replaced; following the new file from its start (line numbers start again at 1)"));
});

test("--follow=name is -F, --follow=descriptor is -f (tail's spellings); -f FILE stays a file", { timeout: 40_000 }, () => {
  // make test: tail's two spellings (-F and -f run in every other test here); make stress: all four.
  for (const opt of STRESS ? ["--follow=name", "--follow=descriptor", "-F", "-f"] : ["--follow=name", "--follow=descriptor"]) {
    const r = spawnSync("node", [BIN, "text", opt, FIXTURE], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
    assert.equal(r.status, 0, `${opt}: ${r.stderr}`);
    assert.equal(r.stdout, GOLDEN, opt);
    assert.equal(r.stderr, "", opt);
  }
  const bad = spawnSync("node", [BIN, "text", "--follow=inode", FIXTURE], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^cursorlog: error: unknown option '--follow=inode'/);
});

test("-f (by descriptor): after a rename it reads on what is written to the file it opened, and ignores the new name", { timeout: 40_000 }, async (t) => {
  const log = fresh("renamed.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = follow(["text", "-f", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  renameSync(log, `${log}.1`);
  writeFileSync(log, '{"type":"system","subtype":"init","session_id":"other"}\n');
  appendFileSync(`${log}.1`, LINES.slice(12).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), "");
});

test("-F: deleted and never re-created: says so, reads on what the writer still writes to it, ends at the run's result", { timeout: 40_000 }, async (t) => {
  const log = fresh("deleted.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const fd = openSync(log, "a");
  t.after(() => closeSync(fd));
  const r = follow(["text", "-F", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  unlinkSync(log);
  await r.until((_o, e) => e.includes("inaccessible"), "the message that the name is gone");
  assert.equal(r.child.exitCode, null, "still following");
  writeSync(fd, LINES.slice(12).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(
    r.err(),
    warning(log, "has become inaccessible: no such file or directory; reading on what is written to the file it was, and waiting for the name to come back"),
  );
});

test("-F: deleted, the wait is ended by an interrupt (130), what was complete is out", { timeout: 40_000 }, async (t) => {
  const log = fresh("deleted-int.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = follow(["text", "-F", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  unlinkSync(log);
  await r.until((_o, e) => e.includes("inaccessible"), "the message that the name is gone");
  r.child.kill("SIGINT");
  assert.equal(await r.exit(), 130);
  assert.equal(r.out(), FIRST_12);
});

test("-F: deleted, then created again: the new file is read from its start", { timeout: 40_000 }, async (t) => {
  const log = fresh("recreated.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = follow(["text", "-F", log], t);
  await r.until((o) => o === FIRST_12, "the first three actions");
  unlinkSync(log);
  await r.until((_o, e) => e.includes("inaccessible"), "the message that the name is gone");
  writeFileSync(log, LINES.slice(12).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(
    r.err(),
    warning(log, "has become inaccessible: no such file or directory; reading on what is written to the file it was, and waiting for the name to come back") +
      warning(log, "has appeared; following the new file from its start (line numbers start again at 1)"),
  );
});

test("-F: a name that does not exist yet is waited for; -f on it is an error (2)", { timeout: 40_000 }, async (t) => {
  const log = fresh("later.ndjson");
  const r = follow(["text", "-F", log], t);
  await r.until((_o, e) => e.includes("waiting"), "the message that the file is awaited");
  writeFileSync(log, LOG);
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN);
  assert.equal(r.err(), warning(log, "cannot open: no such file or directory; waiting for it to appear") + warning(log, "has appeared; following it"));
  const missing = spawnSync("node", [BIN, "text", "-f", fresh("never.ndjson")], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^cursorlog: error \(at .*never\.ndjson\): cannot read: no such file or directory\n$/);
});

test("text -j 2 -f: --jobs does not apply, the files are followed one after the other as they are written", { timeout: 40_000 }, async (t) => {
  const log = fresh("jobs.ndjson");
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = follow(["text", "-j", "2", "-f", log, FIXTURE], t);
  // With parallel jobs the first file's output waited for its end: nothing came while it grew.
  await r.until((o) => o === FIRST_12, "the first three actions of the file being written");
  appendFileSync(log, LINES.slice(12).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN + GOLDEN);
  assert.equal(r.err(), "");
});

// ---------------------------------------------------------------------------------------------
// Pipes: no position, no size. Read as streams, to their end.

test("-f on a FIFO, <(…), /dev/stdin (a pipe, a file) and gzip through a pipe: read as streams (it was ESPIPE)", { timeout: 60_000 }, () => {
  const fifo = fresh("fifo");
  const gz = fresh("log.gz");
  writeFileSync(gz, gzipSync(LOG));
  // make stress: each in a run of its own; make test: those that need no stdin of their own in one
  // run, each read in turn as -f does with several files (<(…), a FIFO, /dev/stdin on a file, gzip
  // through <(…)), and each pipe on stdin on its own.
  const cases: Array<[string, number]> = STRESS
    ? [
        [`node ${BIN} text -f <(cat ${FIXTURE})`, 1],
        [`cat ${FIXTURE} | node ${BIN} text -f /dev/stdin`, 1],
        [`node ${BIN} text -f /dev/stdin < ${FIXTURE}`, 1],
        [`mkfifo ${fifo}; (cat ${FIXTURE} > ${fifo} &); node ${BIN} text -f ${fifo}`, 1],
        [`cat ${gz} | node ${BIN} text -F /dev/stdin`, 1],
        [`node ${BIN} text -f <(cat ${gz})`, 1],
      ]
    : [
        [`mkfifo ${fifo}; (cat ${FIXTURE} > ${fifo} &); node ${BIN} text -f <(cat ${FIXTURE}) ${fifo} /dev/stdin <(cat ${gz}) < ${FIXTURE}`, 4],
        [`cat ${FIXTURE} | node ${BIN} text -f /dev/stdin`, 1],
        [`cat ${gz} | node ${BIN} text -F /dev/stdin`, 1],
      ];
  for (const [script, runs] of cases) {
    const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
    assert.equal(r.status, 0, `${script}: ${r.stderr}`);
    assert.equal(r.stdout, GOLDEN.repeat(runs), script);
    assert.equal(r.stderr, "", script);
  }
  // A pipe that ends without a result: the run ends with the pipe (4), it is not waited on.
  const cut = spawnSync("bash", ["--norc", "--noprofile", "-c", `node ${BIN} text -f <(head -n 12 ${FIXTURE})`], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
  assert.equal(cut.status, 4, cut.stderr);
  assert.equal(cut.stdout, FIRST_12);
});

// ---------------------------------------------------------------------------------------------
// The end of a run: the last event read is a result, and nothing after it is begun.

const RESULT = JSON.parse(LINES[50]!) as Record<string, unknown>;
const BODY = LINES.slice(0, 50).join("");
const { type: _type, ...rest } = RESULT;
const ENDINGS: Array<[string, string | Buffer]> = [
  ["a gzip file", gzipSync(LOG)],
  ["the result's keys in another order", BODY + JSON.stringify({ ...rest, type: "result" }) + "\n"],
  ["spaces in the result line", BODY + JSON.stringify(RESULT, null, 1).replace(/\n/g, " ") + "\n"],
  ["a pretty-printed result", BODY + JSON.stringify(RESULT, null, 2) + "\n"],
  ["blank lines after the result", LOG + "\n  \n\r\n"],
  ["no final newline", LOG.slice(0, -1)],
  ["no final newline, spaces after the result", LOG.slice(0, -1) + "  "],
  ["CRLF line ends", LOG.replace(/\n/g, "\r\n")],
  ["a gzip file of two members", Buffer.concat([gzipSync(LINES.slice(0, 30).join("")), gzipSync(LINES.slice(30).join(""))])],
];

// make stress: each ending in a run of its own; make test: one run that follows a file of each
// ending, one after the other (-f reads each to its run's result before the next): a file whose
// end is not taken for one holds the run until the bound (status null), and make stress names it.
for (const group of STRESS ? ENDINGS.map((e) => [e]) : [ENDINGS]) {
  const what = group.map(([w]) => w).join("; ");
  test(`-f ends at the run's result: ${what}`, { timeout: 30_000 }, () => {
    const logs = group.map(([, bytes]) => {
      const log = fresh("ending.ndjson");
      writeFileSync(log, bytes);
      return log;
    });
    const r = spawnSync("node", [BIN, "text", "-f", ...logs], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
    assert.equal(r.status, 0, `${what}: status ${r.status} (null: still following after ${BOUND_MS} ms), ${r.stderr}`);
    assert.equal(r.stdout, GOLDEN.repeat(group.length));
    assert.equal(r.stderr, "");
  });
}

// make test: every third command that follows (show, timeline, runs today: each of the others
// follows a damaged gzip file or pipe below); make stress: every command.
for (const c of logCommands().filter((c) => c.flags.has("--follow")).filter((_, i) => STRESS || i % 3 === 0)) {
  test(`${c.name} -f: a gzip file written in pieces, cut anywhere, ends at its result`, { timeout: 40_000 }, async (t) => {
    const log = fresh(`${c.name}.ndjson.gz`);
    const gz = gzipSync(LOG);
    const expected = await runFed([c.name, log], { files: { [log]: { bytes: gz } } });
    writeFileSync(log, gz.subarray(0, 1000));
    const r = follow([c.name, "-f", log], t);
    // A piece every 50 ms, as a writer would (the pace does not change what is expected).
    for (let at = 1000; at < gz.length; at += 1500) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      appendFileSync(log, gz.subarray(at, at + 1500));
    }
    assert.equal(await r.exit(), expected.code);
    assert.equal(r.out(), expected.stdout);
    assert.equal(r.err(), expected.stderr);
  });
}

const GZ = gzipSync(LOG);
/** A wrong CRC-32 in the trailer: zlib notices at the end of the member. */
const BAD_CRC = Buffer.concat([GZ.subarray(0, -8), Buffer.alloc(4), GZ.subarray(-4)]);
const DAMAGED: Array<[string, Buffer, boolean]> = [
  // [what, bytes, also as a file: a cut file is waited on, as tail -f does]
  ["trailing garbage (all that was decoded, then gzip's warning)", Buffer.concat([GZ, Buffer.from("appended text\n")]), true],
  ["a wrong CRC (all that was decoded, then corrupt gzip data)", BAD_CRC, true],
  ["a cut member through a pipe (all that was decoded, then truncated gzip data)", GZ.subarray(0, 1500), false],
];

/** The ways a damaged log is followed: as a file by -f, by -F, and through a pipe. */
type Way = "-f" | "-F" | "pipe";
const WAYS: Way[] = ["-f", "-F", "pipe"];
/** Every kind of damage with every way it applies to (a cut member only through a pipe: a cut file is waited on). */
const PAIRS = DAMAGED.flatMap((d, k) => WAYS.filter((w) => w === "pipe" || d[2]).map((w) => [k, w] as const));
const FOLLOWERS = logCommands().filter((c) => c.flags.has("--follow"));

// make test: the (kind, way) pairs dealt out to the commands in turn, so every pair is run and
// every command is (7 pairs, 7 commands today: one each); make stress (CURSORLOG_STRESS=1): every
// kind every way on every command (test/helpers/scale.ts).
function pairsFor(i: number): Array<readonly [number, Way]> {
  if (STRESS) return PAIRS;
  const n = Math.max(PAIRS.length, FOLLOWERS.length);
  return Array.from({ length: n }, (_, j) => j)
    .filter((j) => j % FOLLOWERS.length === i)
    .map((j) => PAIRS[j % PAIRS.length]!);
}

for (const [i, c] of FOLLOWERS.entries()) {
  const byKind = new Map<number, Way[]>();
  for (const [k, w] of pairsFor(i)) byKind.set(k, [...(byKind.get(k) ?? []), w]);
  const damaged = [...byKind].map(([k, ways]) => [...DAMAGED[k]!, ways] as const);
  test(`${c.name} -f on damaged gzip gives what it gives without -f: ${damaged.map(([w, , , ways]) => `${w.split(" (")[0]} (${ways.join(", ")})`).join(", ")}`, { timeout: 60_000 }, async () => {
    for (const [what, bytes, , ways] of damaged) {
      const log = fresh(`${c.name}-damaged.ndjson.gz`);
      writeFileSync(log, bytes);
      // trailing garbage was `corrupt gzip data` with nothing out; a wrong CRC lost the output of
      // the chunk it was found in.
      const asFile = ways.filter((w) => w !== "pipe");
      // Without -f: make stress runs the executable; make test the same command in-process on the
      // same file through the same reader (runFed: openFile), a process less.
      const expected = asFile.length === 0 && !STRESS ? undefined : STRESS ? spawnSync("node", [BIN, c.name, log], { env: ENV, encoding: "utf8", timeout: BOUND_MS }) : await runFed([c.name, log]).then((r) => ({ status: r.code, stdout: r.stdout, stderr: r.stderr }));
      if (expected) assert.match(expected.stderr, /trailing garbage ignored|corrupt gzip data|truncated gzip data/, what);
      for (const args of asFile.map((w) => [c.name, w, log])) {
        assert.ok(expected);
        const r = spawnSync("node", [BIN, ...args], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
        assert.equal(r.status, expected.status, `${what}: ${args.join(" ")}`);
        assert.equal(r.stdout, expected.stdout, `${what}: ${args.join(" ")}`);
        assert.equal(r.stderr, expected.stderr, `${what}: ${args.join(" ")}`);
      }
      if (!ways.includes("pipe")) continue;
      // Through a pipe, against the same pipe read without -f (the file's name is /dev/stdin in
      // both, so show's wrapping of the header that names it is the same too).
      const pipe = (follow: string) =>
        spawnSync("bash", ["--norc", "--noprofile", "-c", `cat ${log} | node ${BIN} ${c.name} ${follow} /dev/stdin`], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
      const piped = pipe("-f");
      // Without -f: make stress through the same pipe; make test in-process, the bytes as the
      // input named /dev/stdin (one read, as the pipe gives a file this small).
      const plain = STRESS ? pipe("") : await runFed([c.name, "/dev/stdin"], { files: { "/dev/stdin": { bytes } }, stdin: { bytes } }).then((r) => ({ status: r.code, stdout: r.stdout, stderr: r.stderr }));
      assert.match(plain.stderr, /trailing garbage ignored|corrupt gzip data|truncated gzip data/, `${what}: a pipe without -f`);
      assert.equal(piped.status, plain.status, `${what}: a pipe`);
      assert.equal(piped.stdout, plain.stdout, `${what}: a pipe`);
      assert.equal(piped.stderr, plain.stderr, `${what}: a pipe`);
    }
  });
}

test("-f does not end at a result while a line after it is begun, nor at a last line without newline that is no whole result", { timeout: 40_000 }, async (t) => {
  const log = fresh("not-yet.ndjson");
  // A run, then the first bytes of a second run (the same log again: a new session at its init).
  writeFileSync(log, LOG + LOG.slice(0, 20));
  const r = follow(["text", "-f", log], t);
  await r.until((o) => o === GOLDEN, "the first run");
  // Had it ended there, the second run would never be read.
  appendFileSync(log, LINES.slice(0, 50).join("").slice(20, -1)); // up to line 50, without its newline
  await r.until((o) => o === GOLDEN + GOLDEN, "the second run's actions");
  // Line 50 (no newline yet) is whole but no result; then a result cut in two. Had it ended at
  // either, the second run would have no result (status 4) or a cut line (status 5).
  appendFileSync(log, "\n" + LINES[50]!.slice(0, 60));
  appendFileSync(log, LINES[50]!.slice(60, -1));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), GOLDEN + GOLDEN);
  assert.equal(r.err(), "");
});

// ---------------------------------------------------------------------------------------------
// The other agents: a run ends at its own format's end (Dialect.runEndTypes). Claude Code and
// Gemini CLI end at `result` as cursor-agent does; Codex writes no result: `turn.completed` or
// `turn.failed` ends its run (a Codex log was followed forever).

const CODEX_COMMANDS = readFileSync("test/fixtures/codex/commands.ndjson");
const AGENT_LOGS: Array<[string, string | Buffer]> = [
  ["Claude Code", "test/fixtures/claude/tools.ndjson"],
  ["Codex", "test/fixtures/codex/commands.ndjson"],
  ["Codex, two processes appended", "test/fixtures/codex/resumed.ndjson"],
  ["Codex, turn.failed", "test/fixtures/codex/turn-failed.ndjson"],
  ["Codex, no final newline", CODEX_COMMANDS.subarray(0, -1)],
  ["Gemini CLI", "test/fixtures/gemini/batch.ndjson"],
];

// make test: one run following every log, one after the other; make stress: each on its own.
for (const group of STRESS ? AGENT_LOGS.map((e) => [e]) : [AGENT_LOGS]) {
  const what = group.map(([w]) => w).join("; ");
  test(`-f on a complete log of another agent ends by itself, with what it gives without -f: ${what}`, { timeout: 30_000 }, async () => {
    const logs = group.map(([, log]) => {
      if (typeof log === "string") return log;
      const copy = fresh("agent.ndjson");
      writeFileSync(copy, log);
      return copy;
    });
    // Without -f: in-process, on the same files through the same reader (runFed: openFile).
    const plain = await runFed(["text", ...logs]);
    // Action lines to compare (whichever: the Gemini CLI log, alone in make stress, has no shell call).
    assert.notEqual(plain.stdout, "", what);
    const r = spawnSync("node", [BIN, "text", "-f", ...logs], { env: ENV, encoding: "utf8", timeout: BOUND_MS });
    assert.equal(r.status, plain.code, `${what}: status ${r.status} (null: still following after ${BOUND_MS} ms), ${r.stderr}`);
    assert.equal(r.stdout, plain.stdout, what);
    assert.equal(r.stderr, plain.stderr, what);
  });
}

test("-f waits on a Codex log cut off (no turn.completed), and a cursor-agent log does not end at a line of type turn.completed", { timeout: 40_000 }, async (t) => {
  const codex = fresh("interrupted.ndjson");
  const cut = readFileSync("test/fixtures/codex/interrupted.ndjson", "utf8");
  writeFileSync(codex, cut);
  const rest =
    '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc \'npm run build\'","aggregated_output":"built\\n","exit_code":0,"status":"completed"}}\n' +
    '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Built."}}\n' +
    '{"type":"turn.completed","usage":{"input_tokens":9000,"cached_input_tokens":8000,"cache_write_input_tokens":0,"output_tokens":120,"reasoning_output_tokens":20}}\n';
  const cursor = fresh("turn-completed.ndjson");
  const cursorStart = LINES.slice(0, 12).join("") + '{"type":"turn.completed"}\n';
  writeFileSync(cursor, cursorStart);
  // filter writes each line as it is read: what is out tells how far it has read.
  const r = follow(["filter", "-f", codex, cursor], t);
  await r.until((o) => o === cut, "the Codex log's four lines");
  assert.equal(r.child.exitCode, null, "still following the Codex log: no turn.completed yet");
  appendFileSync(codex, rest);
  await r.until((o) => o === cut + rest + cursorStart, "the Codex run's end, then the cursor-agent log's first lines");
  // Had it ended at the turn.completed line, the run would have no result (status 4) and the
  // lines written next would not be out.
  assert.equal(r.child.exitCode, null, "still following the cursor-agent log: its run ends at its result");
  appendFileSync(cursor, LINES.slice(12).join(""));
  assert.equal(await r.exit(), 0);
  assert.equal(r.out(), cut + rest + cursorStart + LINES.slice(12).join(""));
  assert.equal(r.err(), "");
});
