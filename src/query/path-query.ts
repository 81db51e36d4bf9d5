import { FilterSyntaxError } from "./syntax-error.js";

/** One step of a path: an object key, an array index (negative counts from the end), or `*`. */
export type PathSegment = { key: string } | { index: number } | { any: true };

export interface ParsedPath {
  segments: PathSegment[];
  /** Index in the text just after the path. */
  end: number;
}

/** A bare key: letters, digits, _ $ @ - (any script); anything else is quoted: ."a key". `*` alone is the wildcard. */
const BARE_KEY = /[\p{L}\p{N}_$@-]+|\*(?![\p{L}\p{N}_$@*-])/uy;
const INDEX = /\[(-?\d+|\*|)\]/y;

/**
 * Parses a jq-style path at `start` in `text`: `tool_call.shellToolCall.result.failure.exitCode`,
 * `.message.content[0].text`, `tool_call.*.result.failure` (`*`, `[*]` or `[]` take every key or
 * element), `payload."key with.dots"` or `["key"]` (JSON string syntax). A leading `.` is optional;
 * `.` alone is the event itself. The path ends at white space or at an operator.
 */
export function parsePath(text: string, start = 0): ParsedPath {
  const segments: PathSegment[] = [];
  let pos = start;

  function fail(what: string): never {
    throw new FilterSyntaxError(`bad path ${JSON.stringify(pathText())}: ${what} at column ${pos + 1}`);
  }
  function pathText(): string {
    const m = /[\s=!<>~]/.exec(text.slice(start));
    return m === null ? text.slice(start) : text.slice(start, start + m.index);
  }

  function quoted(): string {
    const m = /"(?:[^"\\]|\\.)*"/y;
    m.lastIndex = pos;
    const found = m.exec(text);
    if (found === null) fail('a quoted key without its closing "');
    try {
      const key = JSON.parse(found[0]) as string;
      pos += found[0].length;
      return key;
    } catch {
      return fail(`${found[0]} is not a valid JSON string`);
    }
  }

  function key(): void {
    if (text[pos] === '"') {
      segments.push({ key: quoted() });
      return;
    }
    BARE_KEY.lastIndex = pos;
    const m = BARE_KEY.exec(text);
    if (m === null) {
      if (atEnd(text, pos)) fail('a "." with no key after it');
      fail(`unexpected ${JSON.stringify(text[pos])} (quote a key that holds it: ."key")`);
    }
    segments.push(m[0] === "*" ? { any: true } : { key: m[0] });
    pos += m[0].length;
  }

  function bracket(): void {
    if (text.startsWith('["', pos)) {
      pos++;
      const k = quoted();
      if (text[pos] !== "]") fail('expected "]" after the quoted key');
      pos++;
      segments.push({ key: k });
      return;
    }
    INDEX.lastIndex = pos;
    const m = INDEX.exec(text);
    if (m === null) fail('expected [N], [-N], [*], [] or ["key"]');
    segments.push(m[1] === "*" || m[1] === "" ? { any: true } : { index: Number(m[1]) });
    pos += m[0].length;
  }

  if (text[pos] === ".") {
    pos++;
    if (atEnd(text, pos)) return { segments, end: pos };
    if (text[pos] !== "[") key();
  } else if (text[pos] !== "[") {
    key();
  }
  while (!atEnd(text, pos)) {
    if (text[pos] === ".") {
      pos++;
      if (text[pos] === ".") fail("an empty key (..)");
      key();
    } else if (text[pos] === "[") {
      bracket();
    } else {
      fail(`unexpected ${JSON.stringify(text[pos])} (quote a key that holds it: ."key")`);
    }
  }
  return { segments, end: pos };
}

function atEnd(text: string, pos: number): boolean {
  return pos >= text.length || /[\s=!<>~]/.test(text[pos]!);
}
