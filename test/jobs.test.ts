// test-run: scaled
// test-process: own  (it starts --jobs workers early, as the CLI does: process-wide state)
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, test } from "node:test";
import { jobsAsked, startEarly, takeEarly } from "../src/jobs/early.js";
import { runPool, tasksOf } from "../src/jobs/pool.js";
import { runJobFile } from "../src/jobs/run-file.js";
import type { StageSpec } from "../src/jobs/stages.js";
import { runCli, type CliResult } from "./helpers/run-cli.js";
import { scaled, STRESS } from "./helpers/scale.js";

const FILES = [
  "test/fixtures/2026-long.ndjson",
  "test/fixtures/crash-no-result.ndjson",
  "test/fixtures/does-not-exist.ndjson",
  "test/fixtures/two-sessions.ndjson",
  "test/fixtures/2026-long.ndjson.gz",
  "test/fixtures/parallel-out-of-order.ndjson",
];
const CPUS = availableParallelism();
const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const scratch = mkdtempSync(join(tmpdir(), "cursorlog-jobs-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * What a run of the executable without --jobs gives (status, stdout, stderr): in make test the
 * same command line in-process (the source the bundle is built from: the goldens hold them to the
 * same output), one process less each; in make stress the executable itself (test/helpers/scale.ts).
 */
async function sequential(argv: string[]): Promise<[number | null, string, string]> {
  if (STRESS) {
    const r = spawnSync("node", [BIN, ...argv], { env: ENV, encoding: "utf8", timeout: 15_000 });
    return [r.status, r.stdout, r.stderr];
  }
  const r = await runCli(argv);
  return [r.code, r.stdout, r.stderr];
}

/** The note a run gets when --jobs asks for more threads than the machine has (checked on its own below). */
const withoutNote = (r: CliResult): CliResult => ({ ...r, stderr: r.stderr.replace(/^cursorlog: note: --jobs .*\n/m, "") });

/** Every command that takes --jobs, with the options that change what is decided over all files. */
const COMMANDS = [
  ["json"],
  ["json", "--allow-incomplete"],
  ["json", "--pretty"],
  ["text", "-v"],
  ["text", "--final", "--allow-incomplete"],
  ["filter"],
  ["filter", "--type", "tool_call", "--exclude-type", "thinking"],
  ["filter", "--tool", "shell", "--pair"],
  ["filter", "--where", "tool_call.*.args.command ~ (?i)NPM"],
  ["filter", "--count", "--type", "result"],
  ["filter", "-c", "-e", "--type", "no-such-type"],
  ["filter", "-e", "--type", "no-such-type"],
  ["filter", "-e", "--type", "result"],
  ["filter", "--since", "2026-01-01T00:00:00Z"],
  ["timeline"],
  ["timeline", "--no-header"],
  ["timeline", "--format", "tsv", "--columns", "seq,kind,status,file"],
  ["timeline", "--format", "ndjson", "--allow-incomplete"],
  ["runs"],
  ["runs", "-e", "--format", "ndjson", "--where", "outcome != finished"],
  ["export"],
  ["export", "--allow-incomplete", "--include-content"],
];

// make test: each command line with --jobs 2 or 3 in turn (3 is 2 on a 2-CPU machine, the cap);
// make stress: with both (CURSORLOG_STRESS=1, test/helpers/scale.ts).
for (const [i, argv] of COMMANDS.entries()) {
  const jobs = STRESS ? ["2", "3"] : [String(2 + (i % 2))];
  test(`--jobs ${jobs.join(" and ")} give${jobs.length === 1 ? "s" : ""} byte-identical output, diagnostics and status to --jobs 1: ${argv.join(" ")}`, async () => {
    const one = await runCli([...argv, "--jobs", "1", ...FILES]);
    assert.match(one.stderr, /does-not-exist/);
    for (const n of jobs) assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", n, ...FILES])), one, `--jobs ${n}`);
  });
}

test("--jobs: a malformed line ends the run where --jobs 1 ends it (no later file is written); --lenient goes on", async () => {
  const files = ["test/fixtures/two-sessions.ndjson", "test/fixtures/validate/bad-json.ndjson", "test/fixtures/2026-long.ndjson"];
  for (const argv of [["json"], ["text"], ["filter", "--count"], ["timeline"], ["json", "--lenient"], ["filter", "-c", "--lenient"]]) {
    const one = await runCli([...argv, "--jobs", "1", ...files]);
    assert.equal(one.code, 5, argv.join(" "));
    assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", "2", ...files])), one, argv.join(" "));
  }
});

test("--jobs: directories are expanded, and one that gives no log is reported first, as with --jobs 1", async () => {
  const empty = mkdtempSync(join(scratch, "empty-"));
  const files = ["test/fixtures/validate/logs", empty, ...FILES];
  for (const [i, argv] of [["json"], ["text", "-v"], ["timeline"]].entries()) {
    const one = await runCli([...argv, "--jobs", "1", ...files]);
    assert.equal(one.code, 2);
    assert.ok(one.stderr.startsWith(`cursorlog: error (at ${empty}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory\n`), one.stderr);
    // make test: --jobs 2 or 3 in turn, as above; make stress: both.
    for (const n of STRESS ? ["2", "3"] : [String(2 + (i % 2))]) assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", n, ...files])), one, `${argv.join(" ")} --jobs ${n}`);
  }
});

test(`--jobs above the machine's ${CPUS} CPUs: capped, with a note on stderr; at or below it, no note`, async () => {
  const files = Array.from({ length: CPUS + 2 }, () => "test/fixtures/two-sessions.ndjson");
  const one = await runCli(["json", ...files]);
  const capped = await runCli(["json", "--jobs", String(CPUS + 1), ...files]);
  assert.deepEqual(capped, {
    ...one,
    stderr: `cursorlog: note: --jobs ${CPUS + 1}: this machine runs ${CPUS} threads at once; using ${CPUS}\n${one.stderr}`,
  });
  const huge = await runCli(["json", "--jobs", "400", ...files]);
  assert.equal(huge.stderr, `cursorlog: note: --jobs 400: this machine runs ${CPUS} threads at once; using ${CPUS}\n${one.stderr}`);
  assert.deepEqual(await runCli(["json", "--jobs", String(CPUS), ...files]), one);
  // Fewer files than CPUs: no more threads than files are started, and nothing to say.
  assert.deepEqual(await runCli(["json", "--jobs", "400", files[0]!]), await runCli(["json", files[0]!]));
});

// (With -f/-F, --jobs does not apply: test/follow.test.ts.)
test("--jobs with timeline --format html or export --format chrome-trace: a usage error (status 2)", async () => {
  const h = await runCli(["timeline", "--format", "html", "--jobs", "2", ...FILES]);
  assert.deepEqual([h.code, h.stdout], [2, ""]);
  assert.match(h.stderr, /^cursorlog: error: --jobs cannot be used with --format html\n/);
  const c = await runCli(["export", "--format", "chrome-trace", "--jobs", "2", ...FILES]);
  assert.deepEqual([c.code, c.stdout], [2, ""]);
  assert.match(c.stderr, /^cursorlog: error: --jobs cannot be used with --format chrome-trace\n/);
  // Those without per-file output do not take it at all.
  for (const cmd of ["stats", "validate"]) assert.equal((await runCli([cmd, "--jobs", "2", ...FILES])).code, 2, cmd);
});

// Files (test/helpers/scale.ts): 20 in make test, 60 in make stress. tasksOf cuts any number of
// equal files into about 8 tasks a thread, so 20 files are ~16 tasks on 2 threads, as 60 are.
const MANY_FILES = scaled(20, 60);

test(`--jobs 2 over ${MANY_FILES} files: every file's output exactly once, in order`, async () => {
  const dir = join(scratch, "sixty");
  mkdirSync(dir);
  const sessions = readFileSync("test/fixtures/two-sessions.ndjson", "utf8");
  for (let i = 0; i < MANY_FILES; i++) writeFileSync(join(dir, `run-${String(i).padStart(2, "0")}.ndjson`), sessions.replaceAll('"result":"one"', `"result":"one of ${i}"`));
  assert.ok(tasksOf(readdirSync(dir).map((f) => join(dir, f)), 2).length >= 12, "too few tasks to tell");
  const one = await runCli(["json", dir]);
  assert.equal(one.stdout.match(/one of \d+/g)?.join(","), Array.from({ length: MANY_FILES }, (_, i) => `one of ${i}`).join(","));
  assert.deepEqual(withoutNote(await runCli(["json", "-j", "2", dir])), one);
});

test("--jobs: a folder that gains a file during the run: the files named at the start, each once, in order", { timeout: 60_000 }, async () => {
  // FIFOs come first, so the run waits on them while the test adds a file to the folder named
  // after them; only then are the FIFOs written and the folder's files read.
  const dir = join(scratch, "growing");
  mkdirSync(dir);
  const sessions = readFileSync("test/fixtures/two-sessions.ndjson", "utf8");
  const log = (name: string) => sessions.replaceAll('"result":"one"', `"result":"${name}"`);
  for (const name of ["a", "c", "d"]) writeFileSync(join(dir, `${name}.ndjson`), log(name));
  const fifos = [join(scratch, "fifo-1.ndjson"), join(scratch, "fifo-2.ndjson")];
  for (const f of fifos) assert.equal(spawnSync("mkfifo", [f]).status, 0, "mkfifo");
  const child = spawn("node", [BIN, "json", "-j", "2", ...fifos, dir], { env: ENV });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  // Opening a FIFO for writing waits until the run has opened it for reading (bounded by the
  // test's timeout): the run has started reading when the folder gains b.ndjson.
  for (const [i, fifo] of fifos.entries()) {
    const w = await open(fifo, "w");
    if (i === 0) writeFileSync(join(dir, "b.ndjson"), log("b"));
    await w.write(log(`fifo ${i + 1}`));
    await w.close();
  }
  assert.equal(await exited, 0, stderr);
  assert.equal(stdout.match(/"result":"(fifo \d|[abcd])"/g)?.join(","), ['"result":"fifo 1"', '"result":"fifo 2"', '"result":"a"', '"result":"c"', '"result":"d"'].join(","));
});

test("--jobs 2 behind a slow first file: the temporary folder holds at most 4 tasks per thread, and nothing is lost", { timeout: 60_000 }, async () => {
  const tmp = join(scratch, "window-tmp");
  const dir = join(scratch, "window");
  mkdirSync(tmp);
  mkdirSync(dir);
  const sessions = readFileSync("test/fixtures/two-sessions.ndjson", "utf8");
  for (let i = 0; i < 100; i++) writeFileSync(join(dir, `run-${String(i).padStart(3, "0")}.ndjson`), sessions.replaceAll('"result":"one"', `"result":"one of ${i}"`));
  const fifo = join(scratch, "window-fifo.ndjson");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  const tasks = tasksOf([fifo, ...readdirSync(dir).map((f) => join(dir, f))], 2);
  assert.ok(tasks.length > 12, `${tasks.length} tasks: too few to tell`);
  const child = spawn("node", [BIN, "json", "-j", "2", fifo, dir], { env: { ...ENV, TMPDIR: tmp } });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const outs = () => readdirSync(tmp).flatMap((d) => readdirSync(join(tmp, d))).length;
  const w = await open(fifo, "w"); // the run is reading the FIFO: every other runner works ahead of it
  // Wait for the 8 outputs it may hold (the FIFO's own and 7 tasks after it), then watch a second more.
  const deadline = Date.now() + 20_000;
  while (outs() < 8 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  let most = outs();
  for (const end = Date.now() + 1000; Date.now() < end; ) {
    most = Math.max(most, outs());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(most, 8);
  await w.write(sessions.replaceAll('"result":"one"', '"result":"fifo"'));
  await w.close();
  assert.equal(await exited, 0);
  assert.equal(stdout.match(/"result":"(fifo|one of \d+)"/g)?.join(","), ['"result":"fifo"', ...Array.from({ length: 100 }, (_, i) => `"result":"one of ${i}"`)].join(","));
  assert.deepEqual(readdirSync(tmp), [], "the temporary folder is removed");
});

// The commands scripts/code-cache.mjs runs with --jobs 2 to make the worker's code cache: the built
// worker, from that cache, writes what one thread writes.
test("--jobs through the real executable (compiled worker, its code cache) for json, text, filter, timeline and export, and | head still quiet", async () => {
  for (const args of [["json"], ["text"], ["filter", "--type", "tool_call"], ["timeline"], ["export"]]) {
    const seq = await sequential([...args, ...FILES]);
    const par = spawnSync("node", [BIN, ...args, "-j", "2", ...FILES], { env: ENV, encoding: "utf8" });
    assert.deepEqual([par.status, par.stdout, par.stderr], seq, args.join(" "));
  }
  const head = spawnSync("bash", ["--norc", "--noprofile", "-c", `node ${BIN} text -j 2 ${FILES.join(" ")} 2>/dev/null | head -n1; echo "status=\${PIPESTATUS[0]}"`], { env: ENV, encoding: "utf8" });
  assert.equal(head.stdout, "Listed directory\nstatus=0\n");
});

test("--jobs: the workers started before the inputs are expanded are ended when the run needs no pool (a folder with one log) or fewer than started", async (t) => {
  // A folder named alone may hold any number of logs: the run starts a worker per CPU but one
  // before listing it. Left running, one worker keeps the process alive for ever (the bound).
  if (CPUS < 2) return t.skip(`this machine has ${CPUS} CPU: --jobs starts no worker`);
  const one = mkdtempSync(join(scratch, "one-log-"));
  writeFileSync(join(one, "run.ndjson"), readFileSync("test/fixtures/2026-long.ndjson"));
  // Three empty logs: one task for them all (tasksOf), fewer than the workers started.
  const few = mkdtempSync(join(scratch, "few-logs-"));
  for (const name of ["a.ndjson", "b.ndjson", "c.ndjson"]) writeFileSync(join(few, name), "");
  for (const dir of [one, few]) {
    const seq = await sequential(["json", dir]);
    const par = spawnSync("node", [BIN, "json", "-j", String(CPUS), dir], { env: ENV, encoding: "utf8", timeout: 15_000 });
    assert.equal(par.signal, null, `${dir}: the run did not end within 15 s`);
    assert.deepEqual([par.status, par.stdout, par.stderr], seq, dir);
  }
});

const JSON_SPEC: StageSpec = { command: "json", options: { pretty: false, allowIncomplete: false } };
const DATA = { spec: JSON_SPEC, lenient: false, maxLineBytes: 1 << 20, stderrColor: false };

test("a file whose output cannot be written (injected: /dev/full) is a failure with the system's words, never a closed pipe", async () => {
  const r = await runJobFile(DATA, { index: 0, outPath: "/dev/full", files: ["test/fixtures/2026-long.ndjson"] });
  assert.equal(r.failure, "cannot write temporary file /dev/full: no space left on device");
  const missing = await runJobFile(DATA, { index: 0, files: ["test/fixtures/2026-long.ndjson"], outPath: join(scratch, "no/such/dir/0.out") });
  assert.equal(missing.failure, `cannot create temporary file ${join(scratch, "no/such/dir/0.out")}: no such file or directory`);
});

test("a temporary folder that cannot be made: status 2 and a message, nothing written", () => {
  const r = spawnSync("node", [BIN, "json", "-j", "2", ...FILES], { env: { ...ENV, TMPDIR: join(scratch, "no-such-dir") }, encoding: "utf8" });
  assert.equal(r.stdout, "");
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`cursorlog: error: cannot write temporary files in ${join(scratch, "no-such-dir")}: no such file or directory\n$`));
});

test("a full temporary folder (a 1 MB tmpfs as TMPDIR): the files before are written whole, then status 2 and the message", { timeout: 120_000 }, async (t) => {
  const mnt = join(scratch, "tmpfs");
  mkdirSync(mnt);
  const mounted = process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt]).status === 0;
  if (!mounted) {
    t.diagnostic("SKIPPED: a tmpfs needs root and mount(8); the injected failing write above covers the same path");
    return t.skip("cannot mount a tmpfs here (needs root)");
  }
  try {
    // Many sessions: a json output of about 2.3 MB, more than the folder holds.
    const big = join(scratch, "many-sessions.ndjson");
    const one = readFileSync("test/fixtures/two-sessions.ndjson", "utf8");
    writeFileSync(big, one.repeat(Math.ceil((12 << 20) / one.length)));
    const files = ["test/fixtures/2026-long.ndjson", big, "test/fixtures/two-sessions.ndjson"];
    const [, seqOut] = await sequential(["json", files[0]!]);
    const r = spawnSync("node", [BIN, "json", "-j", "2", ...files], { env: { ...ENV, TMPDIR: mnt }, encoding: "utf8", maxBuffer: 64 << 20 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^cursorlog: error: cannot write temporary file .*\/1\.out: no space left on device\n$/);
    assert.equal(r.stdout, seqOut, "the first file's output whole, nothing after the failed one");
  } finally {
    spawnSync("umount", [mnt]);
  }
});

/**
 * Threads of the pool (test/helpers/scale.ts): 3 in make test, 12 in make stress. The bug: each
 * worker piped its stdout and stderr into the process's own (listeners on them, one set a worker,
 * at the worker's start), and past 10 workers Node warned at the next listener anyone added. The
 * count of listeners while the workers run (`most` below) shows the first worker's already: 3
 * threads fail it as 12 do. The warning itself needs more than 10: make stress runs 12.
 */
const POOL_THREADS = scaled(3, 12);

test(`--jobs ${POOL_THREADS} (the pool below the CLI's cap): no MaxListenersExceededWarning, no listener left on the output`, { timeout: 180_000 }, async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on("warning", onWarning);
  try {
    // Listeners on the process's own streams, counted while the workers run (Node pipes a worker's
    // stdout and stderr into them unless told not to: 10+ workers then push the next listener
    // anyone adds past the limit).
    const listeners = () => ["error", "drain", "close"].map((e) => process.stdout.listenerCount(e) + process.stderr.listenerCount(e));
    const initial = listeners();
    let most = initial;
    let text = "";
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        text += chunk.toString();
        most = listeners().map((n, i) => Math.max(n, most[i]!));
        cb();
      },
    });
    const before = out.listenerCount("error");
    const files = Array.from({ length: 2 * POOL_THREADS }, () => "test/fixtures/two-sessions.ndjson");
    let stderr = "";
    const code = await runPool({ data: DATA, files, threads: POOL_THREADS, out, err: (s) => (stderr += s) });
    assert.deepEqual([code, stderr], [0, ""]);
    assert.equal(text, (await runCli(["json", ...files])).stdout);
    assert.equal(out.listenerCount("error"), before);
    assert.deepEqual(most, initial);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, []);
  } finally {
    process.off("warning", onWarning);
  }
});

