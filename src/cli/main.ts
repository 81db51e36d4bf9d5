import { readFileSync } from "node:fs";
import { CommanderError, type Command } from "commander";
import { formatDiagnostic } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { isBrokenPipe } from "../stream/run-stage.js";
import { OutputError } from "../stream/write-error.js";
import type { CommandContext } from "./command-context.js";
import { colorsFor } from "./config.js";
import type { Io } from "./io.js";
import { buildProgram } from "./program.js";

export type { Io } from "./io.js";
export { processIo } from "./process-io.js";

export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Runs one invocation: parse argv, run the chosen command, map every outcome to an exit status. */
export async function main(argv: readonly string[], ioIn: Io): Promise<ExitCode> {
  const io: Io = { ...ioIn };
  let run: (() => Promise<ExitCode>) | undefined;
  const ctx: CommandContext = { io, setRun: (r) => (run = r) };
  const program = buildProgram(ctx, VERSION);
  configure(program, io);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE_OR_IO;
    throw err;
  }
  if (run === undefined) {
    io.stderr.write(program.helpInformation());
    return ExitCode.USAGE_OR_IO;
  }
  try {
    return await run();
  } catch (err) {
    if (isBrokenPipe(err)) return ExitCode.OK;
    // A write that failed (a full disk): said as such, never a stack trace or "invalid log" (status 1).
    const message =
      (err as NodeJS.ErrnoException)?.syscall === "write" ? new OutputError("output", err).message : err instanceof Error ? err.message : String(err);
    io.stderr.write(formatDiagnostic({ severity: "error", message, code: ExitCode.USAGE_OR_IO }, colorsFor(false)));
    return ExitCode.USAGE_OR_IO;
  }
}

/** Commander writes through io and never exits the process; its errors take our grammar and status 2. */
function configure(cmd: Command, io: Io): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    outputError: (s, write) => write(`cursorlog: ${s.trimEnd()}\nRun 'cursorlog --help' for usage.\n`),
  });
  for (const sub of cmd.commands) configure(sub, io);
}
