import { readFileSync } from "node:fs";
import { PassThrough, Readable, Writable } from "node:stream";
import { main } from "../../src/cli/main.js";

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface CliOptions {
  /** Standard input (default: empty, not a TTY). */
  stdin?: string | Buffer;
  /** Feed every input (files and stdin) in chunks of this many bytes (default: whole). */
  chunkSize?: number;
  env?: Record<string, string | undefined>;
  stdoutIsTTY?: boolean;
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
}

/** Bytes as a stream of `size`-byte chunks (0 = one chunk), to prove output does not depend on chunking. */
export function chunked(data: Buffer, size = 0): Readable {
  const parts: Buffer[] = [];
  if (size <= 0 || size >= data.length) parts.push(data);
  else for (let i = 0; i < data.length; i += size) parts.push(data.subarray(i, i + size));
  return Readable.from(parts, { objectMode: false });
}

class Collect extends Writable {
  chunks: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    cb();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** Runs `cursorlog ARGV` in-process (csvkit style) with fake stdio; paths are relative to the repo root. */
export async function runCli(argv: string[], opts: CliOptions = {}): Promise<CliResult> {
  const stdout = new Collect();
  const stderr = new Collect();
  const stdinData = opts.stdin === undefined ? Buffer.alloc(0) : Buffer.from(opts.stdin);
  const stdin = opts.stdinIsTTY ? new PassThrough() : chunked(stdinData, opts.chunkSize);
  const code = await main(argv, {
    stdin,
    stdout,
    stderr,
    env: opts.env ?? { TZ: "UTC", NO_COLOR: "1" },
    stdinIsTTY: opts.stdinIsTTY ?? false,
    stdoutIsTTY: opts.stdoutIsTTY ?? false,
    stderrIsTTY: opts.stderrIsTTY ?? false,
    open: (path) => chunked(readFileSync(path), opts.chunkSize),
  });
  return { stdout: stdout.text(), stderr: stderr.text(), code };
}
