import { RE2JS } from "re2js";

/** What ajv calls a RegExp: `test`, and `toString` as the key it caches compiled patterns by. */
export interface SchemaPattern {
  test(s: string): boolean;
  toString(): string;
}

/**
 * The `code.regExp` engine for a user's schema (`validate --schema`): a `pattern` or
 * `patternProperties` key runs on re2js, linear in the string whatever the pattern, so `^(a+)+$`
 * against a long value cannot hang validate (with JavaScript's RegExp it backtracked for minutes,
 * deaf to SIGINT). JSON Schema patterns are ECMA-262 with the `u` flag: the pattern is checked by
 * JavaScript first (its errors make the schema not compile), then translated to RE2's syntax
 * keeping JavaScript's meaning where the two differ (`.`, `\s`, `[]`, `\p{Letter}`, …). What RE2
 * cannot do at all (backreferences, lookaround, a few Unicode properties, counts over 1000) runs
 * on JavaScript's own RegExp, with a warning through `warn` (once per pattern).
 */
export function schemaPatternEngine(warn: (message: string) => void): ((pattern: string, flags: string) => SchemaPattern) & { code: string } {
  const warned = new Set<string>();
  const engine = (pattern: string, flags: string): SchemaPattern => {
    const native = new RegExp(pattern, flags); // throws for what JavaScript refuses: the schema does not compile
    const key = `/${pattern}/${flags}`;
    let re2: RE2JS;
    try {
      re2 = RE2JS.compile(toRe2Syntax(pattern));
    } catch (err) {
      if (!warned.has(key)) {
        warned.add(key);
        const why = err instanceof Unsupported ? err.message : `re2js: ${(err as Error).message}`;
        warn(`pattern ${key} runs on JavaScript's backtracking RegExp (${why}): a hostile value can make validate slow`);
      }
      return { test: (s) => ((native.lastIndex = 0), native.test(s)), toString: () => key };
    }
    return { test: (s) => re2.test(s), toString: () => key };
  };
  // ajv's name for the engine in code it generates (only standalone code, which --schema never makes, uses it).
  return Object.assign(engine, { code: "schemaPattern" });
}

class Unsupported extends Error {}

/** JavaScript's white space (`\s` with or without `u`), as the inside of an RE2 class. */
const WHITE_SPACE = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** `.` without the s flag: anything but JavaScript's line terminators. */
/** Stands for `\S` met inside a class until the class is done (never output). */
const NOT_WHITE_SPACE = "\0S";
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const EVERYTHING = "\\x{0}-\\x{10FFFF}";

/** Unicode's long General_Category names (JavaScript accepts them and the short ones; RE2 only the short). */
const CATEGORY: Record<string, string> = {
  Letter: "L", Cased_Letter: "LC", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll", Titlecase_Letter: "Lt",
  Modifier_Letter: "Lm", Other_Letter: "Lo", Mark: "M", Combining_Mark: "M", Nonspacing_Mark: "Mn",
  Spacing_Mark: "Mc", Enclosing_Mark: "Me", Number: "N", Decimal_Number: "Nd", digit: "Nd", Letter_Number: "Nl",
  Other_Number: "No", Punctuation: "P", punct: "P", Connector_Punctuation: "Pc", Dash_Punctuation: "Pd",
  Open_Punctuation: "Ps", Close_Punctuation: "Pe", Initial_Punctuation: "Pi", Final_Punctuation: "Pf",
  Other_Punctuation: "Po", Symbol: "S", Math_Symbol: "Sm", Currency_Symbol: "Sc", Modifier_Symbol: "Sk",
  Other_Symbol: "So", Separator: "Z", Space_Separator: "Zs", Line_Separator: "Zl", Paragraph_Separator: "Zp",
  Other: "C", Control: "Cc", cntrl: "Cc", Format: "Cf", Surrogate: "Cs", Private_Use: "Co", Unassigned: "Cn",
};
const SHORT_CATEGORIES = new Set(Object.values(CATEGORY));

/**
 * Translates a pattern JavaScript accepts with the `u` flag into RE2 syntax with the same
 * meaning on every string, or throws Unsupported. With `u`, JavaScript's syntax is strict (no
 * Annex B), so each escape and class is unambiguous here.
 */
