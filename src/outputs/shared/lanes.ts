/**
 * The narrowest bar of the HTML Gantt, as a fraction of its axis: lanes are packed as if every
 * interval were at least this long, so the Chrome trace's threads match the Gantt's lanes.
 */
export const MIN_BAR = 0.004;

/** An interval on an axis: [start, end], end >= start. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * Greedy interval packing: the intervals are taken in start order (ties in the order given), and
 * each goes to the first lane that is free at its start (a lane is free from the moment its last
 * interval ends). Taken in start order, greedy needs exactly as many lanes as the most intervals
 * open at one instant, so a lane is a parallel slot. An interval shorter than `minSpan` occupies
 * `minSpan`, so bars drawn at a minimum width never overlap. Returns the lane of each interval,
 * indexed like the input, from 0. O(n log n + n × lanes).
 */
export function packLanes(intervals: readonly Interval[], minSpan = 0): number[] {
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
