import { createReadStream, mkdtempSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import type { Worker } from "node:worker_threads";
import pc from "picocolors";
import { formatDiagnostic } from "../diagnostics.js";
import { ExitCode, worse } from "../exit-codes.js";
import { isBrokenPipe } from "../stream/run-stage.js";
import { OutputError } from "../stream/write-error.js";
import { newWorker, takeEarly, type EarlyWorker } from "./early.js";
import { runJobFile, type JobData, type JobResult, type JobTask } from "./run-file.js";
import { finishFiles } from "./stages.js";


export interface PoolRun {
  /** How to build and read, the same for every file. */
  data: JobData;
  /** The files, named once by the caller (directories already expanded): file i is task i. */
  files: readonly string[];
  /** Runners: this thread and threads-1 workers (never more than there are files). */
  threads: number;
  /**
   * Workers started for this run before its inputs were expanded (see startWorkers), taken before
   * any are started here; those beyond what the run needs are ended at once, and the run ends
   * every one it took, whatever happens.
   */
  workers?: PoolWorker[];
  out: Writable;
  /** Diagnostics, in file order. */
  err: (text: string) => void;
}

/**
 * `--jobs N`: the files, cut into tasks of consecutive files (see tasksOf), are taken one after
 * another by N runners, this thread and N-1 worker threads, each building the command's stage
 * from `data.spec` (see stages.ts) and running it on one task at a time. A worker is started
 * once and kept for the tasks it takes next. Each task's output goes to a temporary file, removed
 * once copied; the outputs are copied to `out` strictly in file order with the files'
 * diagnostics, so the result is byte-identical to a sequential run and memory stays bounded
 * whatever the output size. Every file's output is written exactly once, in order, or the run
 * ends with status 2 and a message (a temporary file that could not be written, a worker that
 * died): what follows the failed task is not written.
 */
export async function runPool(run: PoolRun): Promise<ExitCode> {
  const { data } = run;
  // The workers start first, so that their start-up (~30 ms each, on another core) overlaps what
  // this thread does before its first file: a stat of every file, the temporary folder.
  const given = run.workers ?? [];
  const workers = [...given, ...startWorkers(data, Math.min(run.threads, run.files.length) - 1 - given.length)];
  try {
    const tasks = tasksOf(run.files, run.threads);
    // Small files grouped into fewer tasks than there are threads: the workers with none go now.
    // (Not waited for: ending a worker still starting can take ~10 ms; unref'd, it holds nothing up.)
    for (const w of workers.splice(Math.max(0, Math.min(run.threads, tasks.length) - 1))) {
      w.worker.unref();
      void w.worker.terminate();
    }
    return await runTasks(run, tasks, workers);
  } finally {
    // Also when the run failed before its first file (no temporary folder): no thread is left.
    await endWorkers(workers);
  }
}

/**
 * Starts `count` worker threads for a `--jobs` run over `data` (none when count < 1): a caller
 * that knows a pool run is coming starts them before it expands its inputs, and gives them to
 * runPool; it ends them itself (endWorkers) if the run then needs no pool.
 */
export function startWorkers(data: JobData, count: number): PoolWorker[] {
  // Those started before the command line was parsed (early.ts) first.
  const early = takeEarly(count).map((e) => startWorker(data, e));
  return [...early, ...Array.from({ length: Math.max(0, count - early.length) }, () => startWorker(data))];
}

/** Ends workers that startWorkers started for a run that turned out to need no pool. */
export async function endWorkers(workers: readonly PoolWorker[]): Promise<void> {
  await Promise.allSettled(workers.map((w) => w.worker.terminate()));
}

/** The pool run proper: the tasks taken by this thread and `workers`, their outputs copied in order. */
async function runTasks(run: PoolRun, tasks: ReadonlyArray<{ index: number; files: string[] }>, workers: readonly PoolWorker[]): Promise<ExitCode> {
  const { data } = run;
  const fileCount = tasks.length;
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "cursorlog-jobs-"));
  } catch (err) {
    throw new OutputError(`temporary files in ${tmpdir()}`, err);
  }
  // A run that ends by process.exit (a closed pipe, a full stdout, SIGINT: see process-io.ts and
  // bin/) never reaches the finally below: the folder goes on the way out too.
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once("exit", removeDir);
  const results = Array.from({ length: fileCount }, () => deferred<JobResult>());
  const outPath = (i: number) => join(dir, `${i}.out`);
  let stopped = false;
  const here: Runner = { run: (task) => runJobFile(data, task, () => stopped), end: () => undefined };
  let next = 0;
  // Runners stay at most AHEAD tasks per runner in front of the one being copied, so that the
  // temporary folder holds a bounded number of outputs (not all but the first, when the first is
  // the slow one); a runner with nothing it may take waits for the copy to move on.
  const ahead = AHEAD * Math.max(1, Math.min(run.threads, fileCount));
  let copied = 0;
  const waiting: Runner[] = [];
  const take = (r: Runner): void => {
    if (stopped || next >= fileCount) return r.end();
    if (next >= copied + ahead) return void waiting.push(r);
    const i = next++;
    r.run({ ...tasks[i]!, outPath: outPath(i) }).then(
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
  // This thread starts at once; a worker asks for its first task only once it has loaded (a
  // task given to a worker still starting would hold up the output of every task after it).
  take(here);
  for (const w of workers) void w.ready.then(() => take(w));
  let code: ExitCode = ExitCode.OK;
  const tallies: number[] = [];
  const fail = (message: string) => {
    run.err(formatDiagnostic({ severity: "error", message, code: ExitCode.USAGE_OR_IO }, pc.createColors(data.stderrColor)));
    return worse(code, ExitCode.USAGE_OR_IO);
  };
  try {
    for (let i = 0; i < fileCount; i++) {
      let r: JobResult;
      try {
        r = await results[i]!.promise;
      } catch (err) {
        const names = tasks[i]!.files;
        const on = names.length === 1 ? names[0] : `${names[0]} … ${names.at(-1)}`;
        return fail(`--jobs: a worker thread failed on ${on}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (r.failure !== undefined) {
        if (r.stderr !== "") run.err(r.stderr);
        return fail(r.failure);
      }
      try {
        await copyInto(run.out, outPath(i));
      } catch (err) {
        if (isBrokenPipe(err)) return code; // the reader went away: no use going on, nothing to say
        throw new OutputError("output", err);
      }
      unlinkSync(outPath(i)); // space in the temporary folder is given back as the run goes
      copied = i + 1;
      for (const r of waiting.splice(0)) take(r);
      if (r.stderr !== "") run.err(r.stderr);
      code = worse(code, r.code);
      tallies.push(r.tally);
      // A malformed line ended the reading: a sequential run reads no further file, nor finishes.
      if (r.halted) return code;
    }
    const end = finishFiles(data.spec, tallies);
    if (end.text !== "") await writeAll(run.out, end.text);
    return worse(code, end.code);
  } finally {
    // Done, or stopped early: no use finishing the other files.
    stopped = true;
    await endWorkers(workers);
    process.off("exit", removeDir);
    removeDir();
  }
}

/** How many tasks per runner may be done or under way beyond the one whose output is being copied. */
const AHEAD = 4;

/** A task's output above this many bytes of input is written once, not per file (a few ms of set-up per task). */
const TASK_BYTES = 4 << 20;

/**
 * The files cut into tasks of consecutive files: each big file alone; small ones together, up to
 * TASK_BYTES of input or an eighth of each runner's share of the input, whichever is smaller, so
 * that 2,000 files of 1 KB cost about what they cost in one thread, while there are still tasks
 * enough for every runner. Sizes are what the file system says (a file it cannot stat counts as
 * empty: its error comes when it is read).
 */
export function tasksOf(files: readonly string[], threads: number): Array<{ index: number; files: string[] }> {
  const sizes = files.map((f) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  });
  const total = sizes.reduce((a, b) => a + b, 0);
  const target = Math.max(1, Math.min(TASK_BYTES, total / (Math.max(1, threads) * 8)));
  const tasks: Array<{ index: number; files: string[] }> = [];
  let current: { index: number; files: string[] } | undefined;
  let bytes = 0;
  files.forEach((file, i) => {
    if (current === undefined || bytes + sizes[i]! > target) {
      current = { index: i, files: [] };
      tasks.push(current);
      bytes = 0;
    }
    current.files.push(file);
    bytes += sizes[i]!;
  });
  return tasks;
}

/** What takes tasks: this thread, or a worker. */
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

export interface PoolWorker extends Runner {
  worker: Worker;
  /** Settles once the worker has loaded its code and waits for tasks (never rejects). */
  ready: Promise<void>;
}

/** A worker for `data`: a new one, or one started early (which gets `data` in its first message). */
function startWorker(data: JobData, early?: EarlyWorker): PoolWorker {
  const worker = early?.worker ?? newWorker(data);
  if (early !== undefined) worker.postMessage({ data });
  let pending: Deferred<JobResult> | undefined;
  let ready!: () => void;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  if (early?.loaded) ready();
  let dead: unknown;
  const fail = (err: unknown) => {
    dead ??= err;
    ready();
    pending?.reject(err);
    pending = undefined;
  };
  worker.on("message", (m: JobResult | "ready") => {
    if (m === "ready") return ready();
    pending?.resolve(m);
    pending = undefined;
  });
  worker.on("error", fail);
  worker.on("exit", () => fail(new Error("it ended without a result")));
  return {
    worker,
    ready: readyPromise,
    end: () => worker.postMessage(null),
    run(task) {
      if (dead !== undefined) return Promise.reject(dead);
      pending = deferred<JobResult>();
      worker.postMessage(task);
      return pending.promise;
    },
  };
}

/** Writes `text` to `out`, waiting for it to drain. */
async function writeAll(out: Writable, text: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    out.write(text, (err) => (err ? reject(err) : resolve()));
  }).catch((err: unknown) => {
    if (!isBrokenPipe(err)) throw new OutputError("output", err);
  });
}

/** Appends a file to `out` with backpressure, leaving `out` open; rejects if `out` fails (EPIPE). */
async function copyInto(out: Writable, path: string): Promise<void> {
  let failed: Error | undefined;
  const onError = (err: Error) => (failed = err);
  out.on("error", onError);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      if (failed) throw failed;
      if (!out.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          const done = (err?: Error) => {
            out.off("drain", done);
            out.off("error", done);
            err ? reject(err) : resolve();
          };
          out.on("drain", done);
          out.on("error", done);
        });
      }
    }
    if (failed) throw failed;
  } finally {
    out.off("error", onError);
  }
}
