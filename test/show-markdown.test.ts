import assert from "node:assert/strict";
import { test } from "node:test";
import { agentMarkdown, scanAgentMarkdown } from "../src/outputs/show/agent-markdown.js";
import { assistant, completed, init, line, result, started, thinkingCompleted, thinkingDelta, user } from "./helpers/events.js";
import { runCli } from "./helpers/run-cli.js";

// Issue 26 (first contact): `show --format markdown` escaped the agent's own Markdown
// (`\*\*bold\*\*`). The agent writes Markdown: it is rendered as Markdown, but nothing in it may
// be live HTML, leave its place in the transcript (close the <details> around thinking, leave a
// code fence open over what follows, put a heading above the session's) or link to a script.
// test/show-markdown-cmark.test.ts checks the same against GitHub's own parser.

const md = (lines: string[]): string => agentMarkdown(lines.join("\n"));

test("the agent's Markdown passes through as Markdown", () => {
  const text = [
    "**Bold**, _em_, ~~gone~~ and `code`.",
    "",
    "1. Read the file",
    "2. Fix it",
    "",
    "- [x] done",
    "",
    "> a quote",
    "",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "",
    "[docs](https://example.com/docs) and [a file](src/a.ts)",
    "",
    "```ts",
    "const a: Map<string, number> = new Map();",
    "if (a && b) x = a < b;",
    "```",
  ];
  assert.equal(md(text), text.join("\n"));
});

test("raw HTML is never live: every < outside a code block escaped, an entity's & too", () => {
  assert.equal(
    md([
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      "<!-- hidden -->",
      "</details><details open>",
      "<div>",
      "",
      "<javascript:alert(1)> <https://example.com>",
      "bidi &#x202E; &lt;b&gt; &amp; R&D a && b &copy",
    ]),
    [
      "\\<script>alert(1)\\</script>",
      "\\<img src=x onerror=alert(1)>",
      "\\<!-- hidden -->",
      "\\</details>\\<details open>",
      "\\<div>",
      "",
      "\\<javascript:alert(1)> \\<https://example.com>",
      "bidi \\&#x202E; \\&lt;b\\&gt; \\&amp; R&D a && b &copy",
    ].join("\n"),
  );
});

test("a code span keeps its text: left as written, or as <code> with its text escaped when it holds what would matter as text", () => {
  assert.equal(
    md(["`Map<K, V>` `plain` `a && b` `&amp;` `@types/node` ``x ` y`` ```` `a<b>` ````"]),
    "<code>Map\\<K, V\\></code> `plain` `a && b` <code>\\&amp;</code> <code>\\@types/node</code> ``x ` y`` <code>\\`a\\<b\\>\\`</code>",
  );
  // A line that is no fence only because its info string holds a backtick stays no fence.
  assert.equal(md(["```` `a<b>`"]), "\\```` <code>a\\<b\\></code>");
});

test("a code fence left open is closed where the text ends, at the depth it was opened", () => {
  assert.equal(md(["Intro:", "", "```sh", "echo </details>"]), ["Intro:", "", "```sh", "echo </details>", "```"].join("\n"));
  assert.equal(md(["~~~~", "```", "x"]), ["~~~~", "```", "x", "~~~~"].join("\n"));
  assert.equal(md(["- step", "  ```", "  code <x>"]), ["- step", "  ```", "  code <x>", "  ```"].join("\n"));
  assert.equal(md(["> quote", "> ```", "> <x>"]), ["> quote", "> ```", "> <x>", "> ```"].join("\n"));
  // A shorter fence does not close a longer one; its text stays code.
  assert.equal(md(["````md", "```", "<b>"]), ["````md", "```", "<b>", "````"].join("\n"));
});

test("which lines are code follows cmark-gfm: containers, lazy lines, fences in items, indented code after an empty quote", () => {
  const kinds = (lines: string[]) => scanAgentMarkdown(lines.join("\n")).map((l) => l.code ?? "text");
  // After `>` alone (an empty quote), an indented line is code, not the quote's paragraph.
  assert.deepEqual(kinds([">", "    <x>"]), ["text", "indented"]);
  // A fence in a list item ends with the item: the line at column 0 is text (and escaped).
  assert.deepEqual(kinds(["- a", "  ```", "  <b>", "<c>"]), ["text", "info", "fence", "text"]);
  assert.equal(md(["- a", "  ```", "  <b>", "<c>"]), ["- a", "  ```", "  <b>", "\\<c>"].join("\n"));
  // A lazy line continues the quote's paragraph; a fence at column 0 after it is the document's.
  assert.deepEqual(kinds(["> a", "b", "```", "<d>", "```"]), ["text", "text", "info", "fence", "fence"]);
  // In a table, an indented line is code; after a paragraph it is the paragraph's.
  assert.deepEqual(kinds(["| a |", "|---|", "    <e>"]), ["text", "text", "indented"]);
  assert.deepEqual(kinds(["a", "    <e>"]), ["text", "text"]);
});

