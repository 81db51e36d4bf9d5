#!/usr/bin/env node
import { main, processIo } from "../../dist/bundle-re2js/main.js";

// Interrupted: what was complete has been written already (stdout writes to pipes and files are
// synchronous on POSIX); end with the shell's status for the signal. (Installed before process.stdin
// is first touched: test/robust-faults.test.ts takes fd 0 turning non-blocking as the sign they are.)
for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.on(signal, () => process.exit(status));
}

// Failed writes, closed pipes, a directory as stdin: src/cli/process-io.ts, as bin/cursorlog.js does.
process.exitCode = await main(process.argv.slice(2), processIo());
