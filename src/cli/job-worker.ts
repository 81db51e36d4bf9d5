import { parentPort, workerData } from "node:worker_threads";
import { runJobFile } from "./job-file.js";
import type { JobData, JobTask } from "./parallel.js";

// A `--jobs` worker thread: runs the command line on each file it is sent (null: no more files).
const data = workerData as JobData;

parentPort!.on("message", (task: JobTask | null) => {
  if (task === null) return void parentPort!.close();
  void runJobFile(data, task).then((r) => parentPort!.postMessage(r));
});
