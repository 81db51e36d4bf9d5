// test-run: stress
// test/helpers/binary-unit.ts stands in for fast-check's `fc.string({ unit: "binary" })` (whose
// set-up costs ~2 s of CPU per process) and says it draws the same values for a seed: this holds it
// to that, against the built-in unit, so that a fast-check upgrade that draws differently shows
// here. make stress only: building the built-in unit is the 2 s this helper saves.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { binaryString } from "./helpers/binary-unit.js";

test("binaryString draws what fc.string({ unit: 'binary' }) draws, seed for seed, and shrinks alike", () => {
  for (const seed of [1, 42, 2026]) {
    for (const maxLength of [1, 40, 300]) {
      const ours = fc.sample(binaryString({ maxLength }), { seed, numRuns: 300 });
      const theirs = fc.sample(fc.string({ unit: "binary", maxLength }), { seed, numRuns: 300 });
      assert.deepEqual(ours, theirs, `seed ${seed}, maxLength ${maxLength}`);
    }
  }
  // The same counterexample after shrinking: a property that fails on any string holding a code point past the BMP.
  const failing = (s: string) => ![...s].some((c) => c.codePointAt(0)! > 0xffff);
  for (const seed of [3, 4]) {
    const a = fc.check(fc.property(binaryString({ maxLength: 50 }), failing), { seed, numRuns: 1000 });
    const b = fc.check(fc.property(fc.string({ unit: "binary", maxLength: 50 }), failing), { seed, numRuns: 1000 });
    assert.equal(a.failed, true);
    assert.deepEqual(a.counterexample, b.counterexample, `seed ${seed}`);
  }
});
