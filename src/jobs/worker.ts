import { parentPort, workerData } from "node:worker_threads";
import { runJobFile, type JobData, type JobTask } from "./run-file.js";

// A `--jobs` worker thread: builds the command's stage for each file it is sent and runs it
// (null: no more files). It never sees the command line.
const data = workerData as JobData;

parentPort!.on("message", (task: JobTask | null) => {
  if (task === null) return void parentPort!.close();
  void runJobFile(data, task).then(
    (r) => parentPort!.postMessage(r),
    (err: unknown) => parentPort!.postMessage({ code: 2, stderr: "", tally: 0, halted: false, failure: err instanceof Error ? err.message : String(err) }),
  );
});
parentPort!.postMessage("ready");
