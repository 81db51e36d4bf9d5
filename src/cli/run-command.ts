import type { Reporter } from "../diagnostics.js";
import { ExitCode, worse } from "../exit-codes.js";
import type { Stage } from "../stream/stage.js";
import { resolveColor, type SharedRaw } from "./config.js";
import type { Io } from "./io.js";
import { LogInputs } from "./log-inputs.js";
import { following } from "./shared-options.js";

/** Wires files → stage → stdout for one command, with a Reporter on stderr; returns the exit status. */
export async function runCommand(
  io: Io,
  files: string[],
  raw: SharedRaw,
  makeStage: (reporter: Reporter, stdoutColors: boolean) => Stage,
  command = "",
  /** The stage keeps nothing across files, so `--jobs` may run files in parallel workers. */
  perFile = false,
): Promise<ExitCode> {
  const inputs = new LogInputs(io, files, raw);
  // --follow reads files one after the other, each as it is written: parallel jobs, whose output is
  // written a whole file at a time, would hold back the file being followed (--jobs does not apply).
  if (io.onlyFile === undefined && perFile && !following(raw) && (raw.jobs ?? 1) > 1 && inputs.files.length > 1 && !inputs.files.includes("-") && io.argv) {
    // The directories that gave no log are reported first, as a run with one job does.
    inputs.reportProblems();
    const { runParallel } = await import("./parallel.js");
    return worse(inputs.reporter.code, await runParallel(io, io.argv, inputs.files.length, raw.jobs!));
  }
  if (inputs.refuseTerminal(command)) return ExitCode.USAGE_OR_IO;
  return inputs.read(makeStage(inputs.reporter, resolveColor(raw.color, io.env, io.stdoutIsTTY)));
}
