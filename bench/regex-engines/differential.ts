// How often re2js (behind RE2JS.translateRegExp and the flags) disagrees with RegExp.test on the
// random patterns and strings of test/regex-differential.test.ts. Args: [seed].
import { RE2JS } from "re2js";
import fc from "fast-check";
const CHARS = ["a", "b", "c", "A", "_", "1", " ", "\n", "-", "é", "\u2028"];
const charAtom = fc.constantFrom("a", "b", "c", "A", "1", " ", "-", "é", ".", "\\.", "\\n", "\\x61", "\\u0062", "\\t", "[ab]", "[^a]", "[a-c]", "[^\\n]", "[A-Z_]", "[\\d\\s]", "[]", "[^]", "[é-ê]", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S");
const assertion = fc.constantFrom("^", "$", "\\b", "\\B");
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{2,3}?", "{0}");
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string; seq: string; alt: string }>((tie) => ({
  node: fc.oneof({ maxDepth: 3, depthIdentifier: "re" }, fc.tuple(charAtom, quantifier).map(([a, q]) => a + q), assertion,
    fc.tuple(fc.constantFrom("(", "(?:"), tie("alt"), quantifier).map(([open, inner, q]) => `${open}${inner})${q}`)),
  seq: fc.array(tie("node"), { minLength: 1, maxLength: 4, depthIdentifier: "re" }).map((items) => items.join("")),
  alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3, depthIdentifier: "re" }).map((items) => items.join("|")),
})).alt;
const input = fc.array(fc.constantFrom(...CHARS), { maxLength: 16 }).map((cs) => cs.join(""));
const samples = fc.sample(fc.tuple(pattern, fc.constantFrom("", "i", "s", "m", "im", "is", "ms"), fc.array(input, { minLength: 1, maxLength: 12 })), { seed: Number(process.argv[2] ?? 42), numRuns: 20000 });
let diffs = 0, tried = 0; const kinds = new Map<string, number>();
for (const [src, fl, strings] of samples) {
  let js: RegExp; try { js = new RegExp(src, fl); } catch { continue; }
  tried++;
  let f = 0; if (fl.includes("i")) f |= RE2JS.CASE_INSENSITIVE; if (fl.includes("s")) f |= RE2JS.DOTALL; if (fl.includes("m")) f |= RE2JS.MULTILINE;
  let re: RE2JS; try { re = RE2JS.compile(RE2JS.translateRegExp(src), f); } catch (e) { const k = "compile: " + (e as Error).message.slice(0, 60); kinds.set(k, (kinds.get(k) ?? 0) + 1); if (kinds.get(k)! <= 2) console.log(k, src); continue; }
  for (const s of strings) {
    const a = js.test(s), b = re.test(s);
    if (a !== b) { diffs++; const fresh = RE2JS.compile(RE2JS.translateRegExp(src), f).test(s); if (diffs <= 6) console.log(`DIFF /${src}/${fl} on ${JSON.stringify(s)} js ${a} re2js ${b} fresh ${fresh} strings ${JSON.stringify(strings)}`); break; }
  }
}
console.log({ tried, diffs, kinds: Object.fromEntries(kinds) });
