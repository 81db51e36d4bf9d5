import { fstatSync, writeSync } from "node:fs";
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
 * - standard input that is a directory (`< /`): reading it is an error, "is a directory";
 * - a stdout closed by the shell (`>&-`): Node reopens a closed standard descriptor on /dev/null,
 *   read-write, before any JavaScript runs, which cannot be told from a parent that discards the
 *   output that way (Python's subprocess.DEVNULL, Node's stdio "ignore": same flags, same file in
 *   /proc/self/fdinfo), so it is not seen here. The executable's sh line (bin/cursorlog.js) sees
 *   fd 1 closed and hands node /dev/null read-only instead: the first write fails with EBADF and
 *   ends the run as any unwritable stdout does, `cannot write output: bad file descriptor`, status
 *   2. Run as `node bin/cursorlog.js ... >&-`, it goes unnoticed (README LIMITATIONS).
 */
export function processIo(): Io {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    fail(`cannot write output: ${describeWriteError(err)}`);
  });
  process.stderr.on("error", (err: NodeJS.ErrnoException) => {
    // Nowhere left to say anything: a closed pipe ends the run as on stdout, another failure with status 2.
    process.exit(err.code === "EPIPE" ? (process.exitCode ?? 0) : 2);
  });
  const io: Io = {
    stdin: isDirectory(0) ? directoryStdin() : process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
  };
  // A file or a pipe (a terminal gets escaped text, never raw lines), which Node writes from this
  // thread: a SyncWriteStream (.fd) or a pipe or socket (_type "pipe"); not the black hole Node
  // gives a descriptor of another kind.
  const stdout = process.stdout as unknown as { fd?: unknown; _type?: unknown };
  if (!io.stdoutIsTTY && (typeof stdout.fd === "number" || stdout._type === "pipe")) io.stdoutFd = 1;
  return io;
}

function fail(message: string): void {
  try {
    writeSync(2, `cursorlog: error: ${message}\n`);
  } catch {
    // stderr is gone too: the status says it
  }
  process.exit(2);
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
