import { escapeControls, escapeControlsKeepLines } from "../../../sanitize.js";

const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `&`, `<`, `>`, `"`, `'` as entities: text safe in an element's content and in a quoted attribute. */
export function entities(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITY[c]!);
}

/**
 * Text from the log for HTML, on one line: control and invisible characters (bidi overrides,
 * zero-width spaces) shown escaped as every output shows them (sanitize.ts), then entities.
 */
export function html(s: string): string {
  return entities(escapeControls(s));
}

/** As html(), keeping newlines and tabs (for <pre> blocks). */
export function htmlLines(s: string): string {
  return entities(escapeControlsKeepLines(s));
}

/** Longest part of a call id kept in its anchor (the rest is cut; Anchors keeps ids unique). */
const ID_MAX = 64;

/**
 * An id for an element (and a URL fragment) from a log's call id: ASCII letters, digits, `_` and
 * `-` kept, every other character as its code point in hex between dots (`/`: `.2f.`; one id per call id), so that nothing in it
 * needs escaping in an attribute, a fragment or a CSS selector; at most ID_MAX characters of it.
 */
export function slug(s: string): string {
  let out = "";
  for (const ch of s) {
    if (out.length >= ID_MAX) break;
    out += /[A-Za-z0-9_-]/.test(ch) ? ch : `.${ch.codePointAt(0)!.toString(16)}.`;
  }
  return out;
}

/**
 * The anchors of a page, unique: the same call id twice in a run (a log that reuses ids) or two
 * ids cut to the same ID_MAX characters get `-2`, `-3`, … after the first, in the order of the
 * page, so a link to a call stays the same for the same log.
 */
export class Anchors {
  private readonly used = new Map<string, number>();

  take(base: string): string {
    let n = this.used.get(base);
    if (n === undefined) {
      this.used.set(base, 1);
      return base;
    }
    let id: string;
    do id = `${base}-${++n}`;
    while (this.used.has(id));
    this.used.set(base, n);
    this.used.set(id, 1);
    return id;
  }
}
