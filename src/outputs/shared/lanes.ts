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
 * indexed like the input, from 0.
 *
 * O(n log n): the busy lanes sit in a heap by the time they free up, the free ones in a heap by
 * number. Starts only grow, so a lane that is free at one start stays free until it is taken:
 * before each interval, the lanes whose end has come move to the free heap, and the interval
 * takes the lowest-numbered free lane (a new one when none is free).
 */
export function packLanes(intervals: readonly Interval[], minSpan = 0): number[] {
  const steps = packLanesSteps(intervals, minSpan);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Intervals packed between one pause and the next of packLanesSteps. */
const PACK_SLICE = 1 << 16;

/**
 * packLanes as a generator that pauses (yields "") after the sort and after every PACK_SLICE
 * intervals, so that a caller can let the event loop run (signals) during a long layout.
 */
export function* packLanesSteps(intervals: readonly Interval[], minSpan = 0): Generator<"", number[]> {
  const n = intervals.length;
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => intervals[a]!.start - intervals[b]!.start || a - b);
  yield "";
  const lanes = new Array<number>(n);
  // busy: (free-at time, lane), least time first (ties: least lane, which changes nothing).
  const busyAt: number[] = [];
  const busyLane: number[] = [];
  const free = new MinHeap();
  let count = 0;
  for (let k = 0; k < n; k++) {
    if (k % PACK_SLICE === PACK_SLICE - 1) yield "";
    const i = order[k]!;
    const { start, end } = intervals[i]!;
    while (busyAt.length > 0 && !(busyAt[0]! > start)) free.push(popBusy(busyAt, busyLane));
    const lane = free.size > 0 ? free.pop() : count++;
    pushBusy(busyAt, busyLane, Math.max(end, start + minSpan), lane);
    lanes[i] = lane;
  }
  return lanes;
}

/** A binary min-heap of numbers (lane numbers). */
class MinHeap {
  private readonly a: number[] = [];

  get size(): number {
    return this.a.length;
  }

  push(v: number): void {
    const a = this.a;
    let i = a.length;
    a.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]! <= v) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = v;
  }

  pop(): number {
    const a = this.a;
    const top = a[0]!;
    const last = a.pop()!;
    const n = a.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && a[c + 1]! < a[c]!) c++;
      if (a[c]! >= last) break;
      a[i] = a[c]!;
      i = c;
    }
    a[i] = last;
    return top;
  }
}

/** Busy lanes as two parallel arrays forming one heap keyed by (time, lane). */
function less(at: number[], lane: number[], i: number, j: number): boolean {
  return at[i]! < at[j]! || (at[i] === at[j] && lane[i]! < lane[j]!);
}

function pushBusy(at: number[], lane: number[], t: number, l: number): void {
  let i = at.length;
  at.push(t);
  lane.push(l);
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!less(at, lane, i, p)) break;
    swap(at, lane, i, p);
    i = p;
  }
}

function popBusy(at: number[], lane: number[]): number {
  const top = lane[0]!;
  const lastAt = at.pop()!;
  const lastLane = lane.pop()!;
  const n = at.length;
  if (n === 0) return top;
  at[0] = lastAt;
  lane[0] = lastLane;
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && less(at, lane, c + 1, c)) c++;
    if (!less(at, lane, c, i)) break;
    swap(at, lane, i, c);
    i = c;
  }
  return top;
}

function swap(at: number[], lane: number[], i: number, j: number): void {
  const t = at[i]!;
  at[i] = at[j]!;
  at[j] = t;
  const l = lane[i]!;
  lane[i] = lane[j]!;
  lane[j] = l;
}
