#!/usr/bin/env node
// Runs the built cursorlog (bin/cursorlog.js, so `npm run build` first) with the given arguments
// and, when it exits for whatever reason (end, signal, EPIPE), writes what memory it held at most
// to the file named first, as JSON:
//
//   node --expose-gc test/stress/peak-live.mjs /tmp/mem.json json --max-line-bytes 1M < big.ndjson
//
// "Held" is the live memory: V8's heap in use plus the memory outside it that JavaScript objects
// keep (Buffers and other ArrayBuffers: process.memoryUsage().external), measured right after a
// full and a young-generation garbage collection, every SAMPLE_MS (default 50) while the run goes
// on and once at its end. Garbage a collector has not come to yet is not counted, so the figure
// does not depend on when the collector runs (which the load of the machine changes); what the
// program keeps is. The peak RSS (process.resourceUsage().maxRSS, which does count that garbage) is
// written too, for information.
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
  // A full collection, then a young-generation one: the full one frees the Buffers it found dead
  // on a background thread and counts them gone only when that is done; the next collection, of
  // either kind, waits for that first. The young one (a scavenge, ~1 ms) gives the same figures as
  // a second full one (a 40 MiB Buffer freed: 41.5 MiB external after the first, 1.5 after
  // either) at a fraction of its cost (~20 ms at 13 MiB held: a run sampled every 50 ms took 1.15
  // CPU s with two full ones, 0.8 with this, 0.75 unsampled).
  gc();
  gc({ type: "minor" });
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
