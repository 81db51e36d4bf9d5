import { Readable, Transform } from "node:stream";
import { byteSource, describeIoError, openFile } from "./byte-source.js";
import { ChunkPool } from "./chunk-pool.js";
import { JsonReader } from "./json-reader.js";
import { LineSplitter } from "./line-splitter.js";
import type { RawSkip } from "./raw-skip.js";
import type { FollowMode, FollowOptions, FollowSignal, RestartReason } from "./follow-file.js";
import type { InputItem, JsonObject, JsonRecord } from "./record.js";
import { lazy } from "../lazy.js";

const followModule = lazy(() => import("./follow-file.js"));
const dialectsModule = lazy(() => import("../dialects/index.js"));

export const STDIN_NAME = "<stdin>";

export interface InputOptions {
  /** File names in order; `-` is standard input. Empty means standard input. */
  files: readonly string[];
  stdin: Readable;
  maxLineBytes: number;
  /** Stop at the first malformed line (the default); `--lenient` sets this to false. */
  stopAtMalformed: boolean;
  /** Lines the command does not need, decided from raw bytes (see raw-skip.ts): never decoded or parsed. */
  skip?: RawSkip;
  /** Each record of a line tells its object keys (JsonRecord.keys). */
  keys?: boolean;
  /**
   * `--follow`: keep reading each named file as it grows, until its run's last event, read, is the
   * event that ends a run in the file's format (Dialect.runEndTypes: `result`, Codex's
   * `turn.completed` or `turn.failed`; see follow-file.ts). `"name"` (`-F`): follow the name through
   * renames and deletions.
   */
  follow?: boolean | FollowMode;
  /**
   * `--agent`: the format of every file, forced (an agent with a dialect: dialects/index.ts), for
   * `--follow` to know which events end a run; undefined: each file's own, decided from its first
   * event as the reader decides it (dialectFor).
   */
  agent?: string;
  /** What `--follow` has to say about a file (truncated, replaced, gone): a warning, not a problem. */
  onWarning?: (file: string, message: string) => void;
  /** Told the size of every chunk read from a named file, before decompression (the progress line). */
  onBytes?: (n: number) => void;
  /** Open a named file (tests inject chunked readers here). */
  open?: (path: string) => Readable;
  /** Asked before each chunk: once true, reading ends and the file is closed (validate --max-errors). */
  stop?: () => boolean;
}

/** What one input chunk yielded. `fileEnd` marks the last batch of a file (sessions end there). */
export interface InputBatch {
  file: string;
  items: InputItem[];
  fileEnd: boolean;
  /** The number of the last physical line read from the file so far. */
  lastLine: number;
  /**
   * Set when records of this batch hold raw bytes (JsonRecord.raw, filter --type): call it once
   * nothing refers to them any more (written or copied), and the read buffer they are in is read
   * into again instead of a fresh one being allocated (chunk-pool.ts).
   */
  release?: () => void;
}

/**
 * Every named input in order, as batches of parsed objects and problems. A file that cannot be
 * read is one `io` problem and the next file is read (grep's rule). With `stopAtMalformed`, the
 * batch holding the first malformed line ends with it and nothing more is read.
 */