test("--jobs: the temporary folder is removed when the run ends early (| head, a full stdout, SIGINT)", { timeout: 60_000 }, async () => {
  const tmp = join(scratch, "early-tmp");
  mkdirSync(tmp);
  const env = { ...ENV, TMPDIR: tmp };
  const files = ["test/fixtures/2026-long.ndjson", "test/fixtures/two-sessions.ndjson", "test/fixtures/2026-long.ndjson"];
  const head = spawnSync("bash", ["--norc", "--noprofile", "-c", `node ${BIN} text -j 2 ${files.join(" ")} | head -n1; echo "status=\${PIPESTATUS[0]}"`], { env, encoding: "utf8" });
  assert.equal(head.stdout, "Listed directory\nstatus=0\n");
  assert.deepEqual(readdirSync(tmp), [], "| head");
  const full = spawnSync("bash", ["--norc", "--noprofile", "-c", `node ${BIN} json -j 2 ${files.join(" ")} > /dev/full`], { env, encoding: "utf8" });
  assert.deepEqual([full.status, full.stderr], [2, "cursorlog: error: cannot write output: no space left on device\n"]);
  assert.deepEqual(readdirSync(tmp), [], "> /dev/full");
  // SIGINT while the run waits on a FIFO: its temporary folder exists then, and is gone after.
  const fifo = join(scratch, "early-fifo.ndjson");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  const child = spawn("node", [BIN, "json", "-j", "2", fifo, ...files], { env, stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal === null ? null : -1))));
  const w = await open(fifo, "w"); // the run is reading the FIFO
  const deadline = Date.now() + 20_000;
  while (readdirSync(tmp).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(readdirSync(tmp).length, 1, "the run's temporary folder");
  child.kill("SIGINT");
  // A read blocked on a FIFO holds up the exit until it returns (as without --jobs): end it.
  await w.close();
  assert.equal(await exited, 130);
  assert.deepEqual(readdirSync(tmp), [], "SIGINT");
});

