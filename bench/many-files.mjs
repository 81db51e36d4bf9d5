#!/usr/bin/env node
// How the time of a run over a folder grows with its number of files: a folder of N tiny logs
// (one session each, ~400 bytes) for each N, `cursorlog COMMAND DIR > /dev/null` once each, and
// the CPU time per file. It should stay about flat: 100,000 files about ten times 10,000. (A read
// buffer left unreturned at each file's end once made it grow with N: 10k files 6.5 s of CPU,
// 20k 30.8 s; see test/attack-folders.test.ts, which counts the buffers instead of timing.)
//
//   npm run build && node bench/many-files.mjs                 # 10000 and 100000 files, json
//   node bench/many-files.mjs 10000 20000 40000                # other counts
//   COMMAND="text -v" JOBS=2 node bench/many-files.mjs         # another command, --jobs
//   CURSORLOG="node /elsewhere/bin/cursorlog.js" node bench/many-files.mjs
//
// Needs GNU time (/usr/bin/time) for CPU time and peak RSS; writes the folders under TMPDIR
// (~4 KB of disk per file: 400 MB for 100,000) and removes them. Prints a Markdown table.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const counts = process.argv.slice(2).map(Number);
if (counts.length === 0) counts.push(10_000, 100_000);
const command = (process.env.COMMAND ?? "json").split(" ");
const jobs = process.env.JOBS ? ["--jobs", process.env.JOBS] : [];
const cursorlog = (process.env.CURSORLOG ?? `node ${join(import.meta.dirname ?? ".", "..", "bin", "cursorlog.js")}`).split(" ");
if (!existsSync("/usr/bin/time")) throw new Error("GNU time (/usr/bin/time) is needed: apt-get install time");

const log = (i) =>
  `{"type":"system","subtype":"init","session_id":"s${i}","model":"m","cwd":"/w"}\n` +
  `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"go"}]},"session_id":"s${i}"}\n` +
  `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]},"session_id":"s${i}"}\n` +
  `{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"duration_api_ms":1,"result":"done","session_id":"s${i}"}\n`;

const root = mkdtempSync(join(tmpdir(), "cursorlog-many-files-"));
const rows = [];
try {
  for (const n of counts) {
    const dir = join(root, String(n));
    mkdirSync(dir);
    for (let i = 0; i < n; i++) writeFileSync(join(dir, `${String(i).padStart(7, "0")}.ndjson`), log(i));
    const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", ...cursorlog, ...command, ...jobs, dir], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    const last = r.stderr.trim().split("\n").at(-1);
    const [wall, user, sys, rss] = last.split(" ").map(Number);
    rows.push({ n, status: r.status, wall, cpu: user + sys, rss: rss / 1024 });
    process.stderr.write(`${n} files: status ${r.status}, ${wall} s\n`);
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const base = rows[0];
console.log(`\`cursorlog ${[...command, ...jobs].join(" ")} DIR > /dev/null\`, one run each\n`);
console.log("| files | status | wall | CPU (user + sys) | CPU per file | CPU vs first row | files vs first row | peak RSS |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(
    `| ${r.n} | ${r.status} | ${r.wall.toFixed(1)} s | ${r.cpu.toFixed(1)} s | ${((r.cpu / r.n) * 1e6).toFixed(0)} µs | ${(r.cpu / base.cpu).toFixed(1)}× | ${(r.n / base.n).toFixed(0)}× | ${r.rss.toFixed(0)} MiB |`,
  );
}