export async function* readInputs(opts: InputOptions): AsyncGenerator<InputBatch> {
  const names = opts.files.length > 0 ? opts.files : ["-"];
  const pool = new ChunkPool();
  // follow-file.ts (and its timers) is loaded for --follow only (start-up), and so is the dialects'
  // registry: which events end a run depends on the file's format.
  const follow = opts.follow !== undefined && opts.follow !== false && opts.open === undefined ? await followModule() : undefined;
  const runEnds = follow !== undefined ? runEndsOf(await dialectsModule(), opts.agent) : undefined;
  const mode: FollowMode = opts.follow === "name" ? "name" : "descriptor";
  const open = opts.open ?? ((path: string) => openFile(path, pool));
  for (const name of names) {
    if (opts.stop?.()) return;
    const file = name === "-" ? STDIN_NAME : name;
    let splitter = new LineSplitter(opts.maxLineBytes, opts.skip, opts.keys);
    let reader = new JsonReader(file, opts.maxLineBytes);
    let items: InputItem[] = [];
    let failed = false;
    let garbage = false;
    const onGarbage = (): boolean => (garbage = true);
    // --follow: the type of the last event read, and the size of an unended last line last looked at;
    // the types of the events that end a run in this file's format, once its first event is read.
    let lastType: unknown;
    let triedHeld = 0;
    let ends: ReadonlySet<unknown> | undefined;
    try {
      let source: AsyncIterable<Buffer | FollowSignal>;
      if (name === "-") source = byteSource(opts.stdin, opts.stdin, onGarbage);
      else if (follow !== undefined) source = follow.followFile(name, followOptions(mode, opts.onBytes, onGarbage));
      else {
        const stream = counted(open(name), opts.onBytes);
        source = byteSource(stream, stream, onGarbage);
      }
      for await (const chunk of source) {
        if (opts.stop?.()) return;
        if (!Buffer.isBuffer(chunk)) {
          if (chunk.kind === "idle") {
            // Everything the file holds is read: the run is over when its last event ends it
            // (its result, Codex's turn.completed or turn.failed: Dialect.runEndTypes).
            if (reader.open) continue;
            if (splitter.held === 0) {
              if (ends?.has(lastType) === true) break;
              continue;
            }
            // A last line without its newline ends the run if it is a whole event that ends it.
            if (splitter.held !== triedHeld) {
              triedHeld = splitter.held;
              if (endsRun(splitter.peekHeld(), ends, runEnds!)) break;
            }
            continue;
          }
          if (chunk.kind === "warning") {
            opts.onWarning?.(file, chunk.message);
            continue;
          }
          // The file starts again: what was begun of a line of the old content will never end.
          const cut = splitter.lastLine + (splitter.held > 0 ? 1 : 0);
          const dropped = splitter.held > 0 || reader.open ? `; the incomplete event at the end of the old content (line ${cut}) is dropped` : "";
          opts.onWarning?.(file, `${RESTARTED[chunk.reason]}${dropped}`);
          splitter = new LineSplitter(opts.maxLineBytes, opts.skip, opts.keys);
          reader = new JsonReader(file, opts.maxLineBytes);
          lastType = undefined;
          triedHeld = 0;
          ends = undefined;
          continue;
        }
        const before = items.length;
        reader.read(splitter.push(chunk), items);
        if (follow !== undefined) {
          lastType = lastEventType(items, before) ?? lastType;
          if (ends === undefined) {
            const first = firstEvent(items, before);
            if (first !== undefined) ends = runEnds!(first);
          }
        }
        // The lines are read: unless a record kept some of its bytes, the chunk's memory can be
        // read into again; if one did, once the consumer is done with them (InputBatch.release).
        const release = items.some(holdsBytes) ? () => pool.give(chunk) : undefined;
        if (release === undefined) pool.give(chunk);
        if (items.length > 0) {
          if (opts.stopAtMalformed && cutAtMalformed(items)) {
            yield batch(file, items, true, splitter.lastLine, release);
            return;
          }
          yield batch(file, items, false, splitter.lastLine, release);
          items = [];
        }
      }
      reader.read(splitter.end(), items);
      reader.end(items);
      // gzip's warning, after all that was decoded: the file was read, but not all of it.
      if (garbage) items.push({ kind: "io", file, message: "decompression OK, trailing garbage ignored", warning: true });
    } catch (err) {
      failed = true;
      items.push({ kind: "io", file, message: `cannot read: ${describeIoError(err)}` });
    }
    const stop = !failed && opts.stopAtMalformed && cutAtMalformed(items);
    yield { file, items, fileEnd: true, lastLine: splitter.lastLine };
    if (stop) return;
  }
}

