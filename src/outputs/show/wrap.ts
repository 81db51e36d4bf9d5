/**
 * Text wrapped at spaces to `width` columns (0: not wrapped), each line of it prefixed with
 * `indent`. A line's own leading spaces are kept on the lines it wraps onto; a word longer than
 * the width is left whole (a URL stays clickable). Columns are code points: wide characters
 * count as one.
 */
export function wrap(text: string, width: number, indent = ""): string[] {
  const out: string[] = [];
  const room = width > 0 ? Math.max(20, width - [...indent].length) : 0;
  for (const line of text.split("\n")) {
    if (line === "") {
      out.push(indent.trimEnd());
      continue;
    }
    if (room === 0 || [...line].length <= room) {
      out.push(indent + line);
      continue;
    }
    const lead = /^[ \t]*/.exec(line)![0];
    const words = line.slice(lead.length).split(/ +/);
    let cur = lead;
    let curLen = [...lead].length;
    let empty = true;
    for (const w of words) {
      const wl = [...w].length;
      if (!empty && curLen + 1 + wl > room) {
        out.push(indent + cur);
        cur = lead + w;
        curLen = [...lead].length + wl;
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

/** At most `width` columns of `s` (code points), with `…` when cut; 0: unchanged. */
export function clip(s: string, width: number): string {
  if (width <= 0) return s;
  const cps = [...s];
  return cps.length <= width ? s : cps.slice(0, Math.max(1, width - 1)).join("") + "…";
}

/**
 * Facts joined with ` · `, wrapped between facts rather than inside one (`calls: 18 ok` stays
 * whole); a fact wider than the room is wrapped at its spaces. Each line prefixed with `indent`.
 */
export function wrapFacts(facts: string[], width: number, indent = ""): string[] {
  if (width <= 0) return [indent + facts.join(" · ")];
  const room = Math.max(20, width - [...indent].length);
  const out: string[] = [];
  let cur = "";
  for (const f of facts) {
    const next = cur === "" ? f : `${cur} · ${f}`;
    if (cur !== "" && [...next].length > room) {
      out.push(indent + cur + " ·");
      cur = f;
    } else cur = next;
  }
  if (cur !== "") out.push(...wrap(cur, width, indent));
  return out;
}