test("headings go three levels down, setext ones too, so that the transcript's ### stay on top", () => {
  assert.equal(
    md(["# A", "## B", "###### F", "Title", "===", "", "Two", "lines", "---", "", "text", "", "---"]),
    ["#### A", "##### B", "###### F", "#### Title", "", "##### Two lines", "", "text", "", "---"].join("\n"),
  );
});

test("links: a scheme other than http, https or mailto is text; an image is a link; a mention is text; a footnote definition is text", () => {
  assert.equal(
    md([
      "[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z]( javascript:alert(1)) [w](javascript\\:alert(1)) [d](data:text/html,x)",
      "[ok](https://x.org) [rel](src/a.ts) [m](mailto:a@b.c) [a](#top)",
      "[r]: javascript:alert(1)",
      "[s]:",
      "  javascript:alert(2)",
      "[t]: https://fine.example",
      "",
      "![x](http://e/x.png) ![y][t] @octocat",
      "",
      "[^1]: note",
    ]),
    [
      "[x\\](javascript:alert(1)) [y\\](JaVaScRiPt:alert(1)) [z\\]( javascript:alert(1)) [w\\](javascript\\:alert(1)) [d\\](data:text/html,x)",
      "[ok](https://x.org) [rel](src/a.ts) [m](mailto:a\\@b.c) [a](#top)",
      "[r\\]: javascript:alert(1)",
      "[s\\]:",
      "  javascript:alert(2)",
      "[t]: https://fine.example",
      "",
      "\\![x](http://e/x.png) \\![y][t] \\@octocat",
      "",
      "\\[^1]: note",
    ].join("\n"),
  );
});

test("control and invisible characters are escaped, tabs become spaces, blank lines at the ends go", () => {
  assert.equal(agentMarkdown("\n\nDone \u001b[1mbold\u001b[0m\u0007\u202e\n\tx\r\n\n"), "Done \\u001b[1mbold\\u001b[0m\\u0007\\u202e\n    x");
  assert.equal(agentMarkdown(" \n\t\n"), "");
});

const S = "5a1c9e3b-77d2-4f0a-9b6e-0c4d2e8f1a23";

test("show --format markdown: the transcript around hostile Markdown keeps its shape (exact)", async () => {
  const log = [
    init(S, { cwd: "/home/dev/app", model: "GPT-5.1 Medium" }),
    user(S, "**Fix** <it>"),
    thinkingDelta(S, 1767225600000, "**Planning**\n\n```\n</details>\n# not a heading"),
    thinkingCompleted(S, 1767225600001),
    assistant("## Plan\n\nI'll **read** `a<b>` then [run](javascript:alert(1)):\n\n```sh\nnpm test", { session_id: S }),
    started(S, "c1", "readToolCall", { path: "/home/dev/app/src/a.ts" }, 1767225600002),
    completed(S, "c1", "readToolCall", { args: { path: "/home/dev/app/src/a.ts" }, result: { success: { content: "x" } } }, 1767225600003),
    assistant("Done: <b>bold</b> & **really** bold.", { session_id: S }),
    result(S, { duration_ms: 5 }),
  ]
    .map(line)
    .join("");
  const got = await runCli(["show", "--format", "markdown", "--thinking", "-"], { stdin: log });
  assert.equal(got.stderr, "");
  assert.equal(
    got.stdout,
    [
      `### Session 1 · ${S}`,
      "",
      "**Model:** GPT-5.1 Medium · **cwd:** /home/dev/app · **Started:** 2026-01-01T00:00:00.000Z · **Log:** \\<stdin\\>:1",
      "",
      // The prompt, the user's, stays literal.
      "> \\*\\*Fix\\*\\* \\<it\\>",
      "",
      "<details><summary>Thinking</summary>",
      "",
      "**Planning**",
      "",
      "```",
      "</details>",
      "# not a heading",
      "```",
      "",
      "</details>",
      "",
      "##### Plan",
      "",
      "I'll **read** <code>a\\<b\\></code> then [run\\](javascript:alert(1)):",
      "",
      "```sh",
      "npm test",
      "```",
      "",
      "<p>✓ <b>Read file</b>: <code>src/a.ts</code> · 1ms</p>",
      "",
      "**Final answer:**",
      "",
      "Done: \\<b>bold\\</b> & **really** bold.",
      "",
      "**✓ finished** · 5ms · tokens not in log · calls: 1 ok",
      "",
    ].join("\n"),
  );
});
