// Makes dist/bundle/main-v8-<V8 version>.cache and worker-v8-<V8 version>.cache, the V8 code caches
// bin/cursorlog.js hands to vm.Script with dist/bundle/main.script.js and, in a --jobs worker
// thread, worker.script.js (scripts/bundle.mjs runs it, in a node of its own started without
// flags, as users start it; bin sets a flag of its own only after both are compiled).
// - main: it compiles the script as bin does, runs a few commands in-process over
//   examples/session.ndjson, so that the functions a run needs are compiled too, and saves what
//   V8 has compiled, with a checksum (--verify-snapshot-checksum while it is made, as bin sets it
//   while the cache is read).
// - worker: it runs `cursorlog CMD --jobs 2` over copies of that log for each command that has
//   --jobs, with scripts/worker-cache-hook.cjs preloaded, which saves the worker's cache after
//   each task it ran; each run starts from the cache the one before saved, and adds to it. On a
//   machine with one CPU, --jobs starts no worker: there is no worker cache (workers then compile
//   their bundle, as before it existed).
// V8 checks a cache against its version, its flags, the source's length and, so, the checksum: a
// cache made by another Node.js, or damaged, is rejected and the script compiled as if there were
// none (bin/cursorlog.js), never a failure.
//   node scripts/code-cache.mjs
import { spawnSync } from "node:child_process";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import vm from "node:vm";

const root = new URL("..", import.meta.url).pathname;
const file = resolve(root, "dist/bundle/main.script.js");
// Compiled with the flag bin sets while it reads the cache: the flags are part of what must match.
setFlagsFromString("--verify-snapshot-checksum");
const script = new vm.Script(readFileSync(file, "utf8"), { filename: file });
setFlagsFromString("--no-verify-snapshot-checksum");
const module = { exports: {} };
const req = createRequire(file);
script.runInThisContext()(module.exports, req, module, file, dirname(file), pathToFileURL(file).href, (spec) =>
  spec.startsWith("./") ? import(new URL(spec, pathToFileURL(file)).href) : Promise.resolve().then(() => req(spec)),
);
const { main } = module.exports;

const sink = () => new Writable({ write: (_chunk, _enc, cb) => cb() });
const log = resolve(root, "examples/session.ndjson");
const runs = [["json", log], ["text", log], ["filter", "--type", "tool_call", log], ["timeline", log], ["--version"]];
for (const argv of runs) {
  const stderr = new PassThrough();
  let said = "";
  stderr.on("data", (d) => (said += d));
  const code = await main(argv, { stdin: Readable.from([]), stdout: sink(), stderr, env: { TZ: "UTC", NO_COLOR: "1" }, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false });
  if (code !== 0) throw new Error(`code-cache.mjs: cursorlog ${argv.join(" ")} ended with status ${code}: ${said}`);
}
setFlagsFromString("--verify-snapshot-checksum");
const cache = script.createCachedData();
setFlagsFromString("--no-verify-snapshot-checksum");
// Whole or not at all: a cache cut short is rejected by V8 anyway, but a build stopped here leaves none.
const out = resolve(root, `dist/bundle/main-v8-${process.versions.v8}.cache`);
writeFileSync(`${out}.tmp`, cache);
renameSync(`${out}.tmp`, out);

// The worker's, from real --jobs runs (see above).
const workerCache = resolve(root, `dist/bundle/worker-v8-${process.versions.v8}.cache`);
rmSync(workerCache, { force: true });
if (availableParallelism() < 2) {
  process.stderr.write("code-cache.mjs: one CPU, so --jobs starts no worker thread: no worker code cache (workers compile their bundle)\n");
} else {
  // Enough files that the worker, which starts some 20-50 ms after this thread, is given some.
  const logs = Array.from({ length: 200 }, () => log);
  const bin = resolve(root, "bin/cursorlog.js");
  const env = { ...process.env, TZ: "UTC", NO_COLOR: "1", CURSORLOG_WORKER_CACHE_OUT: workerCache };
  for (const args of [["json"], ["text"], ["filter", "--type", "tool_call"], ["timeline"], ["export"]]) {
    const cli = (argv, node = []) => spawnSync(process.execPath, [...node, bin, ...argv], { env, maxBuffer: 1 << 30 });
    const pool = cli([...args, "--jobs", "2", ...logs], ["--require", resolve(root, "scripts/worker-cache-hook.cjs")]);
    const said = String(pool.stderr);
    // That --jobs 2 writes what one thread writes, through the executable and this cache, for each
    // of these commands, is test/jobs.test.ts's ("--jobs through the real executable"); here, only
    // that the run went well and a cache was written (a run over the same files with one thread, to
    // compare, was 4 of the build's CPU seconds).
    if (pool.status !== 0 || !/^worker cache: \w+, wrote after \d+ tasks$/m.test(said)) {
      throw new Error(`code-cache.mjs: cursorlog ${args.join(" ")} --jobs 2: status ${pool.status}; stderr:\n${said}`);
    }
  }
}
