import { RE2JS } from "re2js";
import { FilterSyntaxError } from "../../src/query/syntax-error.js";
export interface LinearRegexOptions { cacheSlots?: number; stepsPerChar?: number; stepSlack?: number; engine?: "auto" | "dfa" | "vm"; }
const FLAG_PREFIX = /^\(\?([ims]+)\)/;
export function compileLinearRegex(pattern: string, _o: LinearRegexOptions = {}): (s: string) => boolean {
  let body = pattern;
  let jsFlags = "";
  const m = FLAG_PREFIX.exec(pattern);
  if (m !== null) { body = pattern.slice(m[0].length); jsFlags = [...new Set(m[1])].join(""); }
  let js: RegExp;
  try { js = new RegExp(body, jsFlags); } catch (err) {
    throw new FilterSyntaxError((err as Error).message.replace(/^Invalid regular expression: /, "invalid regular expression "));
  }
  let f = 0;
  if (jsFlags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
  if (jsFlags.includes("s")) f |= RE2JS.DOTALL;
  if (jsFlags.includes("m")) f |= RE2JS.MULTILINE;
  let re: RE2JS;
  try { re = RE2JS.compile(RE2JS.translateRegExp(body), f); } catch (err) {
    throw new FilterSyntaxError(`regular expression /${pattern}/: ${(err as Error).message}`);
  }
  return (s) => re.test(s);
}