export function toRe2Syntax(src: string): string {
  let pos = 0;
  let out = "";

  /** One escape after its backslash; `inClass` says where it stands. Returns RE2 text. */
  function escape(inClass: boolean): string {
    const e = src[pos++]!;
    switch (e) {
      case "d": case "D": case "w": case "W":
        return "\\" + e;
      case "s":
        return inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      case "S":
        if (inClass) return NOT_WHITE_SPACE; // charClass takes it out
        return `[^${WHITE_SPACE}]`;
      case "b":
        return inClass ? "\\x{08}" : "\\b";
      case "B":
        return "\\B";
      case "t": return "\\t";
      case "n": return "\\n";
      case "v": return "\\x{0B}";
      case "f": return "\\f";
      case "r": return "\\r";
      case "0": return "\\x{0}";
      case "c": return codePoint(src.charCodeAt(pos++) % 32);
      case "x": {
        const h = src.slice(pos, pos + 2);
        pos += 2;
        return codePoint(parseInt(h, 16));
      }
      case "u": return codePoint(unicodeEscape());
      case "p": case "P":
        return property(e);
      case "k":
        throw new Unsupported("a backreference");
      default:
        if (e >= "1" && e <= "9") throw new Unsupported("a backreference");
        return "\\" + e; // a syntax character or "/" or "-": RE2 takes any punctuation escaped
    }
  }

  /** After `\u`: `{H…}` or `HHHH`, a surrogate pair written as two escapes being one code point. */
  function unicodeEscape(): number {
    if (src[pos] === "{") {
      const end = src.indexOf("}", pos);
      const cp = parseInt(src.slice(pos + 1, end), 16);
      pos = end + 1;
      return cp;
    }
    const unit = parseInt(src.slice(pos, pos + 4), 16);
    pos += 4;
    if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(src.slice(pos, pos + 6))) {
      const low = parseInt(src.slice(pos + 2, pos + 6), 16);
      pos += 6;
      return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
    }
    return unit;
  }

  function property(e: string): string {
    const end = src.indexOf("}", pos);
    const body = src.slice(pos + 1, end);
    pos = end + 1;
    const eq = body.indexOf("=");
    let name: string | undefined;
    const category = (v: string) => (SHORT_CATEGORIES.has(v) ? v : Object.hasOwn(CATEGORY, v) ? CATEGORY[v] : undefined);
    if (eq < 0) name = category(body);
    else {
      const [prop, value] = [body.slice(0, eq), body.slice(eq + 1)];
      if (prop === "General_Category" || prop === "gc") name = category(value);
      else if (prop === "Script" || prop === "sc") name = value; // re2js refuses a script it does not know
    }
    if (name === undefined) throw new Unsupported(`the property \\${e}{${body}}`);
    return `\\${e}{${name}}`;
  }

  function codePoint(cp: number): string {
    return `\\x{${cp.toString(16).toUpperCase()}}`;
  }

  /** A class, from after its `[`. */
  function charClass(): string {
    const negated = src[pos] === "^";
    if (negated) pos++;
    if (src[pos] === "]") {
      pos++;
      return negated ? `[${EVERYTHING}]` : `[^${EVERYTHING}]`;
    }
    let body = "";
    let nonSpace = false;
    while (src[pos] !== "]") {
      const c = src[pos++]!;
      if (c === "\\") {
        const e = escape(true);
        if (e === NOT_WHITE_SPACE) nonSpace = true;
        else body += e;
      } else if (c === "[") body += "\\["; // RE2 reads [[:alpha:]] as a POSIX class; JavaScript as "[", ":", …
      else {
        const cp = src.codePointAt(pos - 1)!;
        if (cp > 0xffff) pos++;
        body += String.fromCodePoint(cp);
      }
    }
    pos++;
    if (!nonSpace) return (negated ? "[^" : "[") + body + "]";
    // RE2 has no \S for JavaScript's white space inside a class: [a\S] is [a] or [^ white space].
    if (negated) throw new Unsupported("\\S inside a negated class");
    return body === "" ? `[^${WHITE_SPACE}]` : `(?:[${body}]|[^${WHITE_SPACE}])`;
  }

  while (pos < src.length) {
    const c = src[pos++]!;
    if (c === "\\") out += escape(false);
    else if (c === "[") out += charClass();
    else if (c === ".") out += DOT;
    else if (c === "(" && src[pos] === "?") {
      if (src.startsWith("?:", pos)) {
        out += "(?:";
        pos += 2;
      } else if (src.startsWith("?<", pos) && src[pos + 2] !== "=" && src[pos + 2] !== "!") {
        out += "(?P<";
        pos += 2;
      } else throw new Unsupported("lookaround");
    } else out += c;
  }
  return out;
}
