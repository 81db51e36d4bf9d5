#!/usr/bin/env sh
':' //; command : 2>/dev/null 9>&1 || exec node "$0" "$@" 1</dev/null; exec node "$0" "$@"; exit 127

// Lines 1-2 are a POSIX sh / JavaScript polyglot. Run as a command (`cursorlog ...`, npm's bin
// links), line 1 starts sh, which execs node on this same file; node (`node bin/cursorlog.js ...`
// too) takes line 1 for a hashbang and line 2 for the string ':' and a comment.
//
// What sh is there for: a standard output closed by the shell (`cursorlog json run.ndjson >&-`).
// Node reopens a closed descriptor 0-2 on /dev/null, read-write, before any JavaScript runs, and
// that cannot be told from a parent that discards the output the same way (a Node parent's
// `stdio: "ignore"`, Python's subprocess.DEVNULL: status 0, no message). sh still sees fd 1
// closed: `dup2(1, 9)` fails only then (`: >&1` would not fail: shells skip a dup onto itself;
// `command` keeps the failed redirection of the special built-in `:` from ending sh). It hands
// node a stdout it cannot write, /dev/null read-only, so the first write fails as on any such
// stdout: `cursorlog: error: cannot write output: bad file descriptor`, status 2
// (src/cli/process-io.ts), and a run that writes nothing there (`-o FILE`) is not refused.
// `#!/usr/bin/env sh`, not `#!/bin/sh`: npm's Windows shims run a bin's interpreter by its name,
// and `sh` on PATH can be found where `/bin/sh` cannot (README LIMITATIONS).

// A CommonJS script (bin/package.json says so), not an ES module: node starts a CommonJS entry
// ~2 ms sooner, and takes builtins by require() without an ES module facade for each (~2 ms more).
"use strict";
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { setFlagsFromString } = require("node:v8");
const { Script } = require("node:vm");

const BUNDLE = join(__dirname, "..", "dist", "bundle");
// What src/jobs/early.ts gives a `--jobs` worker thread it starts on this file.
const WORKER_ARG = "--cursorlog-jobs-worker";

// A `--jobs` worker thread: the worker bundle, dist/bundle/worker.script.js, with its own code
// cache (made by running --jobs workers at build time: the functions a file needs come compiled,
// not only the bundle's top level); the ES module worker.js where that script is not there. It
// waits for its files in messages (src/jobs/worker.ts). Nothing else here concerns it: signals
// go to the process's main thread.
if (process.argv[2] === WORKER_ARG && !require("node:worker_threads").isMainThread) {
  if (loadScript("worker") === undefined) import(pathToFileURL(join(BUNDLE, "worker.js")).href);
  return;
}

// Interrupted: what was complete has been written already (stdout writes to pipes and files are
// synchronous on POSIX); end with the shell's status for the signal, through process.exit, so that
// the `-o` temporary file and the `--jobs` temporary folder go on the way out ("exit" listeners):
// a signal left to its default action (a closed terminal's SIGHUP, Ctrl-\'s SIGQUIT, `timeout -s
// ALRM`'s SIGALRM) ended the process at once and left them behind. (Installed before process.stdin
// is first touched: test/robust-faults.test.ts takes fd 0 turning non-blocking as the sign they are.)
for (const [signal, status] of [["SIGHUP", 129], ["SIGINT", 130], ["SIGQUIT", 131], ["SIGALRM", 142], ["SIGTERM", 143]]) {
  process.on(signal, () => process.exit(status));
}

/** The bundle NAME (compileScript), run; its exports (undefined where it was not compiled). */
function loadScript(name) {
  return runScript(compileScript(name));
}

/**
 * The bundle NAME (main: the command line; worker: a --jobs worker), dist/bundle/NAME.script.js,
 * compiled with the V8 code cache made at build time (scripts/code-cache.mjs, named for the V8
 * that made it), not run yet. Node 20 has no code cache for ES modules, and compiling the main
 * bundle was ~6 ms of every start. A cache V8 rejects (other V8 flags, damaged) costs only its
 * read: the script is compiled without it. Nothing is written here. undefined where the script is
 * not there (an older build: the caller loads the ES module instead), or where this V8 has no
 * cache but node has a compile cache of its own for modules (below).
 */
