// `show --format html` (issue 29): a page safe whatever the log holds. Every fixture of every
// agent with hostile text appended to every value it shows (markup, handlers, bidi and
// zero-width characters, controls, javascript: links, images) passes a strict reading of the page
// (test/helpers/show-html-check.ts); the pieces (anchors, markdown, the cut of large values) alone.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";
import { agentHtml } from "../src/outputs/show/html/markdown.js";
import { ContentBudget, cutText, readable } from "../src/outputs/show/html/content.js";
import { Anchors, html, slug } from "../src/outputs/show/html/escape.js";
import { runCli } from "./helpers/run-cli.js";
import { checkPage } from "./helpers/show-html-check.js";
import { HOSTILE, hostileOf } from "./helpers/show-html-hostile.js";

const dirFixtures = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".ndjson"))
    .sort()
    .map((f) => `${dir}/${f}`);

/** A fixture of each kind of every agent: cursor-agent's shared ones that show calls, and every Claude Code, Codex and Gemini CLI one. */
const FIXTURES = [
  "test/fixtures/2026-long.ndjson",
  "test/fixtures/2025-shape.ndjson",
  "test/fixtures/rejected-errored.ndjson",
  "test/fixtures/two-sessions.ndjson",
  "test/fixtures/crash-no-result.ndjson",
  "test/fixtures/hostile.ndjson",
  "test/fixtures/show/background.ndjson",
  "test/fixtures/diff/combined.ndjson",
  ...dirFixtures("test/fixtures/claude"),
  "test/fixtures/claude-nested/nested.ndjson",
  ...dirFixtures("test/fixtures/codex"),
  ...dirFixtures("test/fixtures/gemini"),
];

const page = async (argv: string[], stdin?: string): Promise<string> => {
  const got = await runCli(["show", "--format", "html", "--thinking", ...argv], stdin === undefined ? {} : { stdin });
  assert.ok(got.code === 0 || got.code === 1 || got.code === 4, `${argv.join(" ")}: status ${got.code}: ${got.stderr}`);
  return got.stdout;
};

