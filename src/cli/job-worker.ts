import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import { parentPort, workerData } from "node:worker_threads";
import type { JobData, JobResult } from "./parallel.js";
import { main } from "./main.js";

// One file of a `--jobs` run: the same command line, restricted to file number `onlyFile`.
const data = workerData as JobData;
const out = createWriteStream(data.outPath);
let stderr = "";
const code = await main(data.argv, {
  stdin: Readable.from([]),
  stdout: out,
  stderr: new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      stderr += chunk.toString();
      cb();
    },
  }),
  env: data.env,
  stdinIsTTY: false,
  stdoutIsTTY: data.stdoutIsTTY,
  stderrIsTTY: data.stderrIsTTY,
  onlyFile: data.onlyFile,
});
await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
parentPort!.postMessage({ code, stderr } satisfies JobResult);
