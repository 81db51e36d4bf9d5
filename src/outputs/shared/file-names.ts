import type { Stage } from "../../stream/stage.js";

const LF = 0x0a;

/**
 * `-H` (grep's `--with-filename`) for a stage whose output is lines: `prefix(file)` before each
 * line it writes, the file being that of the event, the agent CLI's line or the end of file that
 * made the line. What a stage writes at the very end (finish) is not of one file and is left as
 * it is. Text, bytes (filter's lines as read) and pieces are all prefixed line by line.
 */
export function withFileNames(stage: Stage, prefix: (file: string) => string): Stage {
  let lastFile: string | undefined;
  let lastPrefix = "";
  let lastBytes: Buffer | undefined;
  const prefixOf = (file: string): string => {
    if (file !== lastFile) {
      lastFile = file;
      lastPrefix = prefix(file);
      lastBytes = undefined;
    }
    return lastPrefix;
  };
  const bytesOf = (file: string): Buffer => {
    const p = prefixOf(file);
    return (lastBytes ??= Buffer.from(p));
  };
  function named(file: string, out: string | undefined): string | undefined;
  function named(file: string, out: string | Iterable<string> | undefined): string | Iterable<string> | undefined;
  function named(file: string, out: string | Buffer | Iterable<string> | undefined): string | Buffer | Iterable<string> | undefined;
  function named(file: string, out: string | Buffer | Iterable<string> | undefined): string | Buffer | Iterable<string> | undefined {
    if (out === undefined || out === "") return out;
    if (typeof out === "string") return prefixLines(out, prefixOf(file));
    if (Buffer.isBuffer(out)) return out.length === 0 ? out : prefixBytes(out, bytesOf(file));
    return prefixPieces(out, prefixOf(file));
  }
  const wrapped: Stage = {
    ...stage,
    record: (rec) => named(rec.file, stage.record(rec)),
  };
  if (stage.fileEnd !== undefined) {
    const fileEnd = stage.fileEnd.bind(stage);
    wrapped.fileEnd = (file, lastLine, unreadable) => named(file, fileEnd(file, lastLine, unreadable));
  }
  if (stage.said !== undefined) {
    const said = stage.said.bind(stage);
    wrapped.said = (p) => named(p.file, said(p));
  }
  return wrapped;
}

/** `prefix` at the start of each line of `text` (whole lines, the last one ending in LF). */
export function prefixLines(text: string, prefix: string): string {
  const first = text.indexOf("\n");
  if (first < 0 || first === text.length - 1) return prefix + text;
  let out = prefix;
  let at = 0;
  for (let nl = first; nl >= 0 && nl < text.length - 1; nl = text.indexOf("\n", at)) {
    out += text.slice(at, nl + 1) + prefix;
    at = nl + 1;
  }
  return out + text.slice(at);
}

function prefixBytes(bytes: Buffer, prefix: Buffer): Buffer {
  const parts: Buffer[] = [prefix];
  let at = 0;
  for (let nl = bytes.indexOf(LF); nl >= 0 && nl < bytes.length - 1; nl = bytes.indexOf(LF, at)) {
    parts.push(bytes.subarray(at, nl + 1), prefix);
    at = nl + 1;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

function* prefixPieces(pieces: Iterable<string>, prefix: string): Generator<string> {
  let lineStart = true;
  for (const piece of pieces) {
    if (piece === "") {
      yield piece; // a pause (see Stage.finish)
      continue;
    }
    const body = prefixLines(piece, prefix);
    yield lineStart ? body : body.slice(prefix.length);
    lineStart = piece.endsWith("\n");
  }
}
