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

// Interrupted: what was complete has been written already (stdout writes to pipes and files are
// synchronous on POSIX); end with the shell's status for the signal. (Installed before process.stdin
// is first touched: test/robust-faults.test.ts takes fd 0 turning non-blocking as the sign they are.)
for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.on(signal, () => process.exit(status));
}

// A clone installed before it was built (`npm install -g .` with scripts off, a copied checkout):
// say how to build it, not a module-not-found stack trace.
const BUNDLE = new URL("../dist/bundle/main.js", import.meta.url);
let main, processIo;
try {
  ({ main, processIo } = await import(BUNDLE.href));
} catch (err) {
  if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("dist/bundle/main.js")) throw err;
  const root = new URL("..", import.meta.url).pathname;
  process.stderr.write(`cursorlog: not built: ${root}dist/ is missing; run 'npm install' (which builds it) or 'npm run build' in ${root}\n`);
  process.exit(2);
}

// Failed writes, closed pipes, a directory as stdin: src/cli/process-io.ts.
process.exitCode = await main(process.argv.slice(2), processIo());

// One more turn of the event loop before exiting: a signal that came during the last stretch of
// synchronous work is waiting in it, and a loop that has nothing left to do would end without
// reading it (the run would exit 0 after Ctrl-C).
await new Promise((resolve) => setTimeout(resolve, 0));
