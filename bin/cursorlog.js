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

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";

// Interrupted: what was complete has been written already (stdout writes to pipes and files are
// synchronous on POSIX); end with the shell's status for the signal. (Installed before process.stdin
// is first touched: test/robust-faults.test.ts takes fd 0 turning non-blocking as the sign they are.)
for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.on(signal, () => process.exit(status));
}

// The command line, dist/bundle/main.script.js, compiled with the V8 code cache made at build time
// (scripts/code-cache.mjs): Node 20 has no code cache for ES modules, and compiling the bundle was
// ~6 ms of every start. A cache V8 rejects (another Node.js, other V8 flags) costs only its read:
// the script is compiled without it. Nothing is written. Where this file cannot be used (an
// older build), the ES module main.js; where neither is there (`npm install -g .` of an unbuilt
// clone), how to build it, not a module-not-found stack trace.
const BUNDLE = new URL("../dist/bundle/", import.meta.url);
const { main, processIo } = loadScript() ?? (await loadModule());

function loadScript() {
  const file = fileURLToPath(new URL("main.script.js", BUNDLE));
  let source, cachedData;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    cachedData = readFileSync(fileURLToPath(new URL("main.cache", BUNDLE)));
  } catch {
    // no cache: compiled without
  }
  // V8 checks a cache's version, flags and length, but its checksum only when asked: a damaged
  // cache would crash node. Asked for that one compile (main.cache was made with the same flag,
  // which is part of what must match), then the flag goes back, as node's own caches expect it.
  if (cachedData !== undefined) setFlagsFromString("--verify-snapshot-checksum");
  let script;
  try {
    script = new Script(source, { filename: file, cachedData });
  } finally {
    if (cachedData !== undefined) setFlagsFromString("--no-verify-snapshot-checksum");
  }
  const module = { exports: {} };
  const load = (spec) => import(spec.startsWith("./") ? new URL(spec, BUNDLE).href : spec);
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href, load);
  return module.exports;
}

async function loadModule() {
  try {
    return await import(new URL("main.js", BUNDLE).href);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("dist/bundle/main.js")) throw err;
    const root = new URL("..", import.meta.url).pathname;
    process.stderr.write(`cursorlog: not built: ${root}dist/ is missing; run 'npm install' (which builds it) or 'npm run build' in ${root}\n`);
    process.exit(2);
  }
}

// Failed writes, closed pipes, a directory as stdin: src/cli/process-io.ts.
process.exitCode = await main(process.argv.slice(2), processIo());

// One more turn of the event loop before exiting: a signal that came during the last stretch of
// synchronous work is waiting in it, and a loop that has nothing left to do would end without
// reading it (the run would exit 0 after Ctrl-C).
await new Promise((resolve) => setTimeout(resolve, 0));
