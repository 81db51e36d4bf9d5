import type { JsonObject } from "../input/record.js";

/** A key written twice in one object of a line: where the object is, and the key. */
export interface DuplicateKey {
  /** JSON Pointer of the object holding the key ("" for the event itself). */
  path: string;
  key: string;
}

/**
 * The keys a line repeats within one object (`{"type":"thinking",…,"type":"result"}`). JSON.parse,
 * like jq, keeps the last value; every command reads the line that way, and validate warns.
 * `text` is the line, `value` what JSON.parse made of it, `keys` the line's keys as the scanner
 * counted them (else they are counted in `text`, a jump from quote to quote). Cost on a line
 * without repeats: a count of the keys in the value.
 */
export function duplicateKeys(text: string, value: JsonObject, keys?: number): DuplicateKey[] | undefined {
  if ((keys ?? textKeys(text)) === valueKeys(value)) return undefined;
  const found: DuplicateKey[] = [];
  new Walk(text, found).value("");
  return found.length > 0 ? found : undefined;
}

/** The number of strings followed by `:` in a JSON text: its keys. */
function textKeys(s: string): number {
  let n = 0;
  let i = s.indexOf('"');
  while (i >= 0) {
    const j = closing(s, i + 1);
    if (j < 0) return n;
    let k = j + 1;
    while (isSpace(s.charCodeAt(k))) k++;
    if (s.charCodeAt(k) === 0x3a) n++;
    i = s.indexOf('"', k);
  }
  return n;
}

/** The number of own keys of every object in a parsed value. */
function valueKeys(v: unknown): number {
  if (typeof v !== "object" || v === null) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const e of v) n += valueKeys(e);
    return n;
  }
  for (const k of Object.keys(v)) n += 1 + valueKeys((v as JsonObject)[k]);
  return n;
}

/** The quote closing the string whose content starts at `i`, or -1. */
function closing(s: string, i: number): number {
  for (;;) {
    const q = s.indexOf('"', i);
    if (q < 0) return -1;
    let b = q - 1;
    while (s.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    i = q + 1;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** A walk over a JSON text known to be valid, recording repeated keys per object. */
class Walk {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly found: DuplicateKey[],
  ) {}

  private skipSpace(): void {
    while (isSpace(this.s.charCodeAt(this.i))) this.i++;
  }

  /** The string at `i` (its opening quote), decoded; `i` moves past it. */
  private string(): string {
    const start = this.i;
    const end = closing(this.s, start + 1);
    this.i = end + 1;
    const raw = this.s.slice(start + 1, end);
    return raw.indexOf("\\") < 0 ? raw : (JSON.parse(this.s.slice(start, end + 1)) as string);
  }

  value(path: string): void {
    this.skipSpace();
    const c = this.s.charCodeAt(this.i);
    if (c === 0x7b) this.object(path);
    else if (c === 0x5b) {
      this.i++;
      let n = 0;
      this.skipSpace();
      if (this.s.charCodeAt(this.i) === 0x5d) {
        this.i++;
        return;
      }
      for (;;) {
        this.value(`${path}/${n++}`);
        this.skipSpace();
        if (this.s.charCodeAt(this.i++) !== 0x2c) return; // `]`
      }
    } else if (c === 0x22) this.string();
    else {
      // a number or a literal: up to the next delimiter
      while (this.i < this.s.length && !/[,\]}\s]/.test(this.s[this.i]!)) this.i++;
    }
  }

  private object(path: string): void {
    this.i++;
    const seen = new Set<string>();
    const repeated = new Set<string>();
    this.skipSpace();
    if (this.s.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return;
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      if (seen.has(key)) {
        if (!repeated.has(key)) this.found.push({ path, key });
        repeated.add(key);
      } else seen.add(key);
      this.skipSpace();
      this.i++; // `:`
      this.value(`${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      this.skipSpace();
      if (this.s.charCodeAt(this.i++) !== 0x2c) return; // `}`
    }
  }
}