test("every agent's fixtures, every value made hostile: a page with no markup, handler, script, unsafe link or raw bidi character from the log; unique ids", async (t) => {
  for (const f of FIXTURES) {
    await t.test(f, async () => {
      const out = await page(["-"], hostileOf(f));
      const facts = checkPage(out, f);
      // The hostile text reached the page, as text.
      assert.match(out, /&lt;script&gt;document\.title=&quot;pwned&quot;&lt;\/script&gt;&lt;\/details&gt;/, `${f}: the log's <script> shown as text`);
      assert.match(out, /\\u202e\\u2066 bidi\\u2069 \\u200b zero-width \\u0007 bell \\u001b\[31m/, `${f}: bidi, zero-width and control characters made visible`);
      assert.ok(!facts.hrefs.some((h) => /javascript|data:|vbscript/i.test(h)), `${f}: no javascript:/data:/vbscript: link`);
      assert.ok(facts.ids.length >= 1, `${f}: a section per run`);
    });
  }
});

test("the strict reading fails a page with a handler, a foreign script, a javascript: link or a repeated id", async () => {
  const good = await page(["test/fixtures/2026-long.ndjson"]);
  checkPage(good);
  const bad = [
    good.replace("<b>Listed directory</b>", '<b onclick="x()">Listed directory</b>'),
    good.replace("</footer>", "</footer><script>x()</script>"),
    good.replace('href="#r1"', 'href="javascript:x()"'),
    good.replace('<section class="run" id="r1">', '<section class="run" id="r1"><div id="r1"></div>'),
    good.replace("<b>Listed directory</b>", "<b>Listed \u202e directory</b>"),
    good.replace("<b>Listed directory</b>", "<b><img src=x>Listed directory</b>"),
  ];
  for (const [i, p] of bad.entries()) {
    assert.notEqual(p, good, `case ${i} changed the page`);
    assert.throws(() => checkPage(p), undefined, `case ${i}`);
  }
});

test("a page per input: a section per run, an anchor per call, the run's header and outcome", async () => {
  const out = await page(["test/fixtures/two-sessions.ndjson"]);
  const { ids } = checkPage(out);
  assert.deepEqual(
    ids.filter((id) => /^r\d+$/.test(id)),
    ["r1", "r2"],
  );
  assert.equal(out.match(/<section class="run"/g)?.length, 2);
  assert.equal(out.match(/<\/section>/g)?.length, 2);
  for (const id of ids.filter((i) => i.includes("-c"))) assert.match(out, new RegExp(`<a class="mark" href="#${id.replace(/\./g, "\\.")}"`), `${id}: its own link`);
  assert.match(out, /<dt>Agent<\/dt><dd>cursor-agent<\/dd>/);
  assert.match(out, /<p class="outcome finished"><b>✓ finished<\/b>/);
});

test("a failed call: what it said open, its arguments and output folded; an edit's diff coloured", async () => {
  const out = await page(["test/fixtures/2026-long.ndjson"]);
  assert.match(out, /<div class="call failed" id="r1-c[^"]+">\n<div class="line">.*Ran terminal command.*exit 1.*\n<details open class="tail"><summary>What it said \(last lines\)<\/summary><pre>1 failing<\/pre><\/details>\n<details><summary>Arguments<\/summary>/);
  assert.match(out, /<pre class="diff"><span class="hunk">@@ -1 \+1 @@<\/span>\n<span class="del">-export const sum = \(a, b\) =&gt; a - b;<\/span>\n<span class="add">\+export const sum = \(a, b\) =&gt; a \+ b;<\/span>\n<\/pre>/);
});

test("nothing on stdout for an input with no session (status 4), as every format", async () => {
  const got = await runCli(["show", "--format", "html", "-"], { stdin: "\n\n" });
  assert.equal(got.code, 4);
  assert.equal(got.stdout, "");
});

test("the agent's Markdown: raw HTML off, links to http, https and mailto only, images as links, headings down two levels", () => {
  const h = agentHtml(
    "# Title\n<b>bold</b> [a](javascript:alert(1)) [b](JaVaScRiPt:x) [c](data:text/html,x) [d](vbscript:x) [e](file:///etc/passwd) [f](https://ok.example/\"x) [m](mailto:a@b.c) <javascript:x> ![img](https://e.example/i.png \"t\") ![bad](javascript:x)\n\n[r]: javascript:x\n[r]\n\n&#x202E;x &#0; \u200b",
  );
  assert.match(h, /^<h3>Title<\/h3>/);
  assert.ok(!/<b>/.test(h), "raw HTML is text");
  assert.match(h, /&lt;b&gt;bold&lt;\/b&gt;/);
  const hrefs = [...h.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(hrefs, ["https://ok.example/%22x", "mailto:a@b.c", "https://e.example/i.png"]);
  assert.match(h, /<a class="img" href="https:\/\/e\.example\/i\.png" rel="noopener noreferrer nofollow">image: img<\/a>/);
  assert.ok(!h.includes("<img"), "no image element");
  assert.match(h, /\\u202ex/, "an entity naming a bidi override is shown escaped");
  assert.match(h, /\\u200b/);
});

test("anchors: slugged ids (nothing to escape), unique in the page, the same for the same log", () => {
  assert.equal(slug("toolu_01AB-c"), "toolu_01AB-c");
  assert.equal(slug('call"1\n<x>'), "call.22.1.a..3c.x.3e.");
  assert.notEqual(slug("\u0221"), slug('"1'));
  assert.equal(slug("x".repeat(200)).length, 64);
  const a = new Anchors();
  assert.deepEqual(["r1-c1", "r1-c1", "r1-c1-2", "r1-c1"].map((b) => a.take(b)), ["r1-c1", "r1-c1-2", "r1-c1-2-2", "r1-c1-3"]);
  assert.equal(html('<a href="x">\u202e'), "&lt;a href=&quot;x&quot;&gt;\\u202e");
});

test("a call's arguments and output: readable, cut to the budget with what was cut counted; a 10 MB output costs the budget", () => {
  const r = readable({ command: "ls", stdout: "a\nb\n", n: 3, nested: { list: [1, "x"] }, "odd key\n": true }, 1000);
  assert.equal(r.text, 'command: "ls"\nstdout: |\n  a\n  b\nn: 3\nnested:\n  list:\n    - 1\n    - "x"\n"odd key\\n": true');
  assert.equal(r.cut, 0);
  const big = "y".repeat(10 * 1024 * 1024);
  const b = readable({ stdout: big, more: { x: big } }, ContentBudget.OUTPUT_MAX);
  assert.ok(b.text.length <= ContentBudget.OUTPUT_MAX + 100, `cut to the budget (${b.text.length})`);
  assert.ok(b.cut >= 2 * big.length - ContentBudget.OUTPUT_MAX, `the cut counted (${b.cut})`);
  assert.deepEqual(cutText("abcdef", 4), { text: "abcd", cut: 2 });
  const budget = new ContentBudget();
  assert.equal(budget.output, ContentBudget.OUTPUT_MAX);
  budget.spend(ContentBudget.PAGE_MAX);
  assert.equal(budget.output, ContentBudget.LATE_MAX);
  assert.equal(budget.args, ContentBudget.LATE_MAX);
});

test("a call with a 10 MB output: the page holds its first 32 KiB and says how much more the log holds", async () => {
  const sid = "00000000-0000-4000-8000-0000000000aa";
  const stdout = "z".repeat(10 * 1024 * 1024);
  const args = { command: "cat big", workingDirectory: "/w" };
  const lines = [
    { type: "system", subtype: "init", cwd: "/w", session_id: sid, model: "m" },
    { type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args } }, session_id: sid },
    { type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { shellToolCall: { args, result: { success: { command: "cat big", exitCode: 0, stdout, stderr: "" } } } }, session_id: sid },
    { type: "result", subtype: "success", is_error: false, duration_ms: 5, result: "done", session_id: sid },
  ];
  const out = await page(["-"], lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  checkPage(out);
  assert.ok(out.length < 100_000, `the page is small (${out.length})`);
  const cut = /… ([\d,]+) more characters not shown \(the log holds them\)/.exec(out);
  assert.ok(cut, "the cut is said");
  assert.ok(Number(cut[1]!.replace(/,/g, "")) > 10 * 1024 * 1024 - ContentBudget.OUTPUT_MAX - 100);
  assert.ok(HOSTILE.length > 0);
});
