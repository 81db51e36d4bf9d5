import { constants } from "node:buffer";
import { jsonParser } from "stream-json/core/parser.js";
import Assembler from "stream-json/core/assembler.js";
import { none, isMany, getManyValues } from "stream-chain/defs.js";
import { decode, type Line, type OversizeLine, type SkippedLine } from "./line-splitter.js";
import type { InputItem, JsonObject } from "./record.js";
import { isTooDeep, TOO_DEEP } from "./too-deep.js";

type TokenFn = (chunk: string | typeof none) => unknown;

/**
 * Physical lines in, JSON objects (or problems) out, for one input file.
 *
 * Fast path: one `JSON.parse` per line. Only when a line fails to parse and starts like a JSON
 * value (`{` or `[`), this reader switches to stream-json's token parser — pretty-printed events,
 * two objects on one line, `jq .` output — and switches back once a line ends between values.
 * Values found that way are reported at the line where they start.
 */
export class JsonReader {
  private parse: TokenFn | null = null;
  private asm: Assembler | null = null;
  private valueLine = 0;
  private firstStreamLine = 0;
  private firstError = "";
  /** The compact text of the value being read over several lines. */
  private text: CompactText | null = null;

  constructor(
    private readonly file: string,
    private readonly maxLineChars: number,
  ) {}

  /** A JSON value that began on an earlier line is not closed yet (pretty-printed, being written). */
  get open(): boolean {
    return this.parse !== null;
  }

  /** Appends what `lines` yield to `out`. */
  read(lines: Array<Line | SkippedLine | OversizeLine>, out: InputItem[]): void {
    for (const line of lines) {
      if ("skipped" in line) this.readSkipped(line, out);
      else this.readLine(line, out);
    }
  }

  /** Skipped lines stand in as records of their type, unless a value spanning lines is being read: then they are part of it. */
  private readSkipped(run: SkippedLine, out: InputItem[]): void {
    if (this.parse === null) {
      const value = typeof run.skipped === "string" ? stub(run.skipped) : run.skipped;
      if (run.keep) out.push({ file: this.file, line: run.lineNo, text: "", value, skipped: true, raw: run.buf.subarray(run.start, run.end + 1) });
      else if (run.count === 1) out.push({ file: this.file, line: run.lineNo, text: "", value, skipped: true });
      else out.push({ file: this.file, line: run.lineNo, lastLine: run.lineNo + run.count - 1, text: "", value, skipped: true });
      return;
    }
    // Read them one by one: the value may end on one of them, and the rest are skipped again.
    let start = run.start;
    for (let k = 0; k < run.count; k++) {
      const nl = k === run.count - 1 ? run.end : run.buf.indexOf(10, start);
      const end = nl > start && run.buf[nl - 1] === 13 ? nl - 1 : nl;
      const lineNo = run.lineNo + k;
      if (this.parse === null) {
        this.readSkipped({ ...run, lineNo, count: run.count - k, start }, out);
        return;
      }
      const bom = end - start >= 3 && run.buf[start] === 0xef && run.buf[start + 1] === 0xbb && run.buf[start + 2] === 0xbf ? 3 : 0;
      this.readLine({ lineNo, text: run.buf.toString("utf8", start + bom, end) }, out);
      start = nl + 1;
    }
  }

