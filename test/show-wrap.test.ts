import assert from "node:assert/strict";
import { test } from "node:test";
import pc from "picocolors";
import { markdownRenderer } from "../src/outputs/show/markdown.js";
import { MAX_DRAWN_LEVELS } from "../src/outputs/show/render.js";
import { textRenderer } from "../src/outputs/show/text.js";
import { clip, columns, wrap, wrapFacts } from "../src/outputs/show/wrap.js";

test("wrap: at spaces, indent on every line, a long word left whole, 0 never wraps", () => {
  assert.deepEqual(wrap("aaa bbb ccc ddd eee fff ggg hhh iii jjj", 20, "> "), ["> aaa bbb ccc ddd eee", "> fff ggg hhh iii jjj"]);
  assert.deepEqual(wrap("x https://example.com/a/very/long/path/that/is/longer/than/twenty y", 20), ["x", "https://example.com/a/very/long/path/that/is/longer/than/twenty", "y"]);
  assert.deepEqual(wrap("one two three", 0), ["one two three"]);
  assert.deepEqual(wrap("a\n\nb", 30, "> "), ["> a", ">", "> b"]);
});

test("wrapFacts: breaks between facts, never inside one that fits", () => {
  const facts = ["tokens 5,120 in · 734 out · 20,480 cache read · 1,024 cache write", "calls: 18 ok, 1 failed"];
  assert.deepEqual(wrapFacts(facts, 80, "   "), ["   tokens 5,120 in · 734 out · 20,480 cache read · 1,024 cache write ·", "   calls: 18 ok, 1 failed"]);
  // Exactly at the room: one line.
  assert.deepEqual(wrapFacts(["a".repeat(10), "b".repeat(10)], 23), ["aaaaaaaaaa · bbbbbbbbbb"]);
  assert.deepEqual(wrapFacts(["a".repeat(10), "b".repeat(10)], 22), ["aaaaaaaaaa ·", "bbbbbbbbbb"]);
  assert.deepEqual(wrapFacts(["x", "y"], 0, "  "), ["  x · y"]);
});

test("clip: terminal columns, an ellipsis when cut", () => {
  assert.equal(clip("abcdef", 4), "abc…");
  assert.equal(clip("abcd", 4), "abcd");
  assert.equal(clip("é😀bcd", 4), "é😀…");
  assert.equal(clip("é😀bcd", 3), "é…");
  assert.equal(clip("漢字漢字", 5), "漢字…");
  assert.equal(clip("abc", 0), "abc");
});

test("columns: wide characters count two, combining marks none", () => {
  assert.equal(columns("abc"), 3);
  assert.equal(columns("漢字"), 4);
  assert.equal(columns("한국어"), 6);
  assert.equal(columns("😀x"), 3);
  assert.equal(columns("e\u0301"), 1);
  assert.equal(columns("━━ ✓ ─"), 6);
});

test("wrap: CJK text, written without spaces, breaks between characters at the width in columns", () => {
  const text = "这是一个很长的句子没有空格但是需要在终端宽度处换行以便阅读";
  const lines = wrap(text, 20);
  assert.deepEqual(lines, ["这是一个很长的句子没", "有空格但是需要在终端", "宽度处换行以便阅读"]);
  for (const l of lines) assert.ok(columns(l) <= 20);
  // Mixed: Latin words stay whole, a wide run breaks.
  assert.deepEqual(wrap("See 漢字漢字漢字漢字漢字漢字 and more words here", 20), ["See", "漢字漢字漢字漢字漢字", "漢字 and more words", "here"]);
});

test("nesting: a subagent's lines carry a bar (text) or a quote (Markdown) per level, MAX_DRAWN_LEVELS at most, so N nested subagents print N lines, not N² characters", () => {
  const text = textRenderer(pc.createColors(false), 0);
  const bars = (n: number) => "  │ ".repeat(n);
  assert.equal(MAX_DRAWN_LEVELS, 16);
  // The first block has a blank line (its bars alone) before it; the deeper ones that follow none.
  assert.equal(text.nested(3).event("subagent", "Subagent: a"), "  │   │   │\n  │   │   │ ↳ Subagent: a\n");
  assert.equal(text.nested(16).event("subagent", "Subagent: b"), `${bars(16)}↳ Subagent: b\n`);
  assert.equal(text.nested(17).event("subagent", "Subagent: c"), `${bars(16)}↳ Subagent: c\n`);
  assert.equal(text.nested(3000).event("subagent", "Subagent: d"), `${bars(16)}↳ Subagent: d\n`);
  const md = markdownRenderer();
  const quotes = "> ".repeat(16);
  assert.equal(md.nested(3000).event("subagent", "Subagent: d"), `${quotes.trimEnd()}\n${quotes}↳ Subagent: d\n`);
  assert.equal(md.nested(2).event("subagent", "Subagent: e"), "> >\n> > ↳ Subagent: e\n");
});
