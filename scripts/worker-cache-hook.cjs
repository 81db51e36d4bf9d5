// Preloaded (node --require) by scripts/code-cache.mjs into `cursorlog CMD --jobs 2` runs, to make
// dist/bundle/worker-v8-<V8 version>.cache; never part of what is installed and run. A preload
// runs in worker threads too: in a --jobs worker, it keeps the vm.Script that bin/cursorlog.js
// compiles dist/bundle/worker.script.js into, and each time the worker sends back a result (a
// task of files done, every function it needed compiled by then) writes that script's code cache
// to $CURSORLOG_WORKER_CACHE_OUT, with --verify-snapshot-checksum set as bin sets it while it
// reads the cache (the flags are part of what must match), and says so on stderr:
//   worker cache: accepted|rejected|none, wrote after N tasks
// (what V8 did with the cache bin gave it: the one an earlier run wrote, which this run adds to).
const { isMainThread, parentPort } = require("node:worker_threads");

if (!isMainThread) {
  const { renameSync, writeFileSync, writeSync } = require("node:fs");
  const { setFlagsFromString } = require("node:v8");
  const vm = require("node:vm");
  const out = process.env.CURSORLOG_WORKER_CACHE_OUT;
  if (!out) throw new Error("worker-cache-hook.cjs: CURSORLOG_WORKER_CACHE_OUT is not set");
  let script;
  let fate = "not compiled";
  const Script = vm.Script;
  vm.Script = class extends Script {
    constructor(source, options) {
      super(source, options);
      if (String(options && options.filename).endsWith("worker.script.js")) {
        script = this;
        fate = options.cachedData === undefined ? "none" : this.cachedDataRejected ? "rejected" : "accepted";
      }
    }
  };
  let tasks = 0;
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.postMessage = (message, ...rest) => {
    if (message !== "ready" && script !== undefined) {
      tasks++;
      setFlagsFromString("--verify-snapshot-checksum");
      const cache = script.createCachedData();
      setFlagsFromString("--no-verify-snapshot-checksum");
      writeFileSync(`${out}.tmp`, cache);
      renameSync(`${out}.tmp`, out);
      writeSync(2, `worker cache: ${fate}, wrote after ${tasks} tasks\n`);
    }
    return post(message, ...rest);
  };
}
