import assert from "node:assert/strict";
import { test } from "node:test";
import { clip, wrap, wrapFacts } from "../src/outputs/show/wrap.ts";

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

test("clip: code points, an ellipsis when cut", () => {
  assert.equal(clip("abcdef", 4), "abc…");
  assert.equal(clip("abcd", 4), "abcd");
  assert.equal(clip("é😀bcd", 3), "é😀…");
  assert.equal(clip("abc", 0), "abc");
});
