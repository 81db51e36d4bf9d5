// Makes dist/bundle/main-v8-<V8 version>.cache, the V8 code cache bin/cursorlog.js hands to vm.Script with
// dist/bundle/main.script.js (scripts/bundle.mjs runs it, in a node of its own started without
// flags, as users start it). It compiles the script as bin does, runs a few commands in-process
// over examples/session.ndjson, so that the functions a run needs are compiled too, and saves
// what V8 has compiled, with a checksum (--verify-snapshot-checksum while it is made, as bin
// sets it while the cache is read). V8 checks the cache against its version, its flags, the
// source's length and, so, the checksum: a cache made by another Node.js, or damaged, is rejected
// and the script compiled as if there were none (bin/cursorlog.js), never a failure.
//   node scripts/code-cache.mjs
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
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
