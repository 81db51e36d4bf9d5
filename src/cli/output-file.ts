import { closeSync, existsSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createWriteStream, type WriteStream } from "node:fs";
import { finished } from "node:stream/promises";
import { Option, type Command } from "commander";
import { formatDiagnostic } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { colorsFor } from "./config.js";
import type { Io } from "./io.js";

/** `-o, --output FILE`, which every command takes. */
export function outputOption(): Option {
  return new Option("-o, --output <file>", "write the output to FILE, replaced only when the run completes (- : stdout)").helpGroup(
    "Output options:",
  );
}

/**
 * `-o FILE`: the output goes to a temporary file beside FILE (same directory, so the rename stays
 * on one file system), which replaces FILE only when the run completes: whole (flushed to disk), or
 * not at all. A run that fails (status 2: an input or the output could not be read or written; 3; 5
 * without --lenient, where reading stopped; an interrupt) leaves FILE as it was. FILE may be one of
 * the inputs: it is replaced after everything was read (as `sort -o`).
 */
export class OutputFile {
  private readonly stream: WriteStream;
  private readonly fd: number;
  private failure: Error | undefined;
  private readonly onExit = () => this.discard();

  private constructor(
    private readonly target: string,
    private readonly temp: string,
    mode: number,
    /** FILE was there before the run (kept as it was on failure), or not (not written). */
    private readonly existed: boolean,
  ) {
    this.fd = openSync(temp, "wx", mode);
    this.stream = createWriteStream("", { fd: this.fd, autoClose: false });
    this.stream.on("error", (err) => (this.failure ??= err));
    process.on("exit", this.onExit); // interrupted (bin exits on SIGINT): no temporary file left behind
  }

  /** Opens the temporary file, or writes why it cannot and returns undefined (status 2). */
  static open(path: string, io: Io): OutputFile | undefined {
    let target = path;
    let mode = 0o666;
    let existed = false;
    try {
      target = realpathSync(path); // a symbolic link: replace the file it points to, not the link
      mode = statSync(target).mode & 0o7777;
      existed = true;
    } catch {
      // a new file
    }
    const temp = join(dirname(target), `.${basename(target)}.cursorlog-${process.pid}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    try {
      if (existsSync(target) && statSync(target).isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      return new OutputFile(target, temp, mode, existed);
    } catch (err) {
      io.stderr.write(errorLine(`cannot write ${path}: ${reason(err)}`));
      return undefined;
    }
  }

  get writable(): WriteStream {
    return this.stream;
  }

  /** After the run: FILE replaced when `replace` and every write succeeded; else FILE kept. The run's status, or 2. */
  async close(code: ExitCode, replace: boolean, io: Io, shown: string): Promise<ExitCode> {
    try {
      if (!this.stream.writableEnded) this.stream.end();
      await finished(this.stream);
    } catch (err) {
      this.failure ??= err as Error;
    }
    try {
      if (this.failure === undefined) fsyncSync(this.fd);
    } catch (err) {
      this.failure = err as Error;
    }
    closeSync(this.fd);
    if (this.failure !== undefined) {
      this.discard();
      io.stderr.write(errorLine(`cannot write ${shown}: ${reason(this.failure)}; ${this.kept(shown)}`));
      return ExitCode.USAGE_OR_IO;
    }
    if (!replace) {
      this.discard();
      io.stderr.write(`cursorlog: ${this.kept(shown)} (the run failed)\n`);
      return code;
    }
    try {
      renameSync(this.temp, this.target);
    } catch (err) {
      this.discard();
      io.stderr.write(errorLine(`cannot replace ${shown}: ${reason(err)}`));
      return ExitCode.USAGE_OR_IO;
    }
    process.off("exit", this.onExit);
    return code;
  }

  private kept(shown: string): string {
    return this.existed ? `${shown} left as it was` : `${shown} not written`;
  }

  private discard(): void {
    process.off("exit", this.onExit);
    try {
      unlinkSync(this.temp);
    } catch {
      // already gone
    }
  }
}

/** Whether a run that ended with `code` produced its whole output. */
export function runCompleted(code: ExitCode, lenient: boolean): boolean {
  return code === ExitCode.OK || code === ExitCode.NEGATIVE || code === ExitCode.INCOMPLETE || (code === ExitCode.MALFORMED && lenient);
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === "ENOENT" ? "no such directory" : e.code === "EACCES" ? "permission denied" : e.code === "ENOSPC" ? "no space left on device" : e.code === "EISDIR" ? "is a directory" : (e.message ?? String(err));
}

function errorLine(message: string): string {
  return formatDiagnostic({ severity: "error", message, code: ExitCode.USAGE_OR_IO }, colorsFor(false));
}