  private readLine(line: Line | OversizeLine, out: InputItem[]): void {
    if ("oversize" in line) {
      this.abandonStream();
      out.push({
        kind: "malformed",
        file: this.file,
        line: line.lineNo,
        message:
          this.maxLineChars < constants.MAX_STRING_LENGTH
            ? `line is longer than --max-line-bytes (${this.maxLineChars})`
            : `line is longer than ${constants.MAX_STRING_LENGTH} bytes, the longest string Node.js can hold`,
      });
      return;
    }
    if (line.shortened !== undefined && this.parse !== null) return this.readLine(whole(line), out);
    if (this.parse !== null) {
      this.feed(line, out);
      return;
    }
    const text = line.text;
    // Blank lines are skipped before parsing: JSON.parse("") throws, and a thrown error (its
    // message, its stack) costs about 100 times a line, which made a file of newlines slow.
    if (text.charCodeAt(0) !== 123 && isBlank(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      // The shortened text did not parse: the line, read whole, is reported as it is.
      if (line.shortened !== undefined) return this.readLine(whole(line), out);
      const first = firstNonSpace(text);
      if (first === "{" || first === "[") {
        this.startStream(line.lineNo, errorText(err));
        this.feed(line, out);
      } else if (first === '"' || first === "}" || first === "]") {
        // A string, or the end of a broken multi-line value: JSON gone wrong, not the CLI's text.
        out.push({ kind: "malformed", file: this.file, line: line.lineNo, message: `not JSON: the line starts with ${excerpt(text)}` });
      } else {
        // Not the beginning of any JSON value an event could be: the agent CLI's own text (its
        // stderr merged into the log), e.g. `RetriableError: …` where a failed run ends.
        out.push({ kind: "said", file: this.file, line: line.lineNo, message: text.trim() });
      }
      return;
    }
    if (!isObject(value)) out.push(this.notObject(line.lineNo, value));
    else if (line.shortened !== undefined) out.push({ file: this.file, line: line.lineNo, text, value, shortened: true });
    else if (line.bytes !== undefined) out.push({ file: this.file, line: line.lineNo, text, value, bytes: line.bytes });
    else if (line.keys !== undefined) out.push({ file: this.file, line: line.lineNo, text, value, keys: line.keys });
    else out.push({ file: this.file, line: line.lineNo, text, value });
  }

  /** End of input: a value still open is a truncated one. */
  end(out: InputItem[]): void {
    if (this.parse === null) return;
    const started = this.valueLine || this.firstStreamLine;
    const depth = this.asm?.depth ?? 0;
    this.abandonStream();
    if (depth > 0) {
      out.push({
        kind: "malformed",
        file: this.file,
        line: started,
        message: "unexpected end of input: the JSON value that starts here is never closed",
      });
    }
  }

  private startStream(lineNo: number, jsonError: string): void {
    this.parse = jsonParser({ jsonStreaming: true, streamValues: false }) as unknown as TokenFn;
    this.asm = new Assembler();
    this.valueLine = 0;
    this.firstStreamLine = lineNo;
    this.firstError = jsonError;
  }

  private abandonStream(): void {
    this.parse = null;
    this.asm = null;
    this.text = null;
    this.valueLine = 0;
  }

  private feed(line: Line, out: InputItem[]): void {
    const asm = this.asm!;
    // A JSON string cannot span a line break: a line that ends inside one was cut off. Say so
    // here, at this line, rather than let the parser take the next line in as string content.
    if (endsInsideString(line.text)) {
      const message = line.lineNo === this.firstStreamLine ? this.firstError : "the line ends inside a string";
      this.abandonStream();
      out.push({ kind: "malformed", file: this.file, line: line.lineNo, message: `invalid JSON: ${message}` });
      return;
    }
    let tokens: unknown;
    try {
      tokens = this.parse!(line.text + "\n");
    } catch (err) {
      const message = line.lineNo === this.firstStreamLine ? this.firstError : errorText(err);
      this.abandonStream();
      out.push({ kind: "malformed", file: this.file, line: line.lineNo, message: `invalid JSON: ${message}` });
      return;
    }
    const list = tokens === none ? [] : isMany(tokens) ? (getManyValues(tokens) as unknown[]) : [tokens];
    for (const token of list) {
      if (asm.depth === 0 && this.valueLine === 0) {
        this.valueLine = line.lineNo;
        this.text = new CompactText();
      }
      asm.consume(token as Parameters<Assembler["consume"]>[0]);
      this.text!.add(token as Token);
      if (asm.done) {
        const value = asm.current;
        if (isObject(value)) out.push(this.compact(value, this.text!.text));
        else out.push(this.notObject(this.valueLine, value));
        this.valueLine = 0;
        this.text = null;
      }
    }
    // JSON strings, numbers and literals cannot span a line break, so between values at the end
    // of a line nothing is pending: go back to the one-parse-per-line fast path.
    if (asm.depth === 0 && this.valueLine === 0) this.abandonStream();
  }

  /**
   * A value read over several lines (or sharing one) becomes one compact line, built from its
   * tokens: numbers keep their spelling and repeated keys stay (strings are re-escaped). A value
   * too deep for what follows (JSON.stringify, a schema validator) is reported here.
   */
  private compact(value: JsonObject, text: string): InputItem {
    try {
      JSON.stringify(value);
      return { file: this.file, line: this.valueLine, text, value, reassembled: true };
    } catch (err) {
      if (!isTooDeep(err)) throw err;
      return { kind: "malformed", file: this.file, line: this.valueLine, message: TOO_DEEP };
    }
  }

  private notObject(lineNo: number, value: unknown): InputItem {
    const what = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    // A file holding the events as one JSON array (an export, a saved API reply) is one jq away from NDJSON.
    const hint = Array.isArray(value) ? "; for an array of events, make NDJSON first: jq -c '.[]' FILE | cursorlog …" : "";
    return { kind: "malformed", file: this.file, line: lineNo, message: `expected a JSON object, found ${what}${hint}` };
  }
}

interface Token {
  name: string;
  value?: string;
}

/** The compact JSON text of a value, from stream-json's packed tokens (numbers as written). */
class CompactText {
  text = "";
  /** Per open container: whether a member or element was written (a comma goes before the next). */
  private filled: boolean[] = [];
  private afterKey = false;

