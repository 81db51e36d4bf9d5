import { appendFileSync } from "node:fs";
import { basename } from "node:path";
import { Readable, Writable } from "node:stream";
import { Command } from "commander";
import { main } from "../../src/cli/main.js";
import { openFile } from "../../src/input/byte-source.js";
import { buildProgram } from "../../src/cli/program.js";

// In-process runs of `cursorlog` for the robustness tests: every input (named files and stdin) is
// fed as the exact pieces asked for, so a test can cut inside a UTF-8 character or between CR and
// LF; stdout and stderr can be one stream, to see what came out in which order.

export interface Feed {
  bytes: Buffer;
  /** Offsets where a chunk ends (sorted, inside (0, length)); none: one chunk. */
  cuts?: readonly number[];
}

export interface RunOptions {
  /** Named inputs served from memory (other names are read from disk as usual). */
  files?: Record<string, Feed>;
  stdin?: Feed;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  env?: Record<string, string | undefined>;
  /** Fail instead of waiting longer than this for the run to end (default 20 s). */
  timeoutMs?: number;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
  /** stdout and stderr interleaved in the order they were written. */
  both: string;
}

/** The pieces `cuts` makes of `bytes`. */
export function pieces(bytes: Buffer, cuts: readonly number[] = []): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const c of cuts) {
    if (c <= at || c >= bytes.length) continue;
    out.push(bytes.subarray(at, c));
    at = c;
  }
  if (at < bytes.length || out.length === 0) out.push(bytes.subarray(at));
  return out;
}

/** A stream that hands out exactly these pieces, one per read (highWaterMark 1 keeps them apart). */
export function pieceStream(parts: readonly Buffer[]): Readable {
  let i = 0;
  return new Readable({
    highWaterMark: 1,
    read() {
      this.push(i < parts.length ? parts[i++] : null);
    },
  });
}

/** Offsets of awkward cuts: inside a multi-byte UTF-8 character, and between a CR and its LF. */
export function awkwardOffsets(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80 || (b === 0x0a && bytes[i - 1] === 0x0d)) out.push(i);
  }
  return out;
}

export interface Chunking {
  /** Chunk sizes are drawn from 1..maxChunk. */
  maxChunk: number;
  seed: number;
  /** Also cut at every awkward offset (see awkwardOffsets). */
  awkward: boolean;
}

/** Cut offsets for `bytes`: random sizes up to maxChunk (a seeded PRNG), plus the awkward offsets if asked. */
export function cutsFor(bytes: Buffer, c: Chunking): number[] {
  let s = c.seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  const cuts = new Set<number>();
  for (let at = 0; ; ) {
    at += 1 + (rnd() % c.maxChunk);
    if (at >= bytes.length) break;
    cuts.add(at);
  }
  if (c.awkward) for (const o of awkwardOffsets(bytes)) cuts.add(o);
  return [...cuts].sort((a, b) => a - b);
}

class Sink extends Writable {
  chunks: Buffer[] = [];
  constructor(private readonly both: Buffer[]) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    const b = Buffer.from(chunk);
    this.chunks.push(b);
    this.both.push(b);
    cb();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

// ROBUST_COUNT_FILE=path: each test file appends how many runs it made (for docs/RELIABILITY.md).
let runCount = 0;
const countFile = process.env.ROBUST_COUNT_FILE;
if (countFile) process.on("exit", () => appendFileSync(countFile, `${basename(process.argv[1] ?? "?")} ${runCount}\n`));

/** Runs `cursorlog ARGV` in-process on the given feeds. Rejects if it does not end within timeoutMs. */
export async function runFed(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  runCount++;
  const both: Buffer[] = [];
  const stdout = new Sink(both);
  const stderr = new Sink(both);
  const stdin = opts.stdin ? pieceStream(pieces(opts.stdin.bytes, opts.stdin.cuts)) : pieceStream([]);
  const files = opts.files ?? {};
  const run = main([...argv], {
    stdin,
    stdout,
    stderr,
    env: opts.env ?? { TZ: "UTC", NO_COLOR: "1" },
    stdinIsTTY: false,
    stdoutIsTTY: opts.stdoutIsTTY ?? false,
    stderrIsTTY: opts.stderrIsTTY ?? false,
    open: (path) => {
      const f = files[path];
      if (f === undefined) return openFile(path);
      return pieceStream(pieces(f.bytes, f.cuts));
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const limit = opts.timeoutMs ?? 20_000;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cursorlog ${argv.join(" ")} did not end within ${limit} ms`)), limit);
  });
  try {
    const code = await Promise.race([run, timeout]);
    return { stdout: stdout.text(), stderr: stderr.text(), code, both: Buffer.concat(both).toString("utf8") };
  } finally {
    clearTimeout(timer);
  }
}

/** What a command that reads logs looks like to the harness. */
export interface LogCommand {
  name: string;
  /** Its long option flags (--lenient, --follow, …). */
  flags: Set<string>;
}

/**
 * Every command of the program that reads logs, found from the command table itself (a command
 * whose arguments take files), so a command added to COMMANDS is covered without editing a test.
 */
export function logCommands(): LogCommand[] {
  const program: Command = buildProgram({ io: undefined as never, setRun: () => {} }, "0");
  return program.commands
    .filter((c) => c.registeredArguments.some((a) => a.name() === "files" && a.variadic))
    .map((c) => ({ name: c.name(), flags: new Set(c.options.map((o) => o.long).filter((l): l is string => l !== undefined)) }));
}

/** Escapes text for a readable assertion message. */
export function show(s: string, max = 400): string {
  const j = JSON.stringify(s);
  return j.length > max ? j.slice(0, max) + "…" : j;
}

/**
 * The option sets each command is run with: none, --lenient, and for the commands known today the
 * options that change what is read or written. A new command gets the first two until added here.
 */
export function variantsOf(cmd: LogCommand): string[][] {
  const known: Record<string, string[][]> = {
    json: [["--allow-incomplete"], ["--pretty"]],
    text: [["-v"], ["--final"], ["--final", "--allow-incomplete"], ["-v", "--allow-incomplete"]],
    filter: [["--type", "tool_call", "--pair"], ["--exclude-type", "thinking"], ["--status", "failure", "-c"], ["--since", "2026-01-01T00:00:00.200Z", "--pair"], ["--where", "tool_call.*.args.command ~ (a|é)+$"]],
    timeline: [["--format", "tsv"], ["--format", "ndjson"], ["--format", "tsv", "--safe-csv"], ["--allow-incomplete", "--safe-csv"]],
    stats: [["--format", "json"], ["--format", "markdown"], ["-e"]],
    validate: [["--format", "json"]],
    show: [["--thinking", "--diff", "--lines", "2"], ["--format", "markdown", "--diff"], ["-e", "--width", "40"]],
    diff: [["--stat"], ["--name-only"]],
    runs: [["--format", "ndjson"], ["--format", "csv", "--where", "outcome != finished"], ["-e", "--sort", "-duration_ms"]],
  };
  const extra = (known[cmd.name] ?? []).filter((v) => v.every((a) => !a.startsWith("--") || cmd.flags.has(a)));
  return [[], ["--lenient"], ...extra];
}
