// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test, type TestContext } from "node:test";
import fc from "fast-check";
import { agentMarkdown, scanAgentMarkdown } from "../src/outputs/show/agent-markdown.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";

/**
 * agentMarkdown against GitHub's own Markdown parser, cmark-gfm (Debian's package of it, run with
 * raw HTML allowed and GitHub's extensions): generated Markdown made of the block constructs that
 * decide what is code (quotes, list items of every marker and indent, fences opened and closed at
 * every depth, indented code, lazy lines, setext underlines, tables) and of hostile text. Skipped
 * when cmark-gfm is not installed (`apt-get install cmark-gfm`); under CI=true (.ci/run installs
 * it) a missing parser fails instead.
 */
const CMARK = spawnSync("cmark-gfm", ["--version"]).status === 0;

function noCmark(t: TestContext): boolean {
  if (CMARK) return false;
  if (process.env.CI === "true") assert.fail("cmark-gfm is not installed (CI=true: .ci/run installs it; a CI run without it fails rather than skipping)");
  t.skip("cmark-gfm is not installed: apt-get install cmark-gfm to run these checks");
  return true;
}

function render(markdown: string): string {
  const r = spawnSync("cmark-gfm", ["--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist"], { input: markdown, encoding: "utf8", timeout: 10_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const INDENT = ["", "", "", " ", "  ", "   ", "    ", "     ", "      ", "\t", "        "];
const MARK = ["", "", "", "> ", ">", "- ", "-   ", "* ", "+ ", "1. ", "2) ", "10. ", "-     ", "- > ", "> - ", "1.", "-", ">>", "> > "];
const STRUCTURE = ["```", "```", "~~~", "````", "```js", "``` `x", "~~~ `y", "a|b", "-|-", "| a | b |", "|---|---|", ":-", "---", "===", "--", "***", "- - -", "", "", "", "\\", "[r]: /u", "``` ```"];
const HOSTILE = ["<x>", "</details>", "<script>alert(1)</script>", "## <b>h</b>", "text <i>", "`code <y>`", "`a` <z> `", "``", "` ``", "[a](javascript:z)", "[r]: javascript:q", "[r]:", "javascript:w", "[^1]: foot", "&#60;b>", "&amp;", "<!--", "x  ", "[a](<u> <v>)", "[q](x`y) <w>`", "| `c|<d>` |", "![i](http://e/i.png)", "@octocat"];

/** A line of generated Markdown: indentation, a container marker, indentation, one or two bodies. */
const lineOf = (bodies: string[]) =>
  fc
    .tuple(fc.constantFrom(...INDENT), fc.constantFrom(...MARK), fc.constantFrom(...INDENT.slice(0, 6)), fc.constantFrom(...bodies), fc.option(fc.constantFrom(...bodies), { nil: undefined }))
    .map(([a, m, b, x, y]) => a + m + b + x + (y === undefined ? "" : " " + y));
const textOf = (bodies: string[]) => fc.array(lineOf(bodies), { minLength: 1, maxLength: 12 }).map((ls) => ls.join("\n"));

const TAGS = new Set(["p", "ul", "ol", "li", "blockquote", "pre", "code", "h4", "h5", "h6", "em", "strong", "a", "hr", "table", "thead", "tbody", "tr", "th", "td", "del", "br", "input", "details", "summary"]);

test("cmark-gfm: inside <details>, hostile Markdown renders no tag of its own, no unsafe link, and the </details> after it still closes it", (t) => {
  if (noCmark(t)) return;
  fc.assert(
    fc.property(textOf([...STRUCTURE, ...HOSTILE]), (input) => {
      const html = render(`<details><summary>Thinking</summary>\n\n${agentMarkdown(input)}\n\n</details>\n\nAFTER\n`);
      assert.ok(html.endsWith("</details>\n<p>AFTER</p>\n"), html);
      for (const m of html.matchAll(/<\/?([A-Za-z][A-Za-z0-9]*)/g)) assert.ok(TAGS.has(m[1]!.toLowerCase()), `tag <${m[1]}> in ${html}`);
      assert.equal(html.match(/<details>/g)?.length, 1, html);
      assert.equal(html.match(/<\/details>/g)?.length, 1, html);
      assert.doesNotMatch(html, /<!--|<img/);
      for (const m of html.matchAll(/href="([^"]*)"/g)) {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(m[1]!);
        assert.ok(scheme === null || ["http", "https", "mailto"].includes(scheme[1]!.toLowerCase()), `href ${m[1]}`);
      }
    }),
    { numRuns: fuzzRuns(40, 3000), seed: FUZZ_SEED },
  );
});

test("cmark-gfm: the lines agentMarkdown leaves as code are exactly those cmark-gfm reads as code", (t) => {
  if (noCmark(t)) return;
  // Text bodies carry a mark (w1w, w2w…) to find them in the HTML: inside a <pre> or not.
  const TEXT = ["x", "a|b", "| a | b |", "text", "`c`", "x  ", "| `c|d` |", "a | b", "<div>", "[r]: /u"];
  const marked = fc.array(fc.tuple(lineOf([...STRUCTURE, ...TEXT]), fc.boolean()), { minLength: 1, maxLength: 12 }).map((ls) => {
    let n = 0;
    return ls.map(([l, mark]) => (mark && TEXT.some((b) => l.endsWith(b)) ? `${l} w${++n}w` : l)).join("\n");
  });
  fc.assert(
    fc.property(marked, (input) => {
      const shown = scanAgentMarkdown(input);
      const html = render(shown.map((l) => l.text).join("\n") + "\n");
      const code = [...html.matchAll(/<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1]).join("\n");
      for (const w of input.match(/w\d+w/g) ?? []) {
        const at = shown.find((l) => l.text.includes(w));
        // Joined into a heading, or in a fence's info string: not a line of text or code.
        if (at === undefined || at.code === "info") continue;
        assert.equal(at.code !== undefined, code.includes(w), `${w}: ${JSON.stringify(input)}\n${html}`);
      }
    }),
    { numRuns: fuzzRuns(40, 3000), seed: FUZZ_SEED },
  );
});

test("cmark-gfm: Markdown with nothing to defuse renders exactly as the agent wrote it", (t) => {
  if (noCmark(t)) return;
  const PLAIN = ["```", "~~~", "````", "```js", "a|b", "-|-", "| a | b |", "|---|---|", "***", "- - -", "", "", "**b**", "_e_", "`c`", "text", "[l](https://x.org)", "[l](src/a.ts)", "a && b", "x  "];
  // Tabs are spaces, and blank lines at either end go (agentMarkdown writes neither).
  const plainIndent = (s: string) => {
    const ls = s.replace(/\t/g, "    ").split("\n");
    while (ls.length > 0 && ls[0]!.trim() === "") ls.shift();
    while (ls.length > 0 && ls[ls.length - 1]!.trim() === "") ls.pop();
    return ls.join("\n");
  };
  fc.assert(
    fc.property(textOf(PLAIN).map(plainIndent), (input) => {
      const before = render(input + "\n");
      if (/<h\d/.test(before)) return; // setext headings go down three levels: not the same HTML
      assert.equal(render(agentMarkdown(input) + "\n"), before, JSON.stringify(input));
    }),
    { numRuns: fuzzRuns(40, 2000), seed: FUZZ_SEED },
  );
});
