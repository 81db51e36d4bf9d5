import { statSync } from "node:fs";
import { Writable } from "node:stream";
import { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { expandInputs, type Expanded } from "../input/expand-inputs.js";
import { runStage } from "../stream/run-stage.js";
import type { Stage } from "../stream/stage.js";
import { colorsFor, inputOptions, resolveColor, type SharedRaw } from "./config.js";
import type { Io } from "./io.js";
import { Progress } from "./progress.js";
import { following } from "./shared-options.js";

/**
 * The inputs of one run of a command that reads logs, handled the same way for every such command
 * (run-command.ts, run-validate.ts): each directory replaced by the logs below it (expand-inputs.ts)
 * and a message for each one that gave none, a hint instead of waiting on a terminal's standard
 * input, the progress line, and the run's Reporter, which erases that line before each message.
 * A `--jobs` run (src/jobs/) hands these files, named once, to its workers.
 */
export class LogInputs {
  /** What will be read, in order: named files as given, directories replaced by their logs. */
  readonly files: string[];
  /** The run's messages (stderr) and exit status. */
  readonly reporter: Reporter;
  private problems: Expanded["problems"];
  private progress: Progress | undefined;

  constructor(
    private readonly io: Io,
    /** The inputs as the user named them. */
    private readonly named: readonly string[],
    private readonly raw: SharedRaw,
  ) {
    const expanded = expandInputs(named, io.output);
    this.files = expanded.files;
    this.problems = expanded.problems;
    this.reporter = new Reporter(
      (s) => {
        this.progress?.clear(); // a message never lands on the end of the progress line
        io.stderr.write(s);
      },
      colorsFor(resolveColor(raw.color, io.env, io.stderrIsTTY)),
      raw.lenient === true,
    );
  }

  /** True, after a hint on stderr, when the user named no input (or `-`) and standard input is a terminal. */
  refuseTerminal(command: string): boolean {
    const stdinOnly = this.named.length === 0 || (this.named.length === 1 && this.named[0] === "-");
    if (!stdinOnly || !this.io.stdinIsTTY) return false;
    this.io.stderr.write(
      `cursorlog: reading a log from the terminal: pipe one in or name a file\n` +
        `  cursor-agent -p "…" --output-format stream-json | cursorlog ${command || "COMMAND"}\n` +
        `  cursorlog ${command || "COMMAND"} run.ndjson      (see 'cursorlog help ${command}')\n`,
    );
    return true;
  }

  /**
   * A message for each directory that could not be listed or held no log (exit status 2), once;
   * they come before anything read, as they were found before reading. read() calls it first.
   */
  reportProblems(): void {
    for (const p of this.problems) this.reporter.report({ severity: "error", file: p.file, message: p.message, code: ExitCode.USAGE_OR_IO });
    this.problems = [];
  }

  /**
   * Streams every file through `stage` to stdout (after the directory messages), with the progress
   * line when wanted; returns the exit status. When every input named was a directory that gave no
   * log, nothing is read (standard input is read only when no input is named). `stop`: asked before
   * each chunk, reading ends once it is true (validate --max-errors).
   */
  async read(stage: Stage, stop?: () => boolean): Promise<ExitCode> {
    const hadProblems = this.problems.length > 0;
    this.reportProblems();
    if (this.files.length === 0 && hadProblems) return this.reporter.code;
    const input = inputOptions(this.files, this.raw, this.io);
    if (stop !== undefined) input.stop = stop;
    const progress = (this.progress = progressFor(this.io, this.files, this.raw));
    if (progress) input.onBytes = (n) => progress.add(n);
    // Output to the terminal the line is drawn on: each write erases the line first.
    const out = progress && this.io.stdoutIsTTY ? belowProgress(this.io.stdout, progress) : this.io.stdout;
    try {
      await runStage(input, stage, out, this.reporter, out === this.io.stdout ? this.io.stdoutFd : undefined);
    } finally {
      progress?.end();
    }
    return this.reporter.code;
  }
}

/** A progress line for named files when stderr is a terminal (not in CI), or when --progress asks. */
function progressFor(io: Io, files: string[], raw: SharedRaw): Progress | undefined {
  const named = files.filter((f) => f !== "-");
  const wanted = raw.progress ?? (io.stderrIsTTY && !io.env.CI && named.length > 0 && !following(raw));
  if (!wanted) return undefined;
  let total = 0;
  for (const f of named) {
    try {
      total += statSync(f).size;
    } catch {
      // reported when it is read
    }
  }
  return new Progress((s) => io.stderr.write(s), total, Date.now, 200, io.env.TERM === "dumb");
}

/**
 * `out` with the progress line erased before each write, and not drawn again while the output's
 * last line is unfinished; write errors (EPIPE) reach the pipeline as they would from `out`.
 */
function belowProgress(out: Writable, progress: Progress): Writable {
  return new Writable({
    write(chunk: Buffer | string, encoding, cb) {
      if (chunk.length === 0) return cb();
      progress.clear();
      const last = typeof chunk === "string" ? chunk.charCodeAt(chunk.length - 1) : chunk[chunk.length - 1];
      progress.hold(last !== 0x0a);
      out.write(chunk, encoding, (err) => cb(err ?? undefined));
    },
  });
}
