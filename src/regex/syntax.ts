import { FilterSyntaxError } from "../query/syntax-error.js";

/** One code unit of input, tested by char code, by a one-character sticky RegExp, or by `.`. */
export type CharTest = { code: number } | { re: RegExp } | { dot: true };

export type RegexNode =
  | { t: "char"; test: CharTest }
  | { t: "assert"; kind: "bol" | "eol" | "word" | "nonword" }
  | { t: "cat"; items: RegexNode[] }
  | { t: "alt"; items: RegexNode[] }
  | { t: "repeat"; node: RegexNode; min: number; max: number };

export interface RegexFlags {
  ignoreCase: boolean;
  dotAll: boolean;
  multiline: boolean;
}

/** Largest `{n}` / `{n,m}` count accepted (the program grows with it). */
export const MAX_REPEAT = 1000;
/**
 * Deepest nesting of groups accepted (RE2's limit too). The parser and the program's compiler
 * recurse once per level: 3,000 levels overflowed the stack (a RangeError, status 1).
 */
export const MAX_NESTING = 1000;

const SIMPLE_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * Parses a JavaScript regular expression (no `u` flag: code units, Annex B syntax) that JS itself
 * has already accepted, into a tree the linear matcher can run. Refuses what a linear-time
 * matcher cannot do: backreferences and lookaround. Single-character atoms that need JS's own
 * semantics (classes, `\d`, `\x41`, case-insensitive letters) become one-character sticky RegExps,
 * which cannot backtrack.
 */
export function parseRegex(src: string, flags: RegexFlags): RegexNode {
  let pos = 0;
  let depth = 0;
  const jsFlags = "y" + (flags.ignoreCase ? "i" : "");

  function fail(what: string): never {
    throw new FilterSyntaxError(`regular expression /${src}/: ${what} at column ${pos + 1} is not supported (patterns are matched in linear time)`);
  }

  function sticky(raw: string): CharTest {
    return { re: new RegExp(raw, jsFlags) };
  }

  function literal(code: number, raw: string): CharTest {
    if (flags.ignoreCase) {
      const ch = String.fromCharCode(code);
      if (ch.toLowerCase() !== ch.toUpperCase()) return sticky(raw);
    }
    return { code };
  }

  function parseAlt(): RegexNode {
    const items = [parseCat()];
    while (src[pos] === "|") {
      pos++;
      items.push(parseCat());
    }
    return items.length === 1 ? items[0]! : { t: "alt", items };
  }

  function parseCat(): RegexNode {
    const items: RegexNode[] = [];
    while (pos < src.length && src[pos] !== "|" && src[pos] !== ")") {
      const atom = parseAtom();
      items.push(parseQuantifiers(atom));
    }
    return items.length === 1 ? items[0]! : { t: "cat", items };
  }

  function parseQuantifiers(atom: RegexNode): RegexNode {
    for (;;) {
      const c = src[pos];
      let min: number;
      let max: number;
      if (c === "*") [min, max, pos] = [0, Infinity, pos + 1];
      else if (c === "+") [min, max, pos] = [1, Infinity, pos + 1];
      else if (c === "?") [min, max, pos] = [0, 1, pos + 1];
      else if (c === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(pos));
        if (m === null) return atom; // Annex B: a literal "{"
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) fail(`a repeat count above ${MAX_REPEAT}`);
        pos += m[0].length;
      } else return atom;
      if (src[pos] === "?") pos++; // lazy: same yes/no answer
      atom = { t: "repeat", node: atom, min, max };
    }
  }

  function parseAtom(): RegexNode {
    const start = pos;
    const c = src[pos++]!;
    switch (c) {
      case "(":
        return parseGroup(start);
      case "[": {
        while (pos < src.length && src[pos] !== "]") pos += src[pos] === "\\" ? 2 : 1;
        pos++;
        return { t: "char", test: sticky(src.slice(start, pos)) };
      }
      case ".":
        return { t: "char", test: { dot: true } };
      case "^":
        return { t: "assert", kind: "bol" };
      case "$":
        return { t: "assert", kind: "eol" };
      case "\\":
        return parseEscape(start);
      default:
        return { t: "char", test: literal(c.charCodeAt(0), escapeRaw(c)) };
    }
  }

  function parseGroup(start: number): RegexNode {
    if (++depth > MAX_NESTING) {
      throw new FilterSyntaxError(`regular expression /${src}/: groups nested more than ${MAX_NESTING} deep (at column ${start + 1}) are not supported`);
    }
    if (src.startsWith("?:", pos)) pos += 2;
    else if (/^\?<?[=!]/.test(src.slice(pos, pos + 3))) {
      pos = start;
      fail("lookaround");
    } else if (src.startsWith("?<", pos)) pos = src.indexOf(">", pos) + 1;
    const inner = parseAlt();
    pos++; // ")"
    depth--;
    return inner;
  }

  function parseEscape(start: number): RegexNode {
    const e = src[pos++]!;
    if (e === "b" || e === "B") return { t: "assert", kind: e === "b" ? "word" : "nonword" };
    if (e >= "1" && e <= "9") {
      pos = start;
      fail(`a backreference (\\${e})`);
    }
    if (e === "k" && src[pos] === "<") {
      pos = start;
      fail("a named backreference (\\k<…>)");
    }
    if ("dDwWsS".includes(e)) return { t: "char", test: sticky(src.slice(start, pos)) };
    if (SIMPLE_ESCAPES[e] !== undefined) return { t: "char", test: { code: SIMPLE_ESCAPES[e]! } };
    if (e === "x" && /^[0-9a-fA-F]{2}/.test(src.slice(pos))) pos += 2;
    else if (e === "u" && /^[0-9a-fA-F]{4}/.test(src.slice(pos))) pos += 4;
    else if (e === "c" && /^[a-zA-Z]/.test(src.slice(pos))) pos += 1;
    else if (e === "0") pos += /^[0-7]{0,2}/.exec(src.slice(pos))![0].length;
    else if (!/[a-zA-Z0-9]/.test(e)) return { t: "char", test: literal(e.charCodeAt(0), src.slice(start, pos)) };
    return { t: "char", test: sticky(src.slice(start, pos)) };
  }

  const node = parseAlt();
  if (pos < src.length) fail(`an unmatched ")"`); // JS would have refused it first
  return node;
}

function escapeRaw(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? "\\" + c : c;
}