function compileScript(name) {
  const file = join(BUNDLE, `${name}.script.js`);
  let source, cachedData;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    cachedData = readFileSync(join(BUNDLE, `${name}-v8-${process.versions.v8}.cache`));
  } catch {
    // None made by this V8 (a package built by another Node.js). Where node has a compile cache
    // of its own for modules (22.1+; kept in os.tmpdir(), NODE_COMPILE_CACHE, off with
    // NODE_DISABLE_COMPILE_CACHE=1; it never throws), the ES module through it; else compiled without.
    const { enableCompileCache } = require("node:module");
    if (typeof enableCompileCache === "function") {
      enableCompileCache();
      return undefined;
    }
  }
  // V8 checks a cache's version, flags and length, but its checksum only when asked: a damaged
  // cache would crash node. Asked for that one compile (the cache was made with the same flag,
  // which is part of what must match), then the flag goes back, as node's own caches expect it.
  if (cachedData !== undefined) setFlagsFromString("--verify-snapshot-checksum");
  let script;
  try {
    script = new Script(source, { filename: file, cachedData });
  } finally {
    if (cachedData !== undefined) setFlagsFromString("--no-verify-snapshot-checksum");
  }
  return { script, file };
}

function runScript(compiled) {
  if (compiled === undefined) return undefined;
  const { script, file } = compiled;
  const mod = { exports: {} };
  const url = pathToFileURL(file);
  const req = createRequire(file);
  // The bundles apart are ES modules; a builtin (stream-json's node:string_decoder, at load) is
  // required: the same exports, without starting the ES module loader for it (~1 ms).
  const load = (spec) => (spec.startsWith("./") ? import(new URL(spec, url).href) : Promise.resolve().then(() => req(spec)));
  script.runInThisContext()(mod.exports, req, mod, file, dirname(file), url.href, load);
  return mod.exports;
}

async function loadModule() {
  try {
    return await import(pathToFileURL(join(BUNDLE, "main.js")).href);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("dist/bundle/main.js")) throw err;
    const root = `${join(__dirname, "..")}/`;
    process.stderr.write(`cursorlog: not built: ${root}dist/ is missing; run 'npm install' (which builds it) or 'npm run build' in ${root}\n`);
    process.exit(2);
  }
}

const ARGS = process.argv.slice(2);
const compiled = compileScript("main");

// `--jobs N`: its worker threads are started now, before the main bundle runs (src/jobs/early.ts;
// ~20 ms each of start-up on other cores), on this file (above); a run that does not use them
// ends them. A look for the option's name only: early.cjs reads the number as commander will.
// After the compile: a worker whose isolate is made while --verify-snapshot-checksum is set (or
// any flag V8 did not start with) has node's own code caches rejected, and took ~20 ms longer.
let workers = 0;
if (ARGS.some((a) => a.startsWith("-j") || a.startsWith("--jobs"))) {
  try {
    workers = require(join(BUNDLE, "early.cjs")).startEarly(ARGS, pathToFileURL(__filename), [WORKER_ARG]);
  } catch (err) {
    // An older build without it: the pool starts its own workers.
    if (err?.code !== "MODULE_NOT_FOUND") throw err;
  }
}

(async () => {
  const { main, processIo } = runScript(compiled) ?? (await loadModule());
  // The old generation grows by half at each major GC, not by V8's own factor (up to 4x when the
  // collector is fast, which it is on our short-lived garbage): on a 1 GB log `validate` and
  // `stats` peaked at 145-165 MB of RSS, most of it garbage not yet collected; with this, ~120 MB
  // at the same speed for validate (issue 16's 120 MB target). Read at each GC, so it takes effect
  // set here. After the bundle is compiled, as V8 takes a code cache only under the flags it was
  // made with, and after its top level has run: a flag V8 did not start with has node's code cache
  // of its own modules rejected too, so each one required later is compiled from source. Not with
  // --jobs workers (their commands keep little: json, text, filter, timeline, export), which load
  // node's modules and their bundle while this runs: set now, it made each start ~20 ms later.
  if (workers === 0) setFlagsFromString("--heap-growing-percent=50");
  // Failed writes, closed pipes, a directory as stdin: src/cli/process-io.ts.
  process.exitCode = await main(ARGS, processIo());
  // One more turn of the event loop before exiting: a signal that came during the last stretch of
  // synchronous work is waiting in it, and a loop that has nothing left to do would end without
  // reading it (the run would exit 0 after Ctrl-C). Two immediates, not setTimeout(0), which
  // waited 1 ms for nothing: between two check phases the loop always polls (signals included);
  // one immediate is not enough when the run ended in a poll callback (its check phase comes next).
  await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
})();
