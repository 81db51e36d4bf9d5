import {
  accessSync,
  closeSync,
  constants,
  createWriteStream,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  open as openFd,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
  WriteStream,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { promisify } from "node:util";
import { Option } from "commander";
import { formatDiagnostic } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { describeWriteError } from "../stream/write-error.js";
import { colorsFor } from "./config.js";
import type { Io } from "./io.js";
import { lazy } from "../lazy.js";

const netModule = lazy(() => import("node:net"));

/** `-o, --output FILE`, which every command takes. */
export function outputOption(): Option {
  return new Option("-o, --output <file>", "write the output to FILE, replaced only when the run completes (- : stdout)").helpGroup(
    "Output options:",
  );
}

/**
 * How `-o` writes its FILE:
 * - "rename": a regular file (or a new name): the output goes to a temporary file beside it, given
 *   FILE's mode and owner, which replaces FILE by a rename when the run completes (whole, or not at all);
 * - "in place": a regular file whose inode must stay (more than one hard link; an owner the rename
 *   could not keep; a directory the user cannot write in): the output goes to a temporary file (beside
 *   FILE, or in TMPDIR), copied into FILE when the run completes. FILE is untouched by a run that
 *   fails, but the copy itself is not atomic (a crash or a full disk during it leaves FILE cut);
 * - "direct": anything else (a device: /dev/null, /dev/tty; a FIFO; /dev/stdout, /dev/fd/N), written
 *   as the run goes, as `>` would write it (but a descriptor on a file is appended to, not
 *   truncated): nothing to replace, nothing kept on failure.
 */
type Way = "rename" | "in place" | "direct";

/**
 * `-o FILE`: see Way. A run that fails (status 2: an input or the output could not be read or
 * written; 3; 5 without --lenient, where reading stopped; an interrupt) leaves a regular FILE as it
 * was. FILE may be one of the inputs: it is replaced after everything was read (as `sort -o`).
 */
export class OutputFile {
  private failure: Error | undefined;
  private readonly onExit = () => this.discard();

  private constructor(
    private readonly way: Way,
    /** FILE at the end of its symbolic links (what is replaced or written into). */
    private readonly target: string,
    /** The temporary file (rename, in place), or "" (direct). */
    private readonly temp: string,
    private readonly fd: number,
    /** What the run writes to: a stream over `fd`, which closes it itself when it is a pipe (a FIFO). */
    private readonly stream: Writable,
    /** FILE was there before the run (kept as it was on failure), or not (not written). */
    private readonly existed: boolean,
    /** FILE's name, device and inode, when it was a regular file: left out of a folder's logs (expand-inputs.ts). */
    readonly identity: { name: string; dev: number; ino: number } | undefined,
  ) {
    this.stream.on("error", (err) => (this.failure ??= err));
    // Interrupted (bin exits on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM): no temporary file left behind.
    if (temp !== "") process.on("exit", this.onExit);
  }

  /** Opens FILE (direct) or the temporary file, or writes why it cannot and returns undefined (status 2). */
  static async open(path: string, io: Io): Promise<OutputFile | undefined> {
    try {
      const { end, descriptor } = followLinks(path);
      const st = statOrUndefined(end);
      if (st?.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      // A descriptor not open (`-o /dev/fd/7` without `7>`), or not for writing (Node's own among them).
      if (descriptor && (st === undefined || notForOutput(end))) throw Object.assign(new Error("bad file descriptor"), { code: "EBADF" });
      if (descriptor || (st !== undefined && !st.isFile())) return await OutputFile.direct(end, st, descriptor);
      return OutputFile.beside(end, st);
    } catch (err) {
      io.stderr.write(errorLine(`cannot write ${path}: ${reason(err)}`));
      return undefined;
    }
  }

  /** A regular FILE, or a new one: a temporary file beside it (or, for a FILE written in place that cannot have one, in TMPDIR). */
  private static beside(target: string, st: Stats | undefined): OutputFile {
    const name = `.${basename(target)}.cursorlog-${process.pid}-${Math.random().toString(36).slice(2, 8)}.tmp`;
    const identity = st === undefined ? undefined : { name: basename(target), dev: st.dev, ino: st.ino };
    let way: Way = st !== undefined && st.nlink > 1 ? "in place" : "rename";
    // Links kept means FILE written: one the user may not write is refused before the run, as `>` refuses it.
    if (way === "in place" && !writable(target)) throw Object.assign(new Error("permission denied"), { code: "EACCES" });
    let temp = join(dirname(target), name);
    let fd: number;
    try {
      // A new FILE gets 0666 less the umask, as `>` gives it; an old one its own mode, below.
      fd = openSync(temp, "wx+", st === undefined ? 0o666 : 0o600);
    } catch (err) {
      // A directory the user cannot write in, holding a FILE the user can write: `>` would write it.
      if (st === undefined || !writable(target)) throw err;
      way = "in place";
      temp = join(tmpdir(), name);
      fd = openSync(temp, "wx+", 0o600);
    }
    try {
      if (st !== undefined && way === "rename") {
        const mine = fstatSync(fd);
        if (mine.uid !== st.uid || mine.gid !== st.gid) {
          try {
            fchownSync(fd, st.uid, st.gid);
          } catch {
            // Not permitted (FILE is someone else's, or of a group the user is not in): a rename
            // would change its owner; written in place it keeps it, if the user may write it.
            if (writable(target)) way = "in place";
          }
        }
        // After the owner (a chown clears the set-user-ID and set-group-ID bits); the umask is not applied.
        if (way === "rename") fchmodSync(fd, st.mode & 0o7777);
      }
    } catch (err) {
      closeSync(fd);
      unlinkSync(temp);
      throw err;
    }
    return new OutputFile(way, target, temp, fd, createWriteStream("", { fd, autoClose: false }), st !== undefined, identity);
  }

  /**
   * A FILE that is not a regular file, or a descriptor, written to as the run goes. A FIFO is
   * opened without blocking (tried again every 50 ms until a reader comes, as `>` waits for one)
   * and written as a pipe: a blocking open or write would wait in libuv's thread pool, which
   * process.exit joins, and Ctrl-C would hang. A descriptor open on a regular file (`-o /dev/stdout
   * >> log`, `{ echo header; cursorlog … -o /dev/stdout; } > f`) is appended to, not truncated as
   * `> /dev/stdout` would truncate it: what the shell or the process wrote there before stays.
   */
  private static async direct(target: string, st: Stats | undefined, descriptor: boolean): Promise<OutputFile> {
    if (st?.isFIFO()) {
      const fd = await openFifo(target);
      const { Socket } = await netModule();
      return new OutputFile("direct", target, "", fd, new Socket({ fd, readable: false, writable: true }), true, undefined);
    }
    const flags = descriptor ? constants.O_WRONLY | constants.O_APPEND : constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC;
    const fd = await promisify(openFd)(target, flags, 0o666);
    return new OutputFile("direct", target, "", fd, createWriteStream("", { fd, autoClose: false }), true, undefined);
  }

  /** Whether `err` (thrown by the run) is the failed write to FILE that close() will report. */
  failed(err: unknown): boolean {
    return this.failure !== undefined && (err === this.failure || (err as { cause?: unknown })?.cause === this.failure);
  }

  get writable(): Writable {
    return this.stream;
  }

  /** After the run: FILE replaced when `replace` and every write succeeded; else FILE kept. The run's status, or 2. */
  async close(code: ExitCode, replace: boolean, io: Io, shown: string): Promise<ExitCode> {
    try {
      if (!this.stream.writableEnded) this.stream.end();
      await finished(this.stream, { readable: false });
    } catch (err) {
      this.failure ??= err as Error;
    }
    if (this.way === "direct") return this.closeDirect(code, io, shown);
    try {
      if (this.failure === undefined) fsyncSync(this.fd);
    } catch (err) {
      this.failure = err as Error;
    }
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
    if (this.way === "in place") {
      let out: number;
      try {
        out = openSync(this.target, constants.O_WRONLY); // no O_TRUNC, no O_CREAT: the same inode
      } catch (err) {
        this.discard();
        io.stderr.write(errorLine(`cannot write ${shown}: ${reason(err)}; ${this.kept(shown)}`));
        return ExitCode.USAGE_OR_IO;
      }
      try {
        copyInto(this.fd, out);
      } catch (err) {
        this.discard();
        io.stderr.write(errorLine(`cannot write ${shown}: ${reason(err)}; ${shown} may be cut short (it was being written in place)`));
        return ExitCode.USAGE_OR_IO;
      }
      this.discard();
      return code;
    }
    closeSync(this.fd);
    try {
      renameSync(this.temp, this.target);
    } catch (err) {
      this.discard(false);
      io.stderr.write(errorLine(`cannot replace ${shown}: ${reason(err)}`));
      return ExitCode.USAGE_OR_IO;
    }
    process.off("exit", this.onExit);
    return code;
  }

  /** Direct: what was written stays; a reader that went away (a FIFO) ends it quietly, as on stdout. */
  private closeDirect(code: ExitCode, io: Io, shown: string): ExitCode {
    if (this.stream instanceof WriteStream) closeSync(this.fd);
    else this.stream.destroy(); // the FIFO's socket, which owns its descriptor
    if (this.failure === undefined || (this.failure as NodeJS.ErrnoException).code === "EPIPE") return code;
    io.stderr.write(errorLine(`cannot write ${shown}: ${reason(this.failure)}`));
    return ExitCode.USAGE_OR_IO;
  }

  private kept(shown: string): string {
    return this.existed ? `${shown} left as it was` : `${shown} not written`;
  }

  /** Removes the temporary file (closing it first, unless it was closed already). */
  private discard(close = true): void {
    process.off("exit", this.onExit);
    if (close) {
      try {
        closeSync(this.fd);
      } catch {
        // closed already
      }
    }
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

/** A path that names a descriptor of this process (its target is not a file to replace). */
const DESCRIPTOR = /^\/(?:proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/fd\/\d+|dev\/fd\/\d+|dev\/std(?:in|out|err))$/;

/**
 * Where writing to `path` lands, as open() would follow it: the path at the end of its chain of
 * symbolic links, which need not exist (a dangling link: the file it names is created, as `>`
 * creates it), and whether the chain reaches a descriptor of this process (/dev/stdout,
 * /proc/self/fd/N: written as it is, whatever it is open on).
 */
function followLinks(path: string): { end: string; descriptor: boolean } {
  let cur = resolve(path);
  for (let hops = 0; hops <= 40; hops++) {
    try {
      cur = join(realpathSync(dirname(cur)), basename(cur));
    } catch {
      return { end: cur, descriptor: false }; // no such directory: the open says so
    }
    if (DESCRIPTOR.test(cur)) return { end: cur, descriptor: true };
    let st: Stats;
    try {
      st = lstatSync(cur);
    } catch {
      return { end: cur, descriptor: false }; // a new file
    }
    if (!st.isSymbolicLink()) return { end: cur, descriptor: false };
    cur = resolve(dirname(cur), readlinkSync(cur));
  }
  throw Object.assign(new Error("too many levels of symbolic links"), { code: "ELOOP" });
}

/**
 * Whether the descriptor `path` names (/proc/PID/fd/N, this process's) is not one to write the
 * output to: one open read-only (`3<file`; the /dev/null Node opens for itself), an epoll or
 * eventfd descriptor, or a pipe whose read end is open here (libuv's wake-up and signal pipes,
 * either end; writing into them crashed the process). A pipe the shell hands over, `-o >(gzip >
 * f)` or `3>&1`, has its read end in another process. False where /proc cannot tell (not Linux),
 * and for 0, 1, 2.
 */
function notForOutput(path: string): boolean {
  const m = /^\/proc\/(\d+)(?:\/task\/\d+)?\/fd\/(\d+)$/.exec(path);
  if (m === null || Number(m[1]) !== process.pid || Number(m[2]) < 3) return false;
  const link = (fd: string): string | undefined => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return undefined;
    }
  };
  const readOnly = (fd: string): boolean => {
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
      return flags !== undefined && (parseInt(flags, 8) & 3) === 0;
    } catch {
      return false; // closed meanwhile
    }
  };
  const target = link(m[2]!);
  if (target === undefined) return false;
  if (target.startsWith("anon_inode:") || readOnly(m[2]!)) return true;
  if (!target.startsWith("pipe:")) return false;
  return readdirSync("/proc/self/fd").some((fd) => link(fd) === target && readOnly(fd));
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A FIFO opened for writing once it has a reader (ENXIO until then), without blocking a thread. */
async function openFifo(path: string): Promise<number> {
  for (;;) {
    try {
      return await promisify(openFd)(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENXIO") throw err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The temporary file's bytes written over FILE's, `out` (same inode: its links, owner and mode stay), then FILE cut to their length and flushed. */
function copyInto(tempFd: number, out: number): void {
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let pos = 0;
    for (;;) {
      const n = readSync(tempFd, buf, 0, buf.length, pos);
      if (n === 0) break;
      for (let done = 0; done < n; ) done += writeSync(out, buf, done, n - done, pos + done);
      pos += n;
    }
    ftruncateSync(out, pos);
    fsyncSync(out);
  } finally {
    closeSync(out);
  }
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === "ENOENT"
    ? "no such directory"
    : e.code === "EACCES"
      ? "permission denied"
      : e.code === "ENOSPC"
        ? "no space left on device"
        : e.code === "EISDIR"
          ? "is a directory"
          : describeWriteError(err);
}

function errorLine(message: string): string {
  return formatDiagnostic({ severity: "error", message, code: ExitCode.USAGE_OR_IO }, colorsFor(false));
}
