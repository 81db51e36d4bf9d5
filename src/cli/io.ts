import type { Readable, Writable } from "node:stream";

/** Everything a run touches outside itself; tests pass fakes (csvkit style), bin passes process.*. */
export interface Io {
  stdin: Readable;
  stdout: Writable;
  /**
   * The descriptor `stdout` writes to synchronously (the process's, on a file or a pipe), for
   * lines written straight from the read buffers (stream/to-transform.ts DirectOut); unset for
   * any other stdout.
   */
  stdoutFd?: number;
  stderr: Writable;
  env: Record<string, string | undefined>;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * The regular file `-o` writes (its name, device and inode): a directory given as input stands
   * for its logs but this one (a rerun of `-o DIR/out.ndjson DIR/` does not read its last output).
   */
  output?: { name: string; dev: number; ino: number };
  /** Open a named input (defaults to fs.createReadStream); tests use it to feed chunked input. */
  open?: (path: string) => Readable;
}