test("jobsAsked reads --jobs from a command line before it is parsed, as commander will", () => {
  const cases: Array<[string[], number]> = [
    [["json", "a", "b"], 1],
    [["json", "-j", "3", "a"], 3],
    [["json", "-j4", "a"], 4],
    [["json", "--jobs", "2"], 2],
    [["json", "--jobs=5", "a"], 5],
    [["json", "-j", "2", "--jobs", "6"], 6], // the last wins
    [["json", "-j", "0"], 1],
    [["json", "-j", "two"], 1],
    [["json", "-j"], 1],
    [["json", "--", "-j", "4"], 1], // after --, a file name
  ];
  for (const [argv, n] of cases) assert.equal(jobsAsked(argv), n, argv.join(" "));
});

test("--jobs: workers started before the command line is parsed (early.ts) are taken by the run, given their data, and none is left", async (t) => {
  if (CPUS < 2) return t.skip(`this machine has ${CPUS} CPU: no worker is started early`);
  const one = await runCli(["json", "--jobs", "1", ...FILES]);
  // Without its data (the first message) the taken worker would fail every file it got. Loaded
  // before the run starts, it takes the second file at once (still loading, it might get none).
  assert.equal(startEarly(["json", "-j", "2", ...FILES]), 1);
  const stash = (globalThis as Record<symbol, Array<{ loaded: boolean }> | undefined>)[Symbol.for("cursorlog.jobs.early")]!;
  const deadline = Date.now() + 20_000;
  while (!stash[0]!.loaded && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(stash[0]!.loaded, "the worker loaded within 20 s");
  assert.deepEqual(withoutNote(await runCli(["json", "-j", "2", ...FILES])), one);
  assert.deepEqual(takeEarly(8), [], "the run took it");
  // A run that needs no pool (one file) ends those started early.
  assert.equal(startEarly(["json", "-j", "2", FILES[0]!]), 1);
  const single = await runCli(["json", FILES[0]!]);
  assert.deepEqual(await runCli(["json", "-j", "2", FILES[0]!]), single);
  assert.deepEqual(takeEarly(8), [], "ended");
});

test("--jobs: a worker started early and never taken (a usage error, --help) does not keep the process alive", (t) => {
  if (CPUS < 2) return t.skip(`this machine has ${CPUS} CPU: no worker is started early`);
  // The compiled module and the bundle's worker, as the executable would use them.
  const script = `import("./dist/jobs/early.js").then((m) => { m.startEarly(["stats", "-j", "2"], new URL("./dist/bundle/worker.js", "file://${process.cwd()}/")); console.log("started"); })`;
  const r = spawnSync("node", ["-e", script], { env: ENV, encoding: "utf8", timeout: 15_000 });
  assert.equal(r.signal, null, "the process did not end within 15 s");
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, "started\n", ""]);
});

