#!/usr/bin/env node
// Runs the built cursorlog (bin/cursorlog.js, so `npm run build` first) with the given arguments
// and, when it exits for whatever reason (end, signal, EPIPE), writes what memory it held at most
// to the file named first, as JSON:
//
//   node --expose-gc test/stress/peak-live.mjs /tmp/mem.json json --max-line-bytes 1M < big.ndjson
//
// "Held" is the live memory: V8's heap in use plus the memory outside it that JavaScript objects
// keep (Buffers and other ArrayBuffers: process.memoryUsage().external), measured right after two
// full garbage collections, every SAMPLE_MS (default 50) while the run goes on and once at its
// end. Garbage a collector has not come to yet is not counted, so the figure does not depend on
// when the collector runs (which the load of the machine changes); what the program keeps is.
// The peak RSS (process.resourceUsage().maxRSS, which does count that garbage) is written too,
// for information.
//
//   { "peakLive": bytes, "peakHeap": bytes, "peakExternal": bytes, "samples": n, "maxRssKiB": KiB }
import { writeFileSync } from "node:fs";

const [out, ...args] = process.argv.slice(2);
const gc = globalThis.gc;
if (!out || typeof gc !== "function") {
  process.stderr.write("usage: node --expose-gc test/stress/peak-live.mjs OUTFILE [cursorlog arguments…]\n");
  process.exit(2);
}
const every = Number(process.env.SAMPLE_MS ?? 50);
let peakLive = 0;
let peakHeap = 0;
let peakExternal = 0;
let samples = 0;
function sample() {
  // Twice: a collection frees the Buffers it found dead on a background thread and counts them
  // gone only when that is done; the second one waits for the first one's to finish.
  gc();
  gc();
  const m = process.memoryUsage();
  samples++;
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakExternal = Math.max(peakExternal, m.external);
  peakLive = Math.max(peakLive, m.heapUsed + m.external);
}
sample();
setInterval(sample, every).unref();
process.on("exit", () => {
  sample();
  writeFileSync(out, JSON.stringify({ peakLive, peakHeap, peakExternal, samples, maxRssKiB: process.resourceUsage().maxRSS }) + "\n");
});
process.argv = [process.argv[0], "cursorlog", ...args];
await import("../../bin/cursorlog.js");
