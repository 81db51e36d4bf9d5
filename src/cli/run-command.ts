import { availableParallelism } from "node:os";
import type { Reporter } from "../diagnostics.js";
import { ExitCode, worse } from "../exit-codes.js";
import type { StageSpec } from "../jobs/stages.js";
import type { Stage } from "../stream/stage.js";
import { DEFAULT_MAX_LINE_BYTES, resolveColor, type SharedRaw } from "./config.js";
import type { Io } from "./io.js";
import { LogInputs } from "./log-inputs.js";
import { refuseOtherAgents } from "../stream/refuse-other-agents.js";
import { following } from "./shared-options.js";

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
  const inputs = new LogInputs(io, files, raw);
  const jobs = raw.jobs ?? 1;
  const spec = typeof source === "function" ? perFile : source;
  // --follow reads files one after the other, each as it is written: parallel jobs, whose output is
  // written a whole file at a time, would hold back the file being followed (--jobs does not apply).
  if (spec !== undefined && !following(raw) && jobs > 1 && inputs.files.length > 1 && !inputs.files.includes("-")) {
    // The inputs are named once, here: the workers get file names, never the command line.
    // The directories that gave no log are reported first, as a run with one job does.
    const threads = Math.min(jobs, inputs.files.length, capJobs(io, jobs, inputs.files.length));
    inputs.reportProblems();
    const { runPool } = await import("../jobs/pool.js");
    const code = await runPool({
      data: {
        spec,
        lenient: raw.lenient === true,
        maxLineBytes: raw.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
        stderrColor: resolveColor(raw.color, io.env, io.stderrIsTTY),
      },
      files: inputs.files,
      threads,
      out: io.stdout,
      err: (s) => io.stderr.write(s),
    });
    return worse(inputs.reporter.code, code);
  }
  if (inputs.refuseTerminal(command)) return ExitCode.USAGE_OR_IO;
  // filter selects lines of any NDJSON (--where); every other command reads cursor-agent's events
  // only (a spec's stage is wrapped where it is built, in jobs/stages.ts, so --jobs workers agree).
  if (typeof source !== "function") {
    const { buildStage } = await import("../jobs/stages.js");
    return inputs.read(await buildStage(source, inputs.reporter));
  }
  const stage = source(inputs.reporter, resolveColor(raw.color, io.env, io.stdoutIsTTY));
  return inputs.read(command === "filter" ? stage : refuseOtherAgents(stage, inputs.reporter));
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