const RESTARTED: Record<RestartReason, string> = {
  truncated: "file truncated; reading it again from its start (line numbers start again at 1)",
  replaced: "the file was replaced; following the new file from its start (line numbers start again at 1)",
  appeared: "has appeared; following the new file from its start (line numbers start again at 1)",
};

function followOptions(mode: FollowMode, onBytes: ((n: number) => void) | undefined, onTrailingGarbage: () => void): FollowOptions {
  const o: FollowOptions = { mode, onTrailingGarbage };
  if (onBytes !== undefined) o.onBytes = onBytes;
  return o;
}

/** The `type` of the last event among `items[from…]` (problems are not events), if there is one. */
function lastEventType(items: readonly InputItem[], from: number): unknown {
  for (let i = items.length - 1; i >= from; i--) {
    const it = items[i]!;
    if (!("kind" in it)) return it.value.type ?? null;
  }
  return undefined;
}

type Dialects = typeof import("../dialects/index.js");

/**
 * The types of the events that end a run in a file whose first event is `first`: those of the
 * dialect `--agent` forced, else of the dialect that reads the file (dialectFor, the reader's rule).
 */
function runEndsOf(dialects: Dialects, agent: string | undefined): (first: JsonObject) => ReadonlySet<unknown> {
  const made = new Map<readonly string[], ReadonlySet<unknown>>();
  const forced = dialects.forcedDialect(agent);
  return (first) => {
    const types = (forced ?? dialects.dialectFor(first)).runEndTypes;
    let set = made.get(types);
    if (set === undefined) made.set(types, (set = new Set<unknown>(types)));
    return set;
  };
}

/** The first event among `items[from…]` (problems are not events), if there is one. */
function firstEvent(items: readonly InputItem[], from: number): JsonObject | undefined {
  for (let i = from; i < items.length; i++) {
    const it = items[i]!;
    if (!("kind" in it)) return it.value;
  }
  return undefined;
}

/**
 * A line without its newline yet, that is already a whole JSON object of a type that ends a run:
 * of `ends`, or, when it is the file's first event, of the types its own format ends a run with.
 */
function endsRun(bytes: Buffer, ends: ReadonlySet<unknown> | undefined, runEnds: (first: JsonObject) => ReadonlySet<unknown>): boolean {
  const value = wholeObject(bytes);
  return value !== undefined && (ends ?? runEnds(value)).has(value.type);
}

/** A line without its newline yet, that is already a whole JSON object. */
function wholeObject(bytes: Buffer): JsonObject | undefined {
  let start = 0;
  let end = bytes.length;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  while (start < end && isSpace(bytes[start]!)) start++;
  while (end > start && isSpace(bytes[end - 1]!)) end--;
  if (bytes[start] !== 0x7b || bytes[end - 1] !== 0x7d) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8", start, end));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
}

function batch(file: string, items: InputItem[], fileEnd: boolean, lastLine: number, release: (() => void) | undefined): InputBatch {
  return release === undefined ? { file, items, fileEnd, lastLine } : { file, items, fileEnd, lastLine, release };
}

function holdsBytes(item: InputItem): boolean {
  return (item as JsonRecord).raw !== undefined;
}

/** Truncates `items` after its first malformed problem; true when there was one. */
function cutAtMalformed(items: InputItem[]): boolean {
  const i = items.findIndex((it) => "kind" in it && it.kind === "malformed");
  if (i < 0) return false;
  items.length = i + 1;
  return true;
}

/** The same stream, telling `onBytes` the size of each chunk as it passes. */
function counted(stream: Readable, onBytes: ((n: number) => void) | undefined): Readable {
  if (onBytes === undefined) return stream;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  stream.on("error", (err) => out.destroy(err));
  out.on("close", () => stream.destroy());
  return stream.pipe(out);
}
