/**
 * Terminal columns of a code point: 2 for East Asian wide and fullwidth characters and emoji, 0
 * for combining marks and zero-width characters, 1 otherwise (a close reading of wcwidth, enough
 * for wrapping text).
 */
export function cpWidth(cp: number): number {
  if (cp < 0x300) return 1;
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    // Emoji skin tones and tag characters only modify the emoji before them.
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    (cp >= 0xe0020 && cp <= 0xe007f)
  )
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/**
 * Terminal columns of a string (cpWidth of each code point); a code point joined to the one before
 * it by ZWJ (U+200D: 👩‍💻 is one emoji) adds nothing.
 */
export function columns(s: string): number {
  let n = 0;
  let joined = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x300) {
      n++;
      joined = false;
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (!joined) n += cpWidth(cp);
    joined = cp === 0x200d;
  }
  return n;
}

/**
 * Made the first time a word is broken, not when the module loads: making a Segmenter (ICU's
 * break rules for the default locale) is ~10 ms of CPU, and every command's start loads this
 * module, while only show's wrapping uses it. null where Intl has no Segmenter.
 */
let graphemes: Intl.Segmenter | null | undefined;

/**
 * The user-perceived characters of `s` (grapheme clusters: an emoji ZWJ sequence, a flag, a letter
 * and its accents), lazily: a line is never cut inside one. Code points where Intl has no Segmenter.
 */
function* clusters(s: string): Generator<string> {
  graphemes ??= typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  if (graphemes === null) {
    yield* s;
    return;
  }
  for (const g of graphemes.segment(s)) yield g.segment;
}

/** Pieces of a word longer than `room` columns: a wide-character word (CJK has no spaces) breaks anywhere but inside a character. */
function breakWord(w: string, room: number): string[] {
  if (![...w].some((ch) => cpWidth(ch.codePointAt(0)!) === 2)) return [w];
  const out: string[] = [];
  let cur = "";
  let n = 0;
  for (const ch of clusters(w)) {
    const cw = columns(ch);
    if (n + cw > room && cur !== "") {
      out.push(cur);
      cur = "";
      n = 0;
    }
    cur += ch;
    n += cw;
  }
  if (cur !== "") out.push(cur);
  return out;
}

/**
 * Text wrapped at spaces to `width` columns (0: not wrapped), each line of it prefixed with
 * `indent`. A line's own leading spaces are kept on the lines it wraps onto; a word longer than
 * the width is left whole (a URL stays clickable) unless it is made of wide characters (CJK, which
 * is written without spaces), which break anywhere. Columns are terminal columns (columns()).
 */
export function wrap(text: string, width: number, indent = ""): string[] {
  const out: string[] = [];
  const room = width > 0 ? Math.max(20, width - columns(indent)) : 0;
  for (const line of text.split("\n")) {
    if (line === "") {
      out.push(indent.trimEnd());
      continue;
    }
    if (room === 0 || columns(line) <= room) {
      out.push(indent + line);
      continue;
    }
    const lead = /^[ \t]*/.exec(line)![0];
    const leadLen = columns(lead);
    const words = line
      .slice(lead.length)
      .split(/ +/)
      .flatMap((w) => (columns(w) > room - leadLen ? breakWord(w, room - leadLen) : [w]));
    let cur = lead;
    let curLen = leadLen;
    let empty = true;
    for (const w of words) {
      const wl = columns(w);
      if (!empty && curLen + 1 + wl > room) {
        out.push(indent + cur);
        cur = lead + w;
        curLen = leadLen + wl;
      } else {
        cur += (empty ? "" : " ") + w;
        curLen += (empty ? 0 : 1) + wl;
      }
      empty = false;
    }
    out.push(indent + cur);
  }
  return out;
}

/** At most `width` columns of `s`, with `…` when cut; 0: unchanged. */
export function clip(s: string, width: number): string {
  if (width <= 0 || columns(s) <= width) return s;
  let out = "";
  let n = 0;
  for (const ch of clusters(s)) {
    const cw = columns(ch);
    if (n + cw > Math.max(1, width - 1)) break;
    out += ch;
    n += cw;
  }
  return out + "…";
}

/**
 * Facts joined with ` · `, wrapped between facts rather than inside one (`calls: 18 ok` stays
 * whole); a fact wider than the room is wrapped at its spaces. Each line prefixed with `indent`.
 */
export function wrapFacts(facts: string[], width: number, indent = ""): string[] {
  if (width <= 0) return [indent + facts.join(" · ")];
  const room = Math.max(20, width - columns(indent));
  const out: string[] = [];
  let cur = "";
  for (const f of facts) {
    const next = cur === "" ? f : `${cur} · ${f}`;
    if (cur !== "" && columns(next) > room) {
      out.push(indent + cur + " ·");
      cur = f;
    } else cur = next;
  }
  if (cur !== "") out.push(...wrap(cur, width, indent));
  return out;
}

/** The first clusters of `s` that fit in `room` columns. */
function headOf(s: string, room: number): string {
  let out = "";
  let n = 0;
  for (const ch of clusters(s)) {
    const cw = columns(ch);
    if (n + cw > room) break;
    out += ch;
    n += cw;
  }
  return out;
}

/** The last clusters of `s` that fit in `room` columns. */
function tailOf(s: string, room: number): string {
  const all = [...clusters(s)];
  let out = "";
  let n = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const cw = columns(all[i]!);
    if (n + cw > room) break;
    out = all[i]! + out;
    n += cw;
  }
  return out;
}

/**
 * At most `width` columns of a path (or of a target that ends with one), cut in its middle with
 * `…` so that its end, the file name, stays: its first folder, then as many whole components from
 * its end as fit (`src/…/deep/file.ts`); the start cut shorter where only the last component fits
 * (`src/ou…/file.ts`); a last component wider than the width keeps its start and its end
 * (`a-very-lo…name.ts`). Never cuts inside a character (clusters, as clip). 0: unchanged.
 */
export function clipPath(s: string, width: number): string {
  if (width <= 0 || columns(s) <= width) return s;
  if (width < 3) return clip(s, width);
  // Components: separators kept with the component after them; a trailing one stays on the last.
  const body = s.replace(/[/\\]+$/, "");
  const trail = s.slice(body.length);
  const cuts: number[] = [];
  for (let i = 1; i < body.length; i++) if ((body[i] === "/" || body[i] === "\\") && body[i - 1] !== "/" && body[i - 1] !== "\\") cuts.push(i);
  const room = width - 1;
  if (cuts.length > 0) {
    // The head: up to and with the first separator after the first named component.
    const first = /^[/\\]*[^/\\]+[/\\]+/.exec(body);
    const head = first === null ? "" : first[0];
    let tail = body.slice(cuts[cuts.length - 1]!) + trail;
    if (columns(tail) < room) {
      if (head !== "" && head.length <= cuts[cuts.length - 1]! && columns(head) + columns(tail) <= room) {
        // More whole components from the end while they fit.
        for (let k = cuts.length - 2; k >= 0 && cuts[k]! >= head.length; k--) {
          const longer = body.slice(cuts[k]!) + trail;
          if (columns(head) + columns(longer) > room) break;
          tail = longer;
        }
        return head + "…" + tail;
      }
      return headOf(s, room - columns(tail)) + "…" + tail;
    }
  }
  // No folder to cut, or the last component alone is too wide: its start and its end.
  const front = headOf(s, Math.ceil(room / 2));
  return front + "…" + tailOf(s, room - columns(front));
}
