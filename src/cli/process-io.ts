import { fstatSync, readFileSync, statSync, writeSync } from "node:fs";
import { Readable } from "node:stream";
import { describeWriteError } from "../stream/write-error.js";
import type { Io } from "./io.js";

/**
 * The Io of the real process (bin/cursorlog.js), with what the standard streams can do wrong
 * handled once, before any command runs:
 *
 * - a write to stdout that fails (a full disk: `> /dev/full`) ends the run with status 2 and
 *   `cursorlog: error: cannot write output: no space left on device`, never a stack trace;
 * - a reader of stdout or stderr that went away (`| head`, `2>&1 | head`) ends it quietly, as
 *   a closed pipe always has (status: what was decided so far, else 0);
 * - stdout closed by the shell (`>&-`): status 2 and a message (Node reopens a closed standard
 *   descriptor on /dev/null, read-write, where everything written would be lost);
 * - standard input that is a directory (`< /`): reading it is an error, "is a directory".
 *
 * Returns undefined (after the message) when the run must not start.
 */
export function processIo(): Io | undefined {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    fail(`cannot write output: ${describeWriteError(err)}`);
  });
  process.stderr.on("error", (err: NodeJS.ErrnoException) => {
    // Nowhere left to say anything: a closed pipe ends the run as on stdout, another failure with status 2.
    process.exit(err.code === "EPIPE" ? (process.exitCode ?? 0) : 2);
  });
  if (reopenedByNode(1)) {
    fail("cannot write output: standard output is closed (bad file descriptor)");
    return undefined;
  }
  return {
    stdin: isDirectory(0) ? directoryStdin() : process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
  };
}

function fail(message: string): void {
  try {
    writeSync(2, `cursorlog: error: ${message}\n`);
  } catch {
    // stderr is gone too: the status says it
  }
  process.exit(2);
}

/**
 * True when descriptor `fd` was closed when the process started: Node then opens /dev/null on it
 * read-write (a shell's `> /dev/null` opens it write-only). Linux only (/proc/self/fdinfo); elsewhere false.
 */
function reopenedByNode(fd: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev !== statSync("/dev/null").rdev) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
    return flags !== null && (parseInt(flags[1]!, 8) & 3) === 2; // O_RDWR
  } catch {
    return false;
  }
}

function isDirectory(fd: number): boolean {
  try {
    return fstatSync(fd).isDirectory();
  } catch {
    return false;
  }
}

/** Standard input that is a directory: reading it fails as reading a directory named on the command line does. */
function directoryStdin(): Readable {
  return new Readable({
    read() {
      this.destroy(Object.assign(new Error("EISDIR: illegal operation on a directory, read"), { code: "EISDIR", syscall: "read" }));
    },
  });
}
