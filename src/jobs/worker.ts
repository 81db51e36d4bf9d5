import { parentPort, workerData } from "node:worker_threads";
import { runJobFile, type JobData, type JobTask } from "./run-file.js";

// A `--jobs` worker thread: builds the command's stage for each file it is sent and runs it
// (null: no more files). It never sees the command line. Started early (early.ts), before the
// command line was parsed, it has no workerData: its data comes first, as { data }.
let data = workerData as JobData | undefined;

parentPort!.on("message", (task: JobTask | { data: JobData } | null) => {
  if (task === null) return void parentPort!.close();
  if (!("outPath" in task)) return void (data = task.data);
  void runJobFile(data!, task).then(
    (r) => parentPort!.postMessage(r),
    (err: unknown) => parentPort!.postMessage({ code: 2, stderr: "", tally: 0, halted: false, failure: err instanceof Error ? err.message : String(err) }),
  );
});
parentPort!.postMessage("ready");
