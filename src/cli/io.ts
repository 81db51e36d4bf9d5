import type { Readable, Writable } from "node:stream";

/** Everything a run touches outside itself; tests pass fakes (csvkit style), bin passes process.*. */
export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Open a named input (defaults to fs.createReadStream); tests use it to feed chunked input. */
  open?: (path: string) => Readable;
  /** The command line as given (main sets it), for `--jobs` workers to rerun. */
  argv?: readonly string[];
  /** In a `--jobs` run: read only the file with this index. */
  onlyFile?: number;
  /** Asked before each chunk read: once true, reading ends (a `--jobs` run whose output nobody reads any more). */
  stopped?: () => boolean;
}
