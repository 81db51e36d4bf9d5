import { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { runStage } from "../stream/run-stage.js";
import type { Stage } from "../stream/stage.js";
import { colorsFor, inputOptions, resolveColor, type SharedRaw } from "./config.js";
import type { Io } from "./io.js";
import { runParallel } from "./parallel.js";
import { expandInputs } from "../input/expand-inputs.js";
import { statSync } from "node:fs";
import { Progress } from "./progress.js";

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
  const expanded = expandInputs(files);
  files = expanded.files;
  if (io.onlyFile !== undefined) files = [files[io.onlyFile]!];
  else if (perFile && (raw.jobs ?? 1) > 1 && files.length > 1 && !files.includes("-") && io.argv) {
    return runParallel(io, io.argv, files.length, raw.jobs!);
  }
  if ((files.length === 0 || (files.length === 1 && files[0] === "-")) && io.stdinIsTTY) {
    io.stderr.write(
      `cursorlog: reading a log from the terminal: pipe one in or name a file\n` +
        `  cursor-agent -p "…" --output-format stream-json | cursorlog ${command || "COMMAND"}\n` +
        `  cursorlog ${command || "COMMAND"} run.ndjson      (see 'cursorlog help ${command}')\n`,
    );
    return ExitCode.USAGE_OR_IO;
  }
  const progress = progressFor(io, files, raw);
  const reporter = new Reporter(
    (s) => {
      progress?.end(); // a message never lands on the end of the progress line
      io.stderr.write(s);
    },
    colorsFor(resolveColor(raw.color, io.env, io.stderrIsTTY)),
    raw.lenient === true,
  );
  if (io.onlyFile === undefined) {
    for (const p of expanded.problems) reporter.report({ severity: "error", file: p.file, message: p.message, code: ExitCode.USAGE_OR_IO });
    if (files.length === 0 && expanded.problems.length > 0) return reporter.code;
  }
  const stage = makeStage(reporter, resolveColor(raw.color, io.env, io.stdoutIsTTY));
  const input = inputOptions(files, raw, io);
  if (progress) input.onBytes = (n) => progress.add(n);
  try {
    await runStage(input, stage, io.stdout, reporter);
  } finally {
    progress?.end();
  }
  return reporter.code;
}

/** A progress line for named files when stderr is a terminal (not in CI), or when --progress asks. */
function progressFor(io: Io, files: string[], raw: SharedRaw): Progress | undefined {
  const named = files.filter((f) => f !== "-");
  const wanted = raw.progress ?? (io.stderrIsTTY && !io.env.CI && named.length > 0 && raw.follow !== true);
  if (!wanted || io.onlyFile !== undefined) return undefined;
  let total = 0;
  for (const f of named) {
    try {
      total += statSync(f).size;
    } catch {
      // reported when it is read
    }
  }
  return new Progress((s) => io.stderr.write(s), total);
}