  add(t: Token): void {
    switch (t.name) {
      case "startObject":
      case "startArray":
        this.before();
        this.text += t.name === "startObject" ? "{" : "[";
        this.filled.push(false);
        return;
      case "endObject":
      case "endArray":
        this.text += t.name === "endObject" ? "}" : "]";
        this.filled.pop();
        return;
      case "keyValue":
        this.before();
        this.text += JSON.stringify(t.value) + ":";
        this.afterKey = true;
        return;
      case "stringValue":
        this.before();
        this.text += JSON.stringify(t.value);
        return;
      case "numberValue":
        this.before();
        this.text += t.value;
        return;
      case "nullValue":
      case "trueValue":
      case "falseValue":
        this.before();
        this.text += t.name === "nullValue" ? "null" : t.name === "trueValue" ? "true" : "false";
        return;
      default:
      // startKey, stringChunk, … are not emitted with packed values only
    }
  }

  private before(): void {
    if (this.afterKey) {
      this.afterKey = false;
      return;
    }
    const n = this.filled.length;
    if (n === 0) return;
    if (this.filled[n - 1]) this.text += ",";
    else this.filled[n - 1] = true;
  }
}

/** A shortened line as it was. */
function whole(line: Line): Line {
  const { buf, start, end } = line.shortened!;
  return { lineNo: line.lineNo, text: decode(buf, start, end) };
}

const stubs = new Map<string, JsonObject>();

/** The stand-in value of a skipped line: only its type is known. Shared and frozen. */
function stub(type: string): JsonObject {
  let v = stubs.get(type);
  if (v === undefined) stubs.set(type, (v = Object.freeze({ type })));
  return v;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True when `s` ends inside a string: an unescaped `"` opened one that nothing closed. */
function endsInsideString(s: string): boolean {
  let inside = false;
  let i = s.indexOf('"');
  while (i >= 0) {
    if (inside) {
      let b = i - 1;
      while (s.charCodeAt(b) === 92) b--;
      if ((i - 1 - b) % 2 === 0) inside = false;
    } else inside = true;
    i = s.indexOf('"', i + 1);
  }
  return inside;
}

function isBlank(s: string): boolean {
  return /^[ \t\r\n\f\v\u00a0\ufeff]*$/.test(s);
}

function firstNonSpace(s: string): string {
  const m = /\S/.exec(s);
  return m ? m[0] : "";
}

/** V8's and stream-json's messages, made stable across Node versions: no echoed text, columns 1-based. */
function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err))
    .replace(/^Parser cannot parse input: /, "")
    .replace(/, ".*" is not valid JSON$/s, "")
    .replace(/ \(line \d+ column \d+\)$/, "")
    .replace(/ in JSON at position (\d+)$/, (_m, p: string) => ` at column ${Number(p) + 1}`)
    .replace(/ after JSON at position (\d+)$/, (_m, p: string) => ` after the JSON value, at column ${Number(p) + 1}`);
}

/** The start of the offending line, quoted, for the message. */
function excerpt(text: string): string {
  const max = 40;
  return JSON.stringify(text.length > max ? text.slice(0, max) + "…" : text);
}
