#!/usr/bin/env node
// The test suites, as `make test` and `make stress` run them.
//
//   node scripts/run-tests.mjs            # make test: the fast loop (every golden, small fuzz and stress inputs)
//   node scripts/run-tests.mjs --stress   # make stress: the heavy runs, at full size
//   node scripts/run-tests.mjs test/x.test.ts ...   # just these files, each in its own phase as marked
//
// A test file says how it must be run in a comment line of its own near the top:
//
//   // test-run: alone    it cannot share the machine (a timing, a memory ceiling, a wall-clock
//                         deadline): it runs after the others, one file at a time, nothing beside it.
//   // test-run: scaled   it runs small in make test and again at full size in make stress
//                         (CURSORLOG_STRESS=1; test/helpers/scale.ts).
//   // test-run: stress   it runs in make stress only (a browser, hundreds of MiB, another
//                         language's decoder).
//
// A file that must not share its process with other test files (make test runs most several to a
// process: grouped() below) says so in a line of its own, with why:
//
//   // test-process: own  (it changes the process's environment)
//
// Unmarked files run in make test, several at once (--test-concurrency, TEST_CONCURRENCY to change):
// each file is its own process, and no two files share a path they write.
// Each phase is one `node --test` run with its own summary; the exit status is the first failure's.
//
// Each test file's process runs the TypeScript through test/helpers/ts-loader.mjs (tsx's esbuild
// transform, cached on disk), not `--import tsx`: ~0.5 s less CPU in each of ~100 test files'
// processes, half of what a small file costs. TEST_LOADER=tsx runs them under tsx instead.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const root = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
process.chdir(root);

const args = process.argv.slice(2);
const stress = args.includes("--stress");
const named = args.filter((a) => !a.startsWith("--"));

const MARK = /^\/\/ test-run: (alone|scaled|stress)\s*$/m;

/** A test file's first 40 lines, where its marks are. */
const headOf = (file) => readFileSync(file, "utf8").split("\n").slice(0, 40).join("\n");

function markOf(file) {
  return MARK.exec(headOf(file))?.[1] ?? "shared";
}

function list(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => join(dir, f));
}

const files = named.length > 0 ? named : [...list("test"), ...list("test/stress")];
const byMark = { shared: [], alone: [], scaled: [], stress: [] };
for (const f of files) byMark[markOf(f)].push(f);

const loader = process.env.TEST_LOADER === "tsx" ? "tsx" : join(root, "test", "helpers", "ts-loader.mjs");

// Two cores: four files at once keeps both busy while files wait on their child processes (make
// test on a clean clone of the 2-vCPU VM: 4 min 19 s with four, 4 min 34 s with three).
const concurrency = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, availableParallelism() + 2));

// The files that take longest (wall time, in make test: most wait on the processes they start),
// in this order, after the groups and before the other files: a long file started last holds the
// phase open while the cores idle (examples.test.ts, 50 s of one chain of processes, was last but
// a few). node --test starts the files it is given in the order of their paths, whatever the
// order given: in make test each process's file is named for its place (grouped(), below). The
// order from the CPU report (CPU_REPORT) of a quiet run. These, at 6 CPU s or more each in make
// test, also keep a process of their own.
const LONGEST_FIRST = [
  "examples",
  "jobs",
  "robust-long-lines-memory",
  "claude-robust-fuzz",
  "claude-memory",
  "code-cache",
  "output-faults",
  "robust-faults",
  "robust-fuzz",
  "export-memory",
  "follow",
  "signals-long-work",
  "scanner",
  "claude-robust-chunking",
  "chunking-records",
  "launcher",
  "attack-output",
  "data-kept",
].map((n) => join("test", `${n}.test.ts`));
const longestFirst = (fs) => [...LONGEST_FIRST.filter((f) => fs.includes(f)), ...fs.filter((f) => !LONGEST_FIRST.includes(f))];

