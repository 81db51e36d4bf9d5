// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { after, before, test } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { scaled, STRESS } from "./helpers/scale.js";

// bin/cursorlog.js compiles dist/bundle/main.script.js with the V8 code cache the build made
// (dist/bundle/main-v8-<version>.cache, scripts/code-cache.mjs), falls back to compiling without it when V8
// rejects it, and to the ES module main.js when the script is not there; it writes nothing. In a
// --jobs worker thread (started on bin itself, with --cursorlog-jobs-worker), the same for
// worker.script.js, worker-v8-<version>.cache and worker.js.
//
// Each case is a process of node (~0.2 CPU s). make test runs fewer of them where one run already
// shows what another would (the spy's exact stderr says both what V8 did and that bin said
// nothing; a cache "as built" in a copy is the cache the checkout's runs take); make stress
// (CURSORLOG_STRESS=1, test/helpers/scale.ts) runs every one, as before.
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const LOG = resolve("test/fixtures/2026-long.ndjson");
const JSON_OUT = readFileSync("test/golden/json-2026-long.stdout", "utf8");
const dir = mkdtempSync(join(tmpdir(), "cursorlog-code-cache-"));
const CACHE = `main-v8-${process.versions.v8}.cache`;
const WORKER_CACHE = `worker-v8-${process.versions.v8}.cache`;
const CPUS = availableParallelism();

before(() => {
  assert.ok(existsSync(`dist/bundle/${CACHE}`), "dist/ is missing or older than the code cache: run `npm run build` (make test does) before these tests");
  if (CPUS >= 2) assert.ok(existsSync(`dist/bundle/${WORKER_CACHE}`), "dist/ is older than the worker's code cache: run `npm run build`");
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of what npm installs (bin/, dist/, package.json, schemas/), its dependencies linked, at DIR/NAME. */
function install(name: string): string {
  const root = join(dir, name);
  mkdirSync(root);
  for (const part of ["bin", "dist", "schemas", "package.json"]) cpSync(part, join(root, part), { recursive: true });
  symlinkSync(resolve("node_modules"), join(root, "node_modules"));
  return root;
}

const run = (root: string, argv: string[], node: string[] = []) => {
  const r = spawnSync("node", [...node, join(root, "bin", "cursorlog.js"), ...argv], { env: ENV, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** Every file under ROOT (links not followed) with its size and modification time. */
function snapshot(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p, { throwIfNoEntry: false });
        out.push(`${relative(root, p)} ${s?.size} ${s?.mtimeMs}`);
      }
    }
  };
  walk(root);
  return out.sort();
}

test("the build's code caches match this Node.js: V8 accepts them (a fresh node, no flags, as bin runs)", (t) => {
  for (const [name, cache] of [["main", CACHE], ["worker", WORKER_CACHE]]) {
    if (name === "worker" && CPUS < 2) {
      t.diagnostic(`this machine has ${CPUS} CPU: the build made no worker cache (--jobs starts no worker)`);
      continue;
    }
    const probe = 'require("node:v8").setFlagsFromString("--verify-snapshot-checksum");' +
      `const { Script } = require("node:vm"); const { readFileSync } = require("node:fs"); const f = require("node:path").resolve("dist/bundle/${name}.script.js");` +
      'const s = new Script(readFileSync(f, "utf8"), { filename: f, cachedData: readFileSync("dist/bundle/' + cache + '") }); process.stdout.write(String(s.cachedDataRejected));';
    const r = spawnSync("node", ["-e", probe], { env: ENV, encoding: "utf8" });
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, "false", ""], name);
  }
});

/**
 * A preload (--require: a node option, not a V8 flag, so the cache still matches; it runs in
 * worker threads too) that says on stderr what became of the code cache when bin compiles
 * main.script.js ("code cache: …") or, in a --jobs worker, worker.script.js ("worker code cache: …").
 */
const SPY = join(dir, "spy.cjs");
writeFileSync(
  SPY,
  `const vm = require("node:vm");
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    const name = String(options && options.filename);
    const fate = options.cachedData === undefined ? "none" : this.cachedDataRejected ? "rejected" : "accepted";
    if (name.endsWith("main.script.js")) require("node:fs").writeSync(2, "code cache: " + fate + "\\n");
    if (name.endsWith("worker.script.js")) require("node:fs").writeSync(2, "worker code cache: " + fate + "\\n");
  }
};
require("node:module").syncBuiltinESMExports();
`,
);

