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

/** Passed to each worker: rerun the same command line on file number `onlyFile`, stdout into `outPath`. */
export interface JobData {
  argv: readonly string[];
  onlyFile: number;
  outPath: string;
  env: Io["env"];
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

const FROM_SOURCE = import.meta.url.endsWith(".ts");
const WORKER = new URL(FROM_SOURCE ? "./job-worker.ts" : "./job-worker.js", import.meta.url);
/** Run from TypeScript sources (the tests), a worker registers tsx's loader before loading its entry. */
const TS_BOOT = `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(WORKER.href)}); })`;

/**
 * `--jobs N`: each input file runs in a worker thread (the same command line, on that file only),
 * at most N at once. Each worker writes its output to a temporary file; the outputs are copied to
 * stdout strictly in file order, with each file's diagnostics, so the result is byte-identical to
 * a sequential run and memory stays bounded whatever the output size.
 */
export async function runParallel(io: Io, argv: readonly string[], fileCount: number, jobs: number): Promise<ExitCode> {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-jobs-"));
  const workers = new Set<Worker>();
  const results: Array<Promise<JobResult>> = [];
  let next = 0;
  let running = 0;
  const waiting: Array<() => void> = [];
  const slot = () => (running < jobs ? Promise.resolve() : new Promise<void>((r) => waiting.push(r)));
  const start = async (i: number): Promise<JobResult> => {
    await slot();
    running++;
    try {
      return await runWorker(workers, { argv, onlyFile: i, outPath: join(dir, `${i}.out`), env: io.env, stdoutIsTTY: io.stdoutIsTTY, stderrIsTTY: io.stderrIsTTY });
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  for (; next < fileCount; next++) results.push(start(next));
  let code: ExitCode = ExitCode.OK;
  try {
    for (let i = 0; i < fileCount; i++) {
      const r = await results[i]!;
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
    // Stopped early (the reader of our output went away): no use finishing the other files.
    for (const w of workers) void w.terminate();
    await Promise.allSettled(results);
    rmSync(dir, { recursive: true, force: true });
  }
  return code;
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

function runWorker(workers: Set<Worker>, data: JobData): Promise<JobResult> {
  return new Promise((resolve, reject) => {
    const worker = FROM_SOURCE ? new Worker(TS_BOOT, { eval: true, workerData: data }) : new Worker(WORKER, { workerData: data });
    workers.add(worker);
    worker.once("exit", () => workers.delete(worker));
    let result: JobResult | undefined;
    worker.once("message", (m: JobResult) => (result = m));
    worker.once("error", reject);
    worker.once("exit", () => (result ? resolve(result) : reject(new Error("a --jobs worker ended without a result"))));
  });
}
