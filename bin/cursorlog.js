#!/usr/bin/env node

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