test("bin compiles main.script.js with the build's cache, and V8 takes it", () => {
  const r = run(".", ["json", LOG], ["--require", SPY]);
  assert.deepEqual(r, { status: 0, stdout: JSON_OUT, stderr: "code cache: accepted\n" });
});

/**
 * What can become of the code cache at CACHE, each with how to make it so (in turn: the cache as
 * built is read first), node's options for the run, and what V8 then does with it (the spy's word).
 * make test: missing for both caches, and each way V8 rejects one for one of them (main: other
 * flags, damaged; worker: cut short, empty), "as built" being what the tests above run on the
 * checkout; make stress: every way for both (CURSORLOG_STRESS=1, test/helpers/scale.ts).
 */
function cacheVariants(cache: string, of: "main" | "worker"): Array<[string, () => void, string[], string]> {
  const whole = readFileSync(cache);
  const all: Array<[string, () => void, string[], string]> = [
    ["as built", () => writeFileSync(cache, whole), [], "accepted"],
    ["other V8 flags", () => writeFileSync(cache, whole), ["--max-old-space-size=200"], "rejected"],
    // V8 checks a cache's checksum only when asked (bin asks): without it, node crashed here.
    ["damaged", () => writeFileSync(cache, Buffer.from(whole).fill(7, 64, 4096)), [], "rejected"],
    ["cut short", () => writeFileSync(cache, whole.subarray(0, 1000)), [], "rejected"],
    ["empty", () => writeFileSync(cache, ""), [], "rejected"],
    ["missing", () => rmSync(cache), [], "none"],
  ];
  const mine = of === "main" ? ["other V8 flags", "damaged"] : ["cut short", "empty"];
  return STRESS ? all : all.filter(([what, , , fate]) => (fate !== "rejected" && what !== "as built") || mine.includes(what));
}

/**
 * A worker started on ROOT's bin/cursorlog.js as src/jobs/early.ts starts one (with
 * --cursorlog-jobs-worker); once it says it is ready, it is ended. stdout: "ready", or its error.
 */
