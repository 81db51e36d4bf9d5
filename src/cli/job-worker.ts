import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import { parentPort, workerData } from "node:worker_threads";
import type { JobData, JobResult, JobTask } from "./parallel.js";
import { main } from "./main.js";

// A `--jobs` worker: runs the command line on each file it is sent (null: no more files).
const data = workerData as JobData;

async function runFile(task: JobTask): Promise<JobResult> {
  const out = createWriteStream(task.outPath);
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
    onlyFile: task.onlyFile,
  });
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { code, stderr };
}

parentPort!.on("message", (task: JobTask | null) => {
  if (task === null) return void parentPort!.close();
  void runFile(task).then((r) => parentPort!.postMessage(r));
});
