import { Readable, Transform } from "node:stream";
import { byteSource, describeIoError, openFile } from "./byte-source.js";
import { ChunkPool } from "./chunk-pool.js";
import { JsonReader } from "./json-reader.js";
import { LineSplitter } from "./line-splitter.js";
import type { RawSkip } from "./raw-skip.js";
import type { InputItem, JsonRecord } from "./record.js";

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
  /** `--follow`: keep reading each named file as it grows, until its run's `result` (see follow-file.ts). */
  follow?: boolean;
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
}

/**
 * Every named input in order, as batches of parsed objects and problems. A file that cannot be
 * read is one `io` problem and the next file is read (grep's rule). With `stopAtMalformed`, the
 * batch holding the first malformed line ends with it and nothing more is read.
 */
export async function* readInputs(opts: InputOptions): AsyncGenerator<InputBatch> {
  const names = opts.files.length > 0 ? opts.files : ["-"];
  const pool = new ChunkPool();
  // follow-file.ts (and its timers) is loaded for --follow only (start-up).
  const followFile = opts.follow ? (await import("./follow-file.js")).followFile : undefined;
  const open = opts.open ?? (followFile ? (path: string) => Readable.from(followFile(path), { objectMode: false }) : (path: string) => openFile(path, pool));
  for (const name of names) {
    if (opts.stop?.()) return;
    const file = name === "-" ? STDIN_NAME : name;
    const splitter = new LineSplitter(opts.maxLineBytes, opts.skip);
    const reader = new JsonReader(file, opts.maxLineBytes);
    let items: InputItem[] = [];
    let failed = false;
    let garbage = false;
    try {
      const stream = name === "-" ? opts.stdin : counted(open(name), opts.onBytes);
      for await (const chunk of byteSource(stream, stream, () => (garbage = true))) {
        if (opts.stop?.()) return;
        reader.read(splitter.push(chunk), items);
        // The lines are read: unless a record kept some of its bytes, the chunk's memory can be read into again.
        if (!items.some(holdsBytes)) pool.give(chunk);
        if (items.length > 0) {
          if (opts.stopAtMalformed && cutAtMalformed(items)) {
            yield { file, items, fileEnd: true, lastLine: splitter.lastLine };
            return;
          }
          yield { file, items, fileEnd: false, lastLine: splitter.lastLine };
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