function startWorker(root: string, node: string[] = []) {
  const script = `const { Worker } = require("node:worker_threads");
    const w = new Worker(${JSON.stringify(resolve(root, "bin", "cursorlog.js"))}, { argv: ["--cursorlog-jobs-worker"] });
    w.on("message", (m) => { if (m === "ready") { process.stdout.write("ready\\n"); void w.terminate(); } });
    w.on("error", (e) => process.stdout.write("error: " + e.message + "\\n"));`;
  const r = spawnSync("node", [...node, "-e", script], { env: ENV, encoding: "utf8", timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("a --jobs worker thread runs bin, which compiles worker.script.js with the build's cache, and V8 takes it", (t) => {
  if (CPUS < 2) return t.skip(`this machine has ${CPUS} CPU: the build made no worker cache`);
  assert.deepEqual(startWorker(".", ["--require", SPY]), { status: 0, stdout: "ready\n", stderr: "worker code cache: accepted\n" });
  // In a run: the main bundle's cache first, then (if the worker was far enough along to compile
  // before the run ended) the worker's; the output is the sequential run's.
  // Logs (test/helpers/scale.ts): 50 in make test, 200 in make stress. The worker's line is
  // optional here (startWorker above checks that its cache is taken); the run's own checks hold
  // at any count.
  const n = scaled(50, 200);
  const logs = Array.from({ length: n }, () => LOG);
  const r = run(".", ["json", "--jobs", "2", ...logs], ["--require", SPY]);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, JSON_OUT.repeat(n));
  assert.match(r.stderr, /^code cache: accepted\n(worker code cache: accepted\n)?$/);
});

test("a worker cache V8 rejects (damaged, other V8 flags, cut short) or none: the worker starts, the same output, nothing said", (t) => {
  if (CPUS < 2) return t.skip(`this machine has ${CPUS} CPU: the build made no worker cache`);
  const root = install("worker-rejected");
  const cache = join(root, "dist", "bundle", WORKER_CACHE);
  for (const [i, [what, make, node, fate]] of cacheVariants(cache, "worker").entries()) {
    make();
    assert.deepEqual(startWorker(root, [...node, "--require", SPY]), { status: 0, stdout: "ready\n", stderr: `worker code cache: ${fate}\n` }, `${what}: what V8 did`);
    // make test: a run through the pool with the first (the worker's "ready" above says it starts
    // with each); make stress: with each.
    if (STRESS || i === 0) assert.deepEqual(run(root, ["json", "--jobs", "2", LOG, LOG, LOG], node), { status: 0, stdout: JSON_OUT.repeat(3), stderr: "" }, what);
  }
});

test("an install without worker.script.js (an older build): its workers run the ES module worker.js", () => {
  const root = install("worker-module-only");
  rmSync(join(root, "dist", "bundle", "worker.script.js"));
  // The spy says nothing: no worker.script.js was compiled.
  assert.deepEqual(startWorker(root, ["--require", SPY]), { status: 0, stdout: "ready\n", stderr: "" });
  assert.deepEqual(run(root, ["json", "--jobs", "2", LOG, LOG, LOG]), { status: 0, stdout: JSON_OUT.repeat(3), stderr: "" });
});

test("--cursorlog-jobs-worker on the command line (not in a worker thread) is an unknown option, not a worker", () => {
  const r = run(".", ["--cursorlog-jobs-worker"]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /unknown option '--cursorlog-jobs-worker'/);
});

test("a cache V8 rejects (damaged, other V8 flags, cut short) or none: the same output, nothing said", () => {
  const root = install("rejected");
  const cache = join(root, "dist", "bundle", CACHE);
  for (const [i, [what, make, node, fate]] of cacheVariants(cache, "main").entries()) {
    make();
    // make test: the spy's run alone (its stderr, exactly the spy's line, says bin said nothing);
    // make stress: without the spy too.
    if (STRESS) assert.deepEqual(run(root, ["json", LOG], node), { status: 0, stdout: JSON_OUT, stderr: "" }, what);
    assert.deepEqual(run(root, ["json", LOG], [...node, "--require", SPY]), { status: 0, stdout: JSON_OUT, stderr: `code cache: ${fate}\n` }, `${what}: what V8 did`);
    // A bundle loaded on demand (a dynamic import from the script) still loads. make test: with
    // the first way (a rejected cache); make stress: with each.
    if (!STRESS && i > 0) continue;
    const v = run(root, ["validate", LOG], node);
    assert.deepEqual([v.status, v.stderr], [0, ""], `validate, cache ${what}`);
  }
});

test("the bundles loaded on demand load through the script: validate, the HTML timeline, a Chrome trace, --jobs workers", async () => {
  // Without main.js, every run goes through main.script.js (and its import callback) or fails.
  const root = install("script-only");
  rmSync(join(root, "dist", "bundle", "main.js"));
  assert.deepEqual(run(root, ["json", LOG]), { status: 0, stdout: JSON_OUT, stderr: "" });
  assert.deepEqual(run(root, ["json", "--jobs", "2", LOG, LOG]), { status: 0, stdout: JSON_OUT + JSON_OUT, stderr: "" });
  const v = run(root, ["validate", LOG]);
  assert.deepEqual([v.status, v.stderr], [0, ""]);
  const html = run(root, ["timeline", "--format", "html", LOG]);
  assert.deepEqual([html.status, html.stderr], [0, ""]);
  assert.match(html.stdout, /^<!doctype html>/i);
  const chrome = run(root, ["export", "--format", "chrome-trace", LOG]);
  assert.deepEqual([chrome.status, chrome.stderr], [0, ""]);
  assert.ok(Array.isArray((JSON.parse(chrome.stdout) as { traceEvents?: unknown }).traceEvents), "a Chrome trace");
  // Paths found from import.meta.url in the script: the version (package.json), the bundled schemas.
  assert.equal(run(root, ["--version"]).stdout, `${(JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version}\n`);
  assert.equal(run(root, ["schema"]).stdout, (await runCli(["schema"])).stdout);
});

test("an install without main.script.js (an older build) runs the ES module main.js", () => {
  const root = install("module-only");
  rmSync(join(root, "dist", "bundle", "main.script.js"));
  rmSync(join(root, "dist", "bundle", CACHE));
  assert.deepEqual(run(root, ["json", LOG]), { status: 0, stdout: JSON_OUT, stderr: "" });
});

test("nothing is written: the install is the same, file for file, after runs with and without a usable cache", () => {
  const root = install("read-only");
  const before = snapshot(root);
  // make test: a rejected cache, a bundle loaded on demand, and --jobs (the main cache taken, and a
  // worker's); make stress: a plain run, --help and a worker on its own too.
  if (STRESS) run(root, ["json", LOG]);
  if (STRESS) run(root, ["--help"]);
  run(root, ["validate", LOG]);
  run(root, ["json", LOG], ["--max-old-space-size=200"]);
  run(root, ["json", "--jobs", "2", LOG, LOG, LOG]);
  if (STRESS) startWorker(root);
  assert.deepEqual(snapshot(root), before);
});

test("no cache for this V8, on a node with a module compile cache of its own (22.1+): it is enabled, and main.js runs through it", () => {
  // Node 20 has no module.enableCompileCache: a preload gives it one that says it was called.
  const root = install("other-v8");
  rmSync(join(root, "dist", "bundle", CACHE));
  const fake = join(dir, "compile-cache.cjs");
  writeFileSync(fake, 'require("node:module").enableCompileCache = () => { require("node:fs").writeSync(2, "enableCompileCache\\n"); return { status: 0 }; };\n');
  // The vm.Script spy says nothing: main.script.js is not compiled; main.js (ESM) runs.
  assert.deepEqual(run(root, ["json", LOG], ["--require", fake, "--require", SPY]), { status: 0, stdout: JSON_OUT, stderr: "enableCompileCache\n" });
  rmSync(join(root, "dist", "bundle", "main.js"));
  const without = run(root, ["json", LOG], ["--require", fake]);
  assert.equal(without.status, 2, "main.js was not what ran");
});

test("bin lets the old generation grow by half at each major GC (--heap-growing-percent=50), set after the cached compile, not with --jobs workers", () => {
  // A preloaded hook notes each V8 flag bin sets in the main thread, each Worker it makes, and
  // whether the main bundle was compiled (and its code cache taken) by then.
  const hook = join(dir, "flags-hook.cjs");
  const log = join(dir, "flags.log");
  writeFileSync(
    hook,
    `const fs = require("node:fs"); const v8 = require("node:v8"); const vm = require("node:vm"); const wt = require("node:worker_threads");
     const note = (s) => { if (wt.isMainThread) fs.appendFileSync(${JSON.stringify(log)}, s + "\\n"); };
     const set = v8.setFlagsFromString; let compiled = false;
     v8.setFlagsFromString = (f) => { note(f + (compiled ? " after" : " before") + " the compile"); return set(f); };
     const Script = vm.Script;
     vm.Script = class extends Script { constructor(...a) { super(...a); compiled = true; if (this.cachedDataRejected) note("rejected"); } };
     const Worker = wt.Worker;
     wt.Worker = class extends Worker { constructor(...a) { note("worker made" + (compiled ? " after" : " before") + " the compile"); super(...a); } };`,
  );
  const r = run(".", ["json", LOG], ["--require", hook]);
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, JSON_OUT, ""]);
  assert.deepEqual(readFileSync(log, "utf8").split("\n"), [
    "--verify-snapshot-checksum before the compile",
    "--no-verify-snapshot-checksum after the compile",
    "--heap-growing-percent=50 after the compile",
    "",
  ]);
  // With a worker started early: made after the compile (a worker isolate made while a flag V8 did
  // not start with is set has node's own code caches rejected), and no heap flag (the same).
  rmSync(log);
  const j = run(".", ["json", "--jobs", "2", LOG, LOG], ["--require", hook]);
  assert.deepEqual([j.status, j.stdout, j.stderr], [0, JSON_OUT + JSON_OUT, ""]);
  assert.deepEqual(readFileSync(log, "utf8").split("\n"), [
    "--verify-snapshot-checksum before the compile",
    "--no-verify-snapshot-checksum after the compile",
    ...(CPUS >= 2 ? ["worker made after the compile"] : []),
    "",
  ]);
});
