import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { Worker } from "node:worker_threads";
import { ExitCode, worse } from "../exit-codes.js";
import { isBrokenPipe } from "../stream/run-stage.js";
import type { Io } from "./io.js";

/** What a worker sends back for its file. */
export interface JobResult {
  code: ExitCode;
  stderr: string;
}

/** Passed to each worker once: the command line, and what it may know of the terminal. */
export interface JobData {
  argv: readonly string[];
  env: Io["env"];
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

/** Sent to a worker for each file: rerun the command line on file number `onlyFile`, stdout into `outPath`. */
export interface JobTask {
  onlyFile: number;
  outPath: string;
}

const FROM_SOURCE = import.meta.url.endsWith(".ts");
const WORKER = new URL(FROM_SOURCE ? "./job-worker.ts" : "./job-worker.js", import.meta.url);
/** Run from TypeScript sources (the tests), a worker registers tsx's loader before loading its entry. */
const TS_BOOT = `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(WORKER.href)}); })`;

/**
 * `--jobs N`: N runners take the input files one after another, each running the same command
 * line on one file: this thread and N-1 worker threads (fewer if there are fewer files). A worker
 * is started once and kept for the files it takes next, so its start-up and JIT warm-up are paid
 * once, not once a file. Each file's output goes to a temporary file; the outputs are copied to
 * stdout strictly in file order, with each file's diagnostics, so the result is byte-identical to
 * a sequential run and memory stays bounded whatever the output size.
 */
export async function runParallel(io: Io, argv: readonly string[], fileCount: number, jobs: number): Promise<ExitCode> {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-jobs-"));
  const data: JobData = { argv, env: io.env, stdoutIsTTY: io.stdoutIsTTY, stderrIsTTY: io.stderrIsTTY };
  const results = Array.from({ length: fileCount }, () => deferred<JobResult>());
  let stopped = false;
  const { runJobFile } = await import("./job-file.js");
  const here: Runner = { run: (task) => runJobFile(data, task, () => stopped), end: () => undefined };
  const workers = Array.from({ length: Math.min(jobs, fileCount) - 1 }, () => startWorker(data));
  let next = 0;
  const take = (r: Runner): void => {
    if (stopped || next >= fileCount) return r.end();
    const i = next++;
    const task: JobTask = { onlyFile: i, outPath: join(dir, `${i}.out`) };
    r.run(task).then(
      (result) => {
        results[i]!.resolve(result);
        take(r);
      },
      (err: unknown) => {
        results[i]!.reject(err);
        for (let k = next; k < fileCount; k++) results[k]!.reject(err);
        next = fileCount;
      },
    );
  };
  for (const r of [...workers, here]) take(r);
  let code: ExitCode = ExitCode.OK;
  try {
    for (let i = 0; i < fileCount; i++) {
      const r = await results[i]!.promise;
      try {
        await copyInto(io.stdout, join(dir, `${i}.out`));
      } catch (err) {
        if (isBrokenPipe(err)) return ExitCode.OK;
        throw err;
      }
      if (r.stderr !== "") io.stderr.write(r.stderr);
      code = worse(code, r.code);
    }
  } finally {
    // Done, or stopped early (the reader of our output went away): no use finishing the other files.
    stopped = true;
    await Promise.allSettled(workers.map((w) => w.worker.terminate()));
    rmSync(dir, { recursive: true, force: true });
  }
  return code;
}

/** What takes files: this thread, or a worker. */
interface Runner {
  /** Runs one file; settles with its result, or rejects if the runner dies first. */
  run(task: JobTask): Promise<JobResult>;
  /** No more files. */
  end(): void;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(v: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a file never reached after a failure is not an unhandled rejection
  return { promise, resolve, reject };
}

interface PoolWorker extends Runner {
  worker: Worker;
}

function startWorker(data: JobData): PoolWorker {
  const worker = FROM_SOURCE ? new Worker(TS_BOOT, { eval: true, workerData: data }) : new Worker(WORKER, { workerData: data });
  let pending: Deferred<JobResult> | undefined;
  const fail = (err: unknown) => {
    pending?.reject(err);
    pending = undefined;
  };
  worker.on("message", (m: JobResult) => {
    pending?.resolve(m);
    pending = undefined;
  });
  worker.on("error", fail);
  worker.on("exit", () => fail(new Error("a --jobs worker ended without a result")));
  return {
    worker,
    end: () => worker.postMessage(null),
    run(task) {
      pending = deferred<JobResult>();
      worker.postMessage(task);
      return pending.promise;
    },
  };
}

/** Appends a file to `out` with backpressure, leaving `out` open; rejects if `out` fails (EPIPE). */
async function copyInto(out: Writable, path: string): Promise<void> {
  let failed: Error | undefined;
  const onError = (err: Error) => (failed = err);
  out.once("error", onError);
  try {
    for await (const chunk of createReadStream(path)) {
      if (failed) throw failed;
      if (!out.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          const done = (err?: Error) => {
            out.off("drain", done);
            out.off("error", done);
            err ? reject(err) : resolve();
          };
          out.once("drain", done);
          out.once("error", done);
        });
      }
    }
    if (failed) throw failed;
  } finally {
    out.off("error", onError);
  }
}