// make stress: the scaled files at full size two at a time (in make test they share the machine
// with three others: none measures a time or a ceiling the load would change), longest first;
// then the files that run in make stress only (a browser, a timing over hundreds of MiB, memory
// ceilings), one at a time.
const STRESS_ENV = { CURSORLOG_STRESS: "1" };
// make test: the files that need no process of their own share one, several to a process (a
// group): ~0.7 CPU s less for each file so run, the cost of a Node process and of loading and
// compiling the sources again (40 small files: 35 CPU s in 40 processes, 8 in one). A group
// imports its files, then runs their tests in that order, one at a time, as each file's process
// would (top-level before/after hooks included); a failure still names its file (its location).
// Not grouped: the longest files (they balance the cores on their own), files marked
// `// test-process: own` (they change what the process shares: its environment, its listeners),
// and any file when TEST_GROUPS=0 (each file its own process, as in a run of named files: the CPU
// report then names every file).
const OWN = /^\/\/ test-process: own\b/m;
const grouping = process.env.TEST_GROUPS !== undefined ? process.env.TEST_GROUPS !== "0" : named.length === 0;
const groupDir = mkdtempSync(join(tmpdir(), "cursorlog-test-groups-"));
process.on("exit", () => rmSync(groupDir, { recursive: true, force: true }));
// Interrupted (^C): the temporary folders go too (the phase's own node --test gets the signal as well).
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));
/** Group file path -> the test files it runs. */
const groups = new Map();
function grouped(fs) {
  if (!grouping) return fs;
  const own = (f) => LONGEST_FIRST.includes(f) || OWN.test(headOf(f));
  const pool = fs.filter((f) => !own(f));
  // Twice as many groups as files run at once, filled round-robin in name order (neighbours in
  // name tend to cost alike: the goldens, the attack files), so that no group holds the phase open.
  const n = Math.min(pool.length, concurrency * 2);
  const members = Array.from({ length: n }, () => []);
  pool.forEach((f, i) => members[i % n].push(f));
  const made = members.map((m, i) => {
    const path = join(groupDir, `a-group-${String(i + 1).padStart(2, "0")}.test.mjs`);
    // Static imports: every file is loaded and its top-level code run before any test starts, as
    // when each file has its process (with imports one after another, a test of the first file
    // ran while the next files loaded: its fake collector, in this process, answered too late).
    // A file that cannot be loaded fails its group, naming itself.
    const imports = m.map((f) => `import ${JSON.stringify(pathToFileURL(join(root, f)).href)};`);
    writeFileSync(path, [`// ${m.length} test files in one process (scripts/run-tests.mjs)`, ...imports, ""].join("\n"));
    groups.set(path, m);
    return path;
  });
  // Each file of its own process through a file that imports it, named for its place: the groups
  // (the largest) first, then the longest files in LONGEST_FIRST's order, then the others.
  const alone = longestFirst(fs.filter(own)).map((f, i) => {
    const path = join(groupDir, `b-${String(i + 1).padStart(2, "0")}-${relative("test", f).replace(/\.test\.ts$/, "")}.test.mjs`);
    writeFileSync(path, `// ${f} in a process of its own (scripts/run-tests.mjs)\nimport ${JSON.stringify(pathToFileURL(join(root, f)).href)};\n`);
    groups.set(path, [f]);
    return path;
  });
  return [...made, ...alone];
}

const phases = stress
  ? [
      { name: "stress, scaled", files: longestFirst(byMark.scaled), concurrency: Number(process.env.TEST_CONCURRENCY ?? 2), env: STRESS_ENV },
      { name: "stress", files: byMark.stress, concurrency: 1, env: STRESS_ENV },
    ]
  : [
      { name: "shared", files: grouped(longestFirst([...byMark.shared, ...byMark.scaled])), concurrency, env: {} },
      { name: "alone", files: byMark.alone, concurrency: 1, env: {} },
    ];
if (named.length > 0 && !stress) phases.push({ name: "stress", files: byMark.stress, concurrency: 1, env: { CURSORLOG_STRESS: "1" } });

// What each test file's process cost in CPU seconds, its children's included: each writes a line
// to this file as it exits (test/helpers/ts-loader.mjs); the costliest are listed at the end
// (CPU, not wall time: on a machine other work shares, wall time says little about a file).
// CPU_REPORT=N lists N files (default 10, 0 for none).
const cpuDir = mkdtempSync(join(tmpdir(), "cursorlog-test-cpu-"));
const cpuLog = join(cpuDir, "cpu.ndjson");
const cpuTop = Number(process.env.CPU_REPORT ?? 10);

/** User and system CPU seconds of this process and of the children it waited for (Linux: /proc). */
function selfCpu() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = (i) => Number(f[i - 3]) / 100;
    const own = process.resourceUsage();
    return { user: own.userCPUTime / 1e6 + ticks(16), sys: own.systemCPUTime / 1e6 + ticks(17) };
  } catch {
    return undefined;
  }
}

/** A test file's name in the report; a group's, with its files. */
function nameOf(file) {
  const m = groups.get(file);
  if (m === undefined) return relative(root, file);
  if (m.length === 1) return m[0];
  return `${relative(groupDir, file).replace(/\.test\.mjs$/, "")} of ${m.length} files: ${m.map((f) => relative("test", f).replace(/\.test\.ts$/, "")).join(", ")}`;
}