test("--jobs: the executable starts its workers once it has compiled the command line's bundle, before it runs it, and the run takes them", async (t) => {
  if (CPUS < 2) return t.skip(`this machine has ${CPUS} CPU: no worker is started early`);
  // A preloaded script logs, in order, the main thread's Workers made and what became of the main bundle.
  const log = join(scratch, "early-order.log");
  const hook = join(scratch, "early-order.cjs");
  writeFileSync(
    hook,
    `const fs = require("node:fs"); const wt = require("node:worker_threads"); const vm = require("node:vm");
     const note = (s) => { if (wt.isMainThread) fs.appendFileSync(${JSON.stringify(log)}, s + "\\n"); };
     const Worker = wt.Worker;
     wt.Worker = class extends Worker { constructor(...a) { note("worker"); super(...a); } };
     const Script = vm.Script;
     vm.Script = class extends Script {
       constructor(source, options) { super(source, options); this.main = String(options && options.filename).endsWith("main.script.js"); if (this.main) note("main bundle compiled"); }
       runInThisContext(...a) { if (this.main) note("main bundle runs"); return super.runInThisContext(...a); }
     };`,
  );
  const files = FILES.filter((f) => !f.includes("does-not-exist"));
  const one = await sequential(["json", "-j", "1", ...files]);
  rmSync(log, { force: true });
  const two = spawnSync("node", ["--require", hook, BIN, "json", "-j", "2", ...files], { env: ENV, encoding: "utf8" });
  assert.deepEqual([two.status, two.stdout, two.stderr], one);
  // One worker (2 threads in all), made between the compile and the run; the pool made none of its own.
  assert.deepEqual(readFileSync(log, "utf8").split("\n"), ["main bundle compiled", "worker", "main bundle runs", ""]);
  // Without --jobs, none.
  rmSync(log, { force: true });
  spawnSync("node", ["--require", hook, BIN, "json", ...files], { env: ENV, encoding: "utf8" });
  assert.deepEqual(readFileSync(log, "utf8").split("\n"), ["main bundle compiled", "main bundle runs", ""]);
});
