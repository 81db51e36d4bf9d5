/** Text cut to a budget: what is shown, and how many characters of the whole were left out (0: none). */
export interface Shown {
  text: string;
  cut: number;
}

/**
 * A value as logged (a call's arguments, its outcome), readable: an object as `key: value` lines,
 * nested ones indented, a string with line breaks as a block under its key (`|`), other values as
 * JSON. At most `max` characters are written: past it, each string is left out, counted in `cut`
 * (what the whole would have taken, about), so a 10 MB output costs no more than `max`.
 */
export function readable(value: unknown | undefined, max: number): Shown {
  const w = new Writer(max);
  if (value !== undefined) w.value(value, "", false);
  return { text: w.out.replace(/\n$/, ""), cut: w.cut };
}

/** Text cut to `max` characters (its end kept whole up to a line break when it can be). */
export function cutText(text: string, max: number): Shown {
  if (text.length <= max) return { text, cut: 0 };
  return { text: text.slice(0, max), cut: text.length - max };
}

class Writer {
  out = "";
  cut = 0;
  constructor(private readonly max: number) {}

  private put(s: string): void {
    const room = this.max - this.out.length;
    if (room <= 0) this.cut += s.length;
    else if (s.length <= room) this.out += s;
    else {
      this.out += s.slice(0, room);
      this.cut += s.length - room;
    }
  }

  value(v: unknown, indent: string, inLine: boolean): void {
    if (v !== null && typeof v === "object") {
      const entries: [string, unknown][] = Array.isArray(v) ? v.map((x: unknown) => ["-", x]) : Object.entries(v).map(([k, x]) => [keyOf(k), x]);
      if (entries.length === 0) {
        this.put(Array.isArray(v) ? `${inLine ? " " : ""}[]\n` : `${inLine ? " " : ""}{}\n`);
        return;
      }
      if (inLine) this.put("\n");
      for (const [k, x] of entries) {
        if (this.out.length >= this.max) {
          // Past the budget: only counted (a rough size, as JSON), never written.
          this.cut += k.length + 2 + jsonSize(x);
          continue;
        }
        this.put(`${indent}${k === "-" && Array.isArray(v) ? k : k + ":"}`);
        this.value(x, indent + "  ", true);
      }
      return;
    }
    if (typeof v === "string" && /\n/.test(v)) {
      this.put(`${inLine ? " " : ""}|\n`);
      const body = v.replace(/\r\n/g, "\n").replace(/\n$/, "");
      const room = Math.max(0, this.max - this.out.length);
      // Only what fits is split into lines; the rest is counted.
      const shown = body.length > room ? body.slice(0, room) : body;
      this.cut += body.length - shown.length;
      for (const line of shown.split("\n")) this.put(`${indent}${line}\n`);
      return;
    }
    if (typeof v === "string") {
      const room = Math.max(0, this.max - this.out.length);
      const shown = v.length > room ? v.slice(0, room) : v;
      this.cut += v.length - shown.length;
      this.put(`${inLine ? " " : ""}${JSON.stringify(shown)}\n`);
      return;
    }
    this.put(`${inLine ? " " : ""}${JSON.stringify(v) ?? String(v)}\n`);
  }
}

/** A key as written when it is a plain name, else as a JSON string (a key with a line break stays on its line). */
function keyOf(k: string): string {
  return /^[\w$.@/-]+$/.test(k) ? k : JSON.stringify(k);
}

/** About how many characters `v` takes as JSON, counted without writing it (strings by length). */
function jsonSize(v: unknown): number {
  if (v === null || typeof v !== "object") return typeof v === "string" ? v.length + 2 : String(v).length;
  if (Array.isArray(v)) {
    let n = 2;
    for (const x of v as unknown[]) n += jsonSize(x) + 1;
    return n;
  }
  let n = 2;
  for (const [k, x] of Object.entries(v)) n += k.length + 3 + jsonSize(x) + 1;
  return n;
}

/**
 * How much of each call's arguments and outcome the page shows: ARGS_MAX and OUTPUT_MAX characters
 * each, and once the page holds PAGE_MAX characters of them, LATE_MAX each (a log of 10,000 calls
 * with large outputs still gives a page a browser opens in seconds). Each cut is said where it is.
 */
export class ContentBudget {
  static readonly ARGS_MAX = 8 * 1024;
  static readonly OUTPUT_MAX = 32 * 1024;
  static readonly LATE_MAX = 1024;
  static readonly PAGE_MAX = 24 * 1024 * 1024;
  private spent = 0;

  get args(): number {
    return this.spent < ContentBudget.PAGE_MAX ? ContentBudget.ARGS_MAX : ContentBudget.LATE_MAX;
  }

  get output(): number {
    return this.spent < ContentBudget.PAGE_MAX ? ContentBudget.OUTPUT_MAX : ContentBudget.LATE_MAX;
  }

  spend(n: number): void {
    this.spent += n;
  }

  /** A new page (-o DIR): its own budget. */
  reset(): void {
    this.spent = 0;
  }
}
