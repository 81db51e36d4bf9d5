import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Reporter } from "../diagnostics.js";
import { ExitCode, worse } from "../exit-codes.js";
import type { JobData } from "../jobs/run-file.js";
import type { StageSpec } from "../jobs/stages.js";
import type { Stage } from "../stream/stage.js";
import { DEFAULT_MAX_LINE_BYTES, resolveColor, type SharedRaw } from "./config.js";
import type { Io } from "./io.js";
import { LogInputs } from "./log-inputs.js";
import { refuseOtherAgents } from "../stream/refuse-other-agents.js";
import { following } from "./shared-options.js";
import { saidOnce } from "../outputs/filter/said-once.js";
import { lazy } from "../lazy.js";

const poolModule = lazy(() => import("../jobs/pool.js"));
const stagesModule = lazy(() => import("../jobs/stages.js"));

/**
 * What a command runs over its inputs: a stage described by data (src/jobs/stages.ts), which
 * `--jobs` can rebuild in worker threads, or one made here for the commands whose output is not
 * per file (stats, timeline --format html).
 */
export type StageSource = StageSpec | ((reporter: Reporter, stdoutColors: boolean) => Stage);

/** Wires files → stage → stdout for one command, with a Reporter on stderr; returns the exit status. */
export async function runCommand(
  io: Io,
  files: string[],
  raw: SharedRaw,
  source: StageSource,
  command = "",
  /** What `--jobs` runs per file, when `source` is a function for the run in one thread (export --endpoint). */
  perFile?: StageSpec,
): Promise<ExitCode> {
  const jobs = raw.jobs ?? 1;
  const spec = typeof source === "function" ? perFile : source;
  // --follow reads files one after the other, each as it is written: parallel jobs, whose output is
  // written a whole file at a time, would hold back the file being followed (--jobs does not apply).
  const parallel = spec !== undefined && !following(raw) && jobs > 1 && !files.includes("-");
  const data: JobData | undefined = parallel
    ? { spec, lenient: raw.lenient === true, maxLineBytes: raw.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, stderrColor: resolveColor(raw.color, io.env, io.stderrIsTTY) }
    : undefined;
  // The workers start before the inputs are expanded (a folder of 10,000 logs: ~30 ms of listing,
  // then a stat of each file), their start-up overlapping it on another core.
  const pool = data !== undefined ? await poolModule() : undefined;
  const early = pool !== undefined && data !== undefined ? pool.startWorkers(data, earlyWorkers(files, jobs)) : [];
  let inputs: LogInputs;
  try {
    inputs = new LogInputs(io, files, raw);
  } catch (err) {
    await pool?.endWorkers(early);
    throw err;
  }
  if (pool !== undefined && data !== undefined && inputs.files.length > 1) {
    // The inputs are named once, here: the workers get file names, never the command line.
    // The directories that gave no log are reported first, as a run with one job does.
    const threads = Math.min(jobs, inputs.files.length, capJobs(io, jobs, inputs.files.length));
    inputs.reportProblems();
    const write = (s: string) => void io.stderr.write(s);
    // filter says once per run that the agent CLI's text is not written: each file's stage says it at its first.
    const err = data.spec.command === "filter" ? saidOnce(write) : write;
    const code = await pool.runPool({ data, files: inputs.files, threads, workers: early, out: io.stdout, err });
    return worse(inputs.reporter.code, code);
  }
  // No pool after all (one file, or a folder with one log): the workers started early go.
  await pool?.endWorkers(early);
  if (inputs.refuseTerminal(command)) return ExitCode.USAGE_OR_IO;
  // filter selects lines of any NDJSON (--where); every other command reads cursor-agent's events
  // only (a spec's stage is wrapped where it is built, in jobs/stages.ts, so --jobs workers agree).
  if (typeof source !== "function") {
    const { buildStage } = await stagesModule();
    return inputs.read(await buildStage(source, inputs.reporter));
  }
  const stage = source(inputs.reporter, resolveColor(raw.color, io.env, io.stdoutIsTTY));
  return inputs.read(command === "filter" ? stage : refuseOtherAgents(stage, inputs.reporter, raw.agent));
}

/**
 * How many workers a `--jobs` run starts before its inputs are expanded: one fewer than the
 * threads it will have, known from the names alone when they are at least as many as the threads
 * (a file each); with fewer names, a folder among them may hold any number of logs, so as many as
 * the machine allows, and none for a single file (which has no pool). runPool ends those the run
 * turns out not to need.
 */
function earlyWorkers(files: readonly string[], jobs: number): number {
  const most = Math.min(jobs, availableParallelism());
  if (files.length >= most) return most - 1;
  const folders = files.some((f) => {
    try {
      return statSync(f).isDirectory();
    } catch {
      return false;
    }
  });
  return folders ? most - 1 : files.length - 1;
}

/**
 * The threads a `--jobs` run may start: no more than the machine has (os.availableParallelism());
 * when that cuts what was asked (and there are files enough to use it), a note on stderr says so.
 */
function capJobs(io: Io, jobs: number, fileCount: number): number {
  const cpus = availableParallelism();
  if (Math.min(jobs, fileCount) > cpus) {
    io.stderr.write(`cursorlog: note: --jobs ${jobs}: this machine runs ${cpus} threads at once; using ${cpus}\n`);
  }
  return cpus;
}
