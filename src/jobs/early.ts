import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/**
 * `--jobs` workers started before the command line is parsed, so that their start-up (~30 ms
 * each: a Node environment, the worker bundle) runs on another core while this thread loads
 * its own bundle, instead of after it, while this thread's first file is being read.
 *
 * The process's entry calls startEarly with its arguments before it loads the main bundle; the
 * pool takes them (takeEarly, through startWorkers in pool.ts) and gives each its JobData in a
 * first message. Until taken they are unref'd: a run that uses none (a usage error, `--help`,
 * one file) is not held up by them, and they end with the process. The hand-over goes through a
 * global, as the entry and the bundle each have their own copy of this module.
 */
const STASH = Symbol.for("cursorlog.jobs.early");

const FROM_SOURCE = import.meta.url.endsWith(".ts");
/** Next to this module: src/jobs/worker.ts, dist/jobs/worker.js, or dist/bundle/worker.js (the bundle's own entry). */
const WORKER = new URL(FROM_SOURCE ? "./worker.ts" : "./worker.js", import.meta.url);
/**
 * Run from TypeScript sources (the tests), a worker registers a TypeScript loader before loading
 * its entry (a worker thread does not run the process's --import): the module named by
 * CURSORLOG_TS_REGISTER if set (test/helpers/ts-loader.mjs sets it to itself: its transforms are
 * cached, ~0.5 s less CPU per worker than tsx's loader), else tsx's.
 */
const TS_BOOT = `(process.env.CURSORLOG_TS_REGISTER ? import(process.env.CURSORLOG_TS_REGISTER) : import("tsx/esm/api").then((m) => m.register())).then(() => import(${JSON.stringify(WORKER.href)}))`;

/**
 * A worker thread running worker.ts, from `url` (given `argv`) or the one next to this module.
 * Without `workerData` it waits for its data in its first message ({ data }).
 */
export function newWorker(workerData?: unknown, url?: URL, argv?: readonly string[]): Worker {
  // stdout/stderr: the worker writes nothing there (its output goes to files, its diagnostics come
  // back in messages); not piping them adds no listeners to the process's streams per worker.
  const options = { workerData, stdout: true, stderr: true };
  if (url !== undefined) return new Worker(url, { ...options, ...(argv !== undefined && { argv: [...argv] }) });
  return FROM_SOURCE ? new Worker(TS_BOOT, { ...options, eval: true }) : new Worker(WORKER, options);
}

/** A worker started by startEarly, not yet taken. */
export interface EarlyWorker {
  worker: Worker;
  /** It has loaded and said "ready". */
  loaded: boolean;
  /** It failed or ended before it was taken. */
  dead: boolean;
  /** Removes startEarly's listeners (the taker puts its own). */
  release(): void;
}

type Stash = EarlyWorker[];
const stash = (): Stash => ((globalThis as Record<symbol, Stash | undefined>)[STASH] ??= []);

/**
 * The N of the last `-j N`, `-jN`, `--jobs N` or `--jobs=N` before `--` (1 when none or not a
 * whole number): what commander will make of it, for the options where it takes them.
 */
export function jobsAsked(argv: readonly string[]): number {
  let jobs = 1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    let value: string | undefined;
    if (a === "-j" || a === "--jobs") value = argv[++i];
    else if (a.startsWith("--jobs=")) value = a.slice("--jobs=".length);
    else if (a.startsWith("-j") && !a.startsWith("--")) value = a.slice(2);
    if (value === undefined) continue;
    const n = Number(value);
    if (Number.isInteger(n) && n > 0) jobs = n;
  }
  return jobs;
}

/**
 * Starts the workers a `--jobs N` command line will want (N-1, at most the machine's CPUs less
 * one), before the command line is parsed: see above. `url` is the worker's entry and
 * `workerArgv` its arguments (from bin/: bin/cursorlog.js itself, which loads the worker bundle
 * with its code cache when given them). Nothing for N <= 1. Returns how many were started.
 */
export function startEarly(argv: readonly string[], url?: URL, workerArgv?: readonly string[]): number {
  const count = Math.min(jobsAsked(argv), availableParallelism()) - 1;
  for (let i = 0; i < count; i++) {
    const worker = newWorker(undefined, url, workerArgv);
    const early: EarlyWorker = {
      worker,
      loaded: false,
      dead: false,
      release: () => {
        worker.off("message", onMessage);
        worker.off("error", onEnd);
        worker.off("exit", onEnd);
      },
    };
    // Listened to at once: a worker's messages with no listener are lost, and an error with none would throw.
    const onMessage = (m: unknown) => void (m === "ready" && (early.loaded = true));
    const onEnd = () => void (early.dead = true);
    worker.on("message", onMessage);
    worker.on("error", onEnd);
    worker.on("exit", onEnd);
    // After the listeners: adding a "message" listener refs the worker again.
    worker.unref();
    stash().push(early);
  }
  return Math.max(0, count);
}

/**
 * Up to `count` workers started early and still alive, taken out of the stash (ref'd again: the
 * taker ends them); the others are ended.
 */
export function takeEarly(count: number): EarlyWorker[] {
  const all = stash().splice(0);
  const alive = all.filter((e) => !e.dead);
  const taken = alive.slice(0, Math.max(0, count));
  for (const e of all) {
    if (taken.includes(e)) continue;
    e.release();
    void e.worker.terminate();
  }
  for (const e of taken) {
    e.release();
    e.worker.ref();
  }
  return taken;
}
