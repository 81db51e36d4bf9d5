#!/usr/bin/env node
// Runs the built cursorlog (bin/cursorlog.js, so `npm run build` first) with the given arguments
// and, when it exits for whatever reason (end, signal, EPIPE), writes its peak resident set size
// in KiB (process.resourceUsage().maxRSS) to the file named first:
//
//   node test/stress/peak-rss.mjs /tmp/rss.txt filter big.ndjson > /dev/null; cat /tmp/rss.txt
//
// Used by test/robust-*.test.ts and the stress scripts to bound memory per run.
import { writeFileSync } from "node:fs";

const [out, ...args] = process.argv.slice(2);
if (!out) {
  process.stderr.write("usage: node test/stress/peak-rss.mjs OUTFILE [cursorlog arguments…]\n");
  process.exit(2);
}
process.on("exit", () => writeFileSync(out, `${process.resourceUsage().maxRSS}\n`));
process.argv = [process.argv[0], "cursorlog", ...args];
await import("../../bin/cursorlog.js");
