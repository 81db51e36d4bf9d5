import assert from "node:assert/strict";
import { test } from "node:test";
import { loggedHunks, unifiedHunks } from "../src/outputs/shared/unified-diff.js";

/** Applies unified hunks to a text, as patch(1) does with no fuzz; fails when context differs. */
function apply(before: string, hunks: string[]): string {
  // Lines with their newline: the last one may have none.
  const lines = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  let out = "";
  let at = 0;
  for (let i = 0; i < hunks.length; ) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(hunks[i]!);
    assert.ok(m, `hunk header: ${hunks[i]}`);
    const start = m[2] === "0" ? Number(m[1]) : Number(m[1]) - 1;
    while (at < start) out += lines[at++]!;
    i++;
    while (i < hunks.length && !hunks[i]!.startsWith("@@")) {
      const l = hunks[i]!;
      const noEol = hunks[i + 1] === "\\ No newline at end of file";
      const token = l.slice(1) + (noEol ? "" : "\n");
      if (l[0] === " " || l[0] === "-") assert.equal(lines[at++], token, `context at line ${at}`);
      if (l[0] === " " || l[0] === "+") out += token;
      i += noEol ? 2 : 1;
    }
  }
  while (at < lines.length) out += lines[at++]!;
  return out;
}

/** A small deterministic generator (no Math.random: a failure must be reproducible). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(r: () => number, n: number): string {
  const words = ["a", "b", "c", "d", "", "a b"];
  const lines = Array.from({ length: n }, () => words[Math.floor(r() * words.length)]!);
  if (n === 0) return "";
  return lines.join("\n") + (r() < 0.8 ? "\n" : "");
}

test("unifiedHunks: applying the hunks to before gives after (2000 random pairs, with and without a last newline)", () => {
  const r = rng(14);
  for (let k = 0; k < 2000; k++) {
    const before = text(r, Math.floor(r() * 25));
    const after = r() < 0.2 ? before : text(r, Math.floor(r() * 25));
    const h = unifiedHunks(before, after);
    assert.equal(apply(before, h.lines), after, `case ${k}: ${JSON.stringify(before)} → ${JSON.stringify(after)}\n${h.lines.join("\n")}`);
    assert.equal(h.lines.length === 0, before === after, `case ${k}: no hunks exactly when equal`);
    assert.equal(h.added, h.lines.filter((l) => l.startsWith("+")).length);
    assert.equal(h.removed, h.lines.filter((l) => l.startsWith("-")).length);
  }
});

test("unifiedHunks: diff -u's hunk headers, context and last-newline marker", () => {
  assert.deepEqual(unifiedHunks("a\nb\nc\n", "a\nB\nc\n").lines, ["@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"]);
  assert.deepEqual(unifiedHunks("", "x\n").lines, ["@@ -0,0 +1 @@", "+x"]);
  assert.deepEqual(unifiedHunks("x\n", "").lines, ["@@ -1 +0,0 @@", "-x"]);
  assert.deepEqual(unifiedHunks("x", "x\n").lines, ["@@ -1 +1 @@", "-x", "\\ No newline at end of file", "+x"]);
  // Changes 7 unchanged lines apart are one hunk; 8 apart, two.
  const base = Array.from({ length: 20 }, (_, i) => `${i}`);
  const edit = (at: number[]) => base.map((l, i) => (at.includes(i) ? l + "!" : l)).join("\n") + "\n";
  assert.equal(unifiedHunks(base.join("\n") + "\n", edit([2, 9])).lines.filter((l) => l.startsWith("@@")).length, 1);
  assert.equal(unifiedHunks(base.join("\n") + "\n", edit([2, 11])).lines.filter((l) => l.startsWith("@@")).length, 2);
});

test("unifiedHunks: past the edit-distance bound the middle is replaced whole, still correct", () => {
  const before = Array.from({ length: 5000 }, (_, i) => `old ${i}`).join("\n") + "\n";
  const after = "head\n" + Array.from({ length: 5000 }, (_, i) => `new ${i}`).join("\n") + "\n";
  const h = unifiedHunks(before, after);
  assert.equal(apply(before, h.lines), after);
  assert.equal(h.removed, 5000);
  assert.equal(h.added, 5001);
});

test("loggedHunks: the hunks of a diffString without its file header, and their counts", () => {
  assert.deepEqual(loggedHunks("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"), { lines: ["@@ -1 +1 @@", "-a", "+b"], added: 1, removed: 1 });
});
