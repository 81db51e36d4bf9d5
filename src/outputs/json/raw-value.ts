/**
 * A JSON value as it was written: every number, string and literal keeps its text (`1e400`,
 * `12345678901234567890`, `1.0`, `-0`, `"\u00e9"`), which JSON.parse and JSON.stringify would
 * change (`null`, `12345678901234567000`, `1`, `0`, `"é"`). Objects keep their keys in the order
 * written; a key written twice keeps its first place and its last value, as JSON.parse and jq do.
 */
export type RawValue = string | RawValue[] | RawObject;

/** Key (decoded) → the key as written (its first spelling) and its last value. */
export class RawObject {
  readonly members = new Map<string, { keyText: string; value: RawValue }>();
}

/**
 * `text` (one JSON value, already accepted by JSON.parse: only whitespace is skipped here, nothing
 * else is checked) as a RawValue. Nesting is followed by recursion: a value too deep for the stack
 * throws V8's RangeError, which the stage adapter reports as a line nested too deeply.
 */
export function parseRaw(text: string): RawValue {
  const p = new Parser(text);
  return p.value();
}

/** The member `key` of a raw object, or undefined. */
export function member(v: RawValue, key: string): RawValue | undefined {
  return v instanceof RawObject ? v.members.get(key)?.value : undefined;
}

/** JSON text of `v`: compact, or indented by two spaces like JSON.stringify(v, null, 2). */
export function stringifyRaw(v: RawValue, pretty: boolean): string {
  return pretty ? indented(v, "\n") : compact(v);
}

function compact(v: RawValue): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return "[" + v.map(compact).join(",") + "]";
  let out = "{";
  let first = true;
  for (const { keyText, value } of v.members.values()) {
    out += (first ? "" : ",") + keyText + ":" + compact(value);
    first = false;
  }
  return out + "}";
}

function indented(v: RawValue, nl: string): string {
  if (typeof v === "string") return v;
  const inner = nl + "  ";
  if (Array.isArray(v)) return v.length === 0 ? "[]" : "[" + v.map((e) => inner + indented(e, inner)).join(",") + nl + "]";
  if (v.members.size === 0) return "{}";
  const parts: string[] = [];
  for (const { keyText, value } of v.members.values()) parts.push(inner + keyText + ": " + indented(value, inner));
  return "{" + parts.join(",") + nl + "}";
}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  private space(): void {
    const s = this.s;
    let c = s.charCodeAt(this.i);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = s.charCodeAt(++this.i);
  }

  value(): RawValue {
    this.space();
    const c = this.s.charCodeAt(this.i);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    // A number or a literal: up to the next delimiter.
    const start = this.i;
    const s = this.s;
    let d = s.charCodeAt(this.i);
    while (this.i < s.length && d !== 0x2c && d !== 0x5d && d !== 0x7d && d !== 0x20 && d !== 0x09 && d !== 0x0a && d !== 0x0d) d = s.charCodeAt(++this.i);
    return s.slice(start, this.i);
  }

  /** The string at `i` (its opening quote), as written, quotes included. */
  private string(): string {
    const s = this.s;
    let q = this.i + 1;
    for (;;) {
      q = s.indexOf('"', q);
      let b = q - 1;
      while (s.charCodeAt(b) === 0x5c) b--;
      if ((q - 1 - b) % 2 === 0) break;
      q++;
    }
    const out = s.slice(this.i, q + 1);
    this.i = q + 1;
    return out;
  }

  private array(): RawValue[] {
    this.i++;
    const out: RawValue[] = [];
    this.space();
    if (this.s.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      if (this.s.charCodeAt(this.i++) !== 0x2c) return out; // `]`
    }
  }

  private object(): RawObject {
    this.i++;
    const o = new RawObject();
    this.space();
    if (this.s.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return o;
    }
    for (;;) {
      this.space();
      const keyText = this.string();
      const key = keyText.indexOf("\\") < 0 ? keyText.slice(1, -1) : (JSON.parse(keyText) as string);
      this.space();
      this.i++; // `:`
      const value = this.value();
      const had = o.members.get(key);
      if (had !== undefined) had.value = value;
      else o.members.set(key, { keyText, value });
      this.space();
      if (this.s.charCodeAt(this.i++) !== 0x2c) return o; // `}`
    }
  }
}
