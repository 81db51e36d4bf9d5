// In-process timing of both engines on the guard's hostile cases, one 1 MiB string each, median of 3.
// ONLY_LIT=1: only the cases with the required literal present (re2js's prefilter defeated).
import { compileLinearRegex as inhouse } from "../../src/regex/index.js";
import { compileLinearRegex as re2 } from "./re2js-adapter.js";
const MIB = 1 << 20;
function randomAB(n: number, seed = 1) { const o: string[] = []; for (let i = 0; i < n; i++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; o.push(seed & 1024 ? "a" : "b"); } return o.join(""); }
const words = ["error", "the", "retry", "connection", "failed", "at", "line", "42", "error:", "x", "\n", "timeout", "Error", "0x1f"];
let seed = 5; let log = "";
while (log.length < MIB) log += words[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % words.length] + " ";
const cases: Array<[string, string]> = [
  ["([ab]{1,30}){30}c", "ab".repeat(MIB / 2) + "!"],
  ["(a{1,30}){30}b", "a".repeat(MIB)],
  ["(?:(?:[a-z]{1,8}\\d?){1,8}){1,8}#", "abcdefgh1".repeat(MIB / 9)],
  [`(?:${"abcdefghijklmnopqrstuvwxyz".split("").map((c) => c + "|" + c + c).join("|")}){7}!`, "abcdefghijklmnopqrstuvwxyz".repeat(MIB / 26)],
  ["(a|aa)*(a|aa)*(aa|a)*c", "a".repeat(MIB)],
  ["([a-cx-zA-C0-3_\\-\\.\\u00e0-\\u00ff\\u0400-\\u04ff]{1,20}){20}#", "ax0_-.\u00e9\u0416".repeat(MIB / 8)],
  ["(?i)([k-q\\u0100-\\u017f]{1,25}){25}#", "KlMnOpQ\u0101\u0130".repeat(MIB / 9)],
  ["\\b(\\w+\\s?){1,50}\\bz\\b", "ab ".repeat(MIB / 3)],
  ["(.*a){20}$", "a".repeat(MIB) + "!"],
  ["(error|fail).{0,300}(timeout|refused)x", log],
  ["(?i)error.{0,200}(timeout|refused)!", log],
  ["\\b(fail|error)\\w*\\b.*\\bline \\d+\\b:", log],
  ["(?m)^\\s*at .{0,80}\\(.*:\\d+\\)$", log],
  ["[ab]*a[ab]{600}c", randomAB(MIB)],
  ["(?:a|b)*a(?:a|ab|b|ba){100}c", randomAB(MIB)],
  ["(a+)+$", "a".repeat(MIB) + "!"],
  ["\\s*\\s*\\s*x", " ".repeat(MIB)],
];
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(f: (s: string) => boolean, s: string): string {
  const t0 = performance.now();
  try { const r = f(s); return `${(performance.now() - t0).toFixed(0)}ms ${r}`; } catch (e) { return `${(performance.now() - t0).toFixed(0)}ms THROW`; }
}
for (const [re, s] of process.env.ONLY_LIT ? [] : cases) {
  const a: string[] = [], b: string[] = [];
  for (let i = 0; i < 3; i++) { a.push(time(inhouse(re), s)); b.push(time(re2(re), s)); }
  const ms = (xs: string[]) => med(xs.map((x) => parseFloat(x))) + "ms " + xs[0]!.split(" ").slice(1).join(" ");
  console.log(`| \`${re.length > 50 ? re.slice(0, 50) + "…" : re}\` | ${ms(a)} | ${ms(b)} |`);
}
console.log("--- required literal present (prefilter defeated): text = '!' + literal + text");
const lit: Array<[string, string, string]> = [
  ["([ab]{1,30}){30}c", "c", "ab".repeat(MIB / 2) + "!"],
  ["(a{1,30}){30}b", "b", "a".repeat(MIB)],
  ["(?:(?:[a-z]{1,8}\\d?){1,8}){1,8}#", "#", "abcdefgh1".repeat(MIB / 9)],
  ["(a|aa)*(a|aa)*(aa|a)*c", "c", "a".repeat(MIB)],
  ["\\b(\\w+\\s?){1,50}\\bz\\b", "z", "ab ".repeat(MIB / 3)],
  ["(error|fail).{0,300}(timeout|refused)x", "x", log],
  ["[ab]*a[ab]{600}c", "c", randomAB(MIB)],
  ["\\s*\\s*\\s*x", "x", " ".repeat(MIB) + "!"],
];
for (const [re, l, s0] of lit) {
  const s = "!" + l + s0;
  const a: string[] = [], b: string[] = [];
  for (let i = 0; i < 3; i++) { a.push(time(inhouse(re), s)); b.push(time(re2(re), s)); }
  const ms = (xs: string[]) => med(xs.map((x) => parseFloat(x))) + "ms " + xs[0]!.split(" ").slice(1).join(" ");
  console.log(`| \`${re.length > 50 ? re.slice(0, 50) + "…" : re}\` | ${ms(a)} | ${ms(b)} |`);
}
