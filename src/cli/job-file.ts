import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import type { JobData, JobResult, JobTask } from "./parallel.js";
import { main } from "./main.js";

/**
 * One file of a `--jobs` run, in this thread: the command line on file number `task.onlyFile`,
 * its output into `task.outPath`, its diagnostics kept for the coordinator to write in order.
 */
export async function runJobFile(data: JobData, task: JobTask, stopped?: () => boolean): Promise<JobResult> {
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
    ...(stopped !== undefined && { stopped }),
  });
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { code, stderr };
}
