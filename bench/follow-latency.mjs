#!/usr/bin/env node
// How soon `cursorlog filter -f` / `-F` shows a line after it is appended, and what it costs while
// it waits (CPU from /proc, Linux only). Never run by CI; nothing asserts on these figures.
//
//   node bench/follow-latency.mjs [WRITES] [IDLE_SECONDS]     # defaults: 50 10
//   CURSORLOG="node dist/bin/cursorlog.js" node bench/follow-latency.mjs
//
// Each of WRITES appends one line of test/fixtures/2026-long.ndjson (the last one its result) after
// a random pause of 0–200 ms and waits for filter's copy of it on stdout: the time between the two
// is the latency. Then, for the idle cost, a run is followed that gets no new line for IDLE_SECONDS.
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const WRITES = Number(process.argv[2] ?? 50);
const IDLE_S = Number(process.argv[3] ?? 10);
const CURSORLOG = (process.env.CURSORLOG ?? "node bin/cursorlog.js").split(" ");
const LINES = readFileSync("test/fixtures/2026-long.ndjson", "utf8").split("\n").slice(0, -1).map((l) => l + "\n");
const dir = mkdtempSync(join(tmpdir(), "cursorlog-follow-bench-"));

function start(mode, log) {
  const child = spawn(CURSORLOG[0], [...CURSORLOG.slice(1), "filter", mode, log], { stdio: ["ignore", "pipe", "inherit"] });
  let lines = 0;
  let waiter = () => {};
  child.stdout.setEncoding("utf8").on("data", (d) => {
    lines += d.split("\n").length - 1;
    waiter();
  });
  const until = (n) => new Promise((resolve) => ((waiter = () => lines >= n && resolve()), waiter()));
  return { child, until, closed: new Promise((resolve) => child.on("close", resolve)) };
}

function cpuTicks(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (100 a second on Linux)
}

async function latency(mode) {
  const log = join(dir, `latency${mode}.ndjson`);
  writeFileSync(log, LINES[0]);
  const r = start(mode, log);
  await r.until(1);
  const ms = [];
  for (let i = 1; i <= WRITES; i++) {
    await sleep(Math.random() * 200);
    const t = performance.now();
    // Lines 2–50 over and over; the result last.
    appendFileSync(log, i === WRITES ? LINES[50] : LINES[1 + ((i - 1) % 49)]);
    await r.until(i + 1);
    ms.push(performance.now() - t);
  }
  await r.closed;
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(0);
  return `| \`filter ${mode}\` | ${WRITES} | ${at(0.5)} ms | ${at(0.9)} ms | ${ms[ms.length - 1].toFixed(0)} ms |`;
}

async function idle(mode) {
  const log = join(dir, `idle${mode}.ndjson`);
  writeFileSync(log, LINES.slice(0, 12).join(""));
  const r = start(mode, log);
  await r.until(12);
  const a = cpuTicks(r.child.pid);
  const t = performance.now();
  await sleep(IDLE_S * 1000);
  const ticks = cpuTicks(r.child.pid) - a;
  const s = (performance.now() - t) / 1000;
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${r.child.pid}/status`, "utf8"))[1];
  r.child.kill("SIGINT");
  await r.closed;
  return `| \`filter ${mode}\`, waiting | ${s.toFixed(0)} s | ${((ticks / 100 / s) * 100).toFixed(2)} % of a core | ${(rss / 1024).toFixed(0)} MiB RSS |`;
}

try {
  console.log("| follow | writes | median | 90th percentile | max |\n| --- | --- | --- | --- | --- |");
  for (const mode of ["-f", "-F"]) console.log(await latency(mode));
  console.log("\n| follow | for | CPU | memory |\n| --- | --- | --- | --- |");
  for (const mode of ["-f", "-F"]) console.log(await idle(mode));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
