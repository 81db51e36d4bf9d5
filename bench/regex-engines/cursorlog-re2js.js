#!/usr/bin/env node
import { main } from "../../dist/bundle-re2js/main.js";

// Interrupted: what was complete has been written already (stdout writes to pipes and files are
// synchronous on POSIX); end with the shell's status for the signal. (Installed before process.stdin
// is first touched: test/robust-faults.test.ts takes fd 0 turning non-blocking as the sign they are.)
for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.on(signal, () => process.exit(status));
}

// A reader that went away (`| head`) is not an error, wherever the write came from (help text too).
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdinIsTTY: process.stdin.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});