function cpuReport() {
  let lines = [];
  try {
    lines = readFileSync(cpuLog, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    // None written (no /proc).
  }
  rmSync(cpuDir, { recursive: true, force: true });
  const all = selfCpu();
  if (lines.length === 0 || all === undefined) return;
  const rows = lines.map((r) => ({ ...r, cpu: r.user + r.sys + r.childUser + r.childSys })).sort((a, b) => b.cpu - a.cpu);
  const sum = rows.reduce((a, r) => a + r.cpu, 0);
  const s = (x) => x.toFixed(1);
  process.stdout.write(`# cursorlog tests, CPU: ${s(all.user + all.sys)} s (user ${s(all.user)}, sys ${s(all.sys)}) in all; ${s(sum)} s in ${rows.length} test files' processes and their children\n`);
  for (const r of rows.slice(0, cpuTop)) {
    process.stdout.write(`#   ${s(r.cpu).padStart(6)} s  ${nameOf(r.file)} (own ${s(r.user + r.sys)}, children ${s(r.childUser + r.childSys)}; sys ${s(r.sys + r.childSys)})\n`);
  }
}

/**
 * The failed tests of one phase, read from its TAP as it passes: each as "file › suite › test" and
 * the first line of its error. They are listed again at the very end of the run, so the last lines
 * of a CI log (often all it keeps) name what failed, not only how many.
 */
class FailedTests {
  rest = "";
  /** The names of the subtests open at each indent (TAP: "# Subtest: name", four spaces a level). */
  open = [];
  list = [];
  /** The failure whose YAML block is being read (its file from its location, its error's first line). */
  current = undefined;
  write(b) {
    const lines = (this.rest + b.toString("utf8")).split("\n");
    this.rest = lines.pop();
    for (const l of lines) this.line(l);
  }
  line(l) {
    const sub = /^( *)# Subtest: (.*)$/.exec(l);
    if (sub) {
      const depth = sub[1].length / 4;
      this.open.length = depth;
      this.open[depth] = sub[2];
      return;
    }
    const nok = /^( *)not ok \d+ - (.*?)(?: # .*)?$/.exec(l);
    if (nok) {
      const depth = nok[1].length / 4;
      const path = [...this.open.slice(0, depth), nok[2]];
      // A failed suite or file is also "not ok": name the innermost failures only.
      this.list = this.list.filter((f) => !(f.path.length < path.length && f.path.every((p, i) => p === path[i])));
      if (!this.list.some((f) => f.path.length > path.length && path.every((p, i) => p === f.path[i]))) {
        this.current = { path, error: "" };
        this.list.push(this.current);
      } else this.current = undefined;
      return;
    }
    const f = this.current;
    if (f === undefined) return;
    if (/^\s+\.\.\.$/.test(l)) this.current = undefined;
    else if (f.errorNext) {
      f.error = l.trim();
      f.errorNext = false;
    } else if (f.error === "") {
      const loc = /^\s+location: '(.*):\d+:\d+'$/.exec(l);
      const err = /^\s+error: (.*)$/.exec(l);
      if (loc) f.file = relative(root, loc[1]);
      else if (err && /^[|>]-?$/.test(err[1])) f.errorNext = true;
      else if (err) f.error = err[1].replace(/^'(.*)'$/, "$1");
    }
  }
  end() {
    if (this.rest) this.line(this.rest);
    return this.list.map((f) => ({ name: [...(f.file ? [f.file] : []), ...f.path].join(" › "), error: f.error }));
  }
}

/** Runs one phase, its output passed through as it comes; resolves to its status and its counts. */
function run(p) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", loader, "--test", `--test-concurrency=${p.concurrency}`, ...p.files], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...p.env, CURSORLOG_TEST_CPU: cpuLog },
    });
    let tail = "";
    const failed = new FailedTests();
    child.stdout.on("data", (b) => {
      process.stdout.write(b);
      tail = (tail + b.toString("latin1")).slice(-4096);
      failed.write(b);
    });
    child.on("close", (code, signal) => {
      const count = (k) => Number(new RegExp(`^# ${k} (\\d+)$`, "m").exec(tail)?.[1] ?? 0);
      resolve({ code: code ?? 1, signal, pass: count("pass"), fail: count("fail"), skipped: count("skipped"), failed: failed.end() });
    });
  });
}

// The transforms every test process will ask for, made at once (ts-transform.mjs), not in each.
if (loader !== "tsx") {
  const { warm } = await import("../test/helpers/ts-transform.mjs");
  const ts = (dir) => readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".ts")).map((f) => join(root, dir, f));
  await warm([...ts("src"), ...ts("test")]);
}

let status = 0;
const total = { pass: 0, fail: 0, skipped: 0 };
const failedTests = [];
const t00 = Date.now();
for (const p of phases) {
  if (p.files.length === 0) continue;
  const t0 = Date.now();
  const count = p.files.reduce((a, f) => a + (groups.get(f)?.length ?? 1), 0);
  const processes = count === p.files.length ? "" : ` in ${p.files.length} processes`;
  process.stdout.write(`\n# cursorlog tests, ${p.name}: ${count} files${processes}, ${p.concurrency} at a time\n`);
  const r = await run(p);
  for (const k of Object.keys(total)) total[k] += r[k];
  failedTests.push(...r.failed);
  const how = r.code === 0 ? "passed" : `FAILED (status ${r.code}${r.signal ? `, ${r.signal}` : ""})`;
  process.stdout.write(`# cursorlog tests, ${p.name}: ${how} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  if (r.code !== 0 && status === 0) status = r.code;
}
process.stdout.write(`# cursorlog tests, all phases, ${((Date.now() - t00) / 1000).toFixed(1)} s:\n`);
cpuReport();
for (const f of failedTests) process.stdout.write(`# failed: ${f.name}${f.error ? `\n#   ${f.error.slice(0, 300)}` : ""}\n`);
process.stdout.write(`${stress ? "stress" : "tests"}: ${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped\n`);
process.exit(status);
