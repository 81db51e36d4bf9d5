// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { packLanes, type Interval } from "../src/outputs/shared/lanes.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";

// Runs (test/helpers/scale.ts): a tenth in make test, the full count in make stress
// (CURSORLOG_STRESS=1); FUZZ_RUNS overrides them, FUZZ_SEED the seed (42).

const iv = (start: number, end: number): Interval => ({ start, end });

test("packLanes: sequential calls share one lane; a call may start the moment another ends", () => {
  assert.deepEqual(packLanes([]), []);
  assert.deepEqual(packLanes([iv(0, 10), iv(10, 20), iv(25, 30)]), [0, 0, 0]);
});

test("packLanes: parallel calls take one lane each, and a freed lane is reused first", () => {
  // parallel-out-of-order.ndjson: sleep 6, 4, 1 started together.
  assert.deepEqual(packLanes([iv(0, 6000), iv(1, 4001), iv(2, 1002)]), [0, 1, 2]);
  // Lane 1 frees at 5, lane 0 at 9: the next call (at 6) takes lane 1, the first free one.
  assert.deepEqual(packLanes([iv(0, 9), iv(1, 5), iv(6, 8), iv(9, 12)]), [0, 1, 1, 0]);
  // The first free lane, not the one freed last or longest ago: lanes 0 and 2 are both free at 7.
  assert.deepEqual(packLanes([iv(0, 3), iv(0, 20), iv(0, 4), iv(7, 8), iv(7, 8)]), [0, 1, 2, 0, 2]);
});

test("packLanes: intervals are taken in start order, ties in the order given; lanes come back indexed like the input", () => {
  assert.deepEqual(packLanes([iv(5, 6), iv(0, 10), iv(0, 3)]), [1, 0, 1]);
  assert.deepEqual(packLanes([iv(0, 3), iv(0, 10)]), [0, 1]);
  assert.deepEqual(packLanes([iv(0, 10), iv(0, 3)]), [0, 1]);
});

test("packLanes: a call shorter than minSpan occupies minSpan (bars at their least width never overlap)", () => {
  assert.deepEqual(packLanes([iv(0, 0), iv(0, 0), iv(1, 1)]), [0, 0, 0]);
  assert.deepEqual(packLanes([iv(0, 0), iv(0, 0), iv(1, 1)], 2), [0, 1, 2]);
  assert.deepEqual(packLanes([iv(0, 0), iv(0, 0), iv(2, 2)], 2), [0, 1, 0]);
  assert.deepEqual(packLanes([iv(0, 1), iv(3, 4)], 5), [0, 1]);
});

/** The most intervals open at one instant, [start, end) with ends at least start + minSpan. */
function maxOverlap(ivs: readonly Interval[], minSpan: number): number {
  const points: Array<[number, number]> = [];
  for (const { start, end } of ivs) {
    const e = Math.max(end, start + minSpan);
    if (e > start) points.push([start, 1], [e, -1]);
  }
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // an end before a start at the same instant
  let open = 0;
  let most = 0;
  for (const [, d] of points) most = Math.max(most, (open += d));
  return most;
}

// The page always packs with minSpan > 0 (a share of the axis), so every call occupies some time.
test("packLanes (property): no two intervals of a lane overlap, and the lanes are exactly the most calls open at once", () => {
  const interval = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 60 })).map(([s, len]) => iv(s, s + len));
  fc.assert(
    fc.property(fc.array(interval, { maxLength: 60 }), fc.constantFrom(1, 7, 30), (ivs, minSpan) => {
      const lanes = packLanes(ivs, minSpan);
      assert.equal(lanes.length, ivs.length);
      const byLane = new Map<number, Interval[]>();
      ivs.forEach((x, i) => byLane.set(lanes[i]!, [...(byLane.get(lanes[i]!) ?? []), x]));
      for (const members of byLane.values()) assert.equal(maxOverlap(members, minSpan) <= 1, true, "a lane holds one call at a time");
      const used = lanes.reduce((n, l) => Math.max(n, l + 1), 0);
      assert.equal(used, ivs.length === 0 ? 0 : Math.max(1, maxOverlap(ivs, minSpan)));
      assert.deepEqual([...new Set(lanes)].sort((a, b) => a - b), Array.from({ length: used }, (_, i) => i), "no lane is skipped");
    }),
    { seed: FUZZ_SEED, numRuns: fuzzRuns(30, 300) },
  );
});

/** The first layout, a scan of every lane per call (quadratic): the lanes of the pages already written. */
function packLanesByScan(intervals: readonly Interval[], minSpan = 0): number[] {
  const order = intervals.map((_, i) => i);
  order.sort((a, b) => intervals[a]!.start - intervals[b]!.start || a - b);
  const freeAt: number[] = [];
  const lanes = new Array<number>(intervals.length);
  for (const i of order) {
    const { start, end } = intervals[i]!;
    let lane = 0;
    while (lane < freeAt.length && freeAt[lane]! > start) lane++;
    freeAt[lane] = Math.max(end, start + minSpan);
    lanes[i] = lane;
  }
  return lanes;
}

test("packLanes (property): the heap layout assigns exactly the lanes of the lane-by-lane scan (ties, zero lengths, minSpan 0 included)", () => {
  const interval = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 40 }), fc.boolean()).map(([s, len, frac]) => iv(frac ? s / 4 : s, (frac ? s / 4 : s) + len));
  fc.assert(
    fc.property(fc.array(interval, { maxLength: 120 }), fc.constantFrom(0, 0.5, 1, 7, 30), (ivs, minSpan) => {
      assert.deepEqual(packLanes(ivs, minSpan), packLanesByScan(ivs, minSpan));
    }),
    { seed: FUZZ_SEED, numRuns: fuzzRuns(100, 1000) },
  );
  // Many lanes at once, freed in an order unlike their numbers.
  const many = Array.from({ length: 3000 }, (_, i) => iv(i % 1000, (i % 1000) + ((i * 7919) % 997)));
  assert.deepEqual(packLanes(many, 1), packLanesByScan(many, 1));
});
