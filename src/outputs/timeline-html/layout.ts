import type { CallRecord } from "./call.js";
import { MIN_BAR, packLanesSteps, type Interval } from "../shared/lanes.js";
import type { HtmlCall } from "./types.js";


export interface Layout {
  axis: "time" | "sequence";
  /** Absolute ms of the axis origin ("time" only). */
  origin: number | undefined;
  span: number;
  lanes: number;
  calls: HtmlCall[];
}

/**
 * Places a session's calls (in seq order) on an axis and packs them into lanes. With any logged
 * time the axis is time: it runs from the session's first logged time to its last (events and
 * calls alike); a call with one of its two times is placed at that time, one with neither at the
 * start of the call before it (both flagged approx); an incomplete call runs to the end of the
 * axis. Without any time (2025 logs, Claude Code's before mid-2026) nothing tells how long a call
 * took or which calls ran at once: call n is only [n-1, n] in one lane, and the page draws no chart.
 * A call whose background task's end is logged keeps its lane up to that end
 * (`bg`), drawn apart from its bar. `firstTs`/`lastTs`: the events' range.
 */
/** Calls handled between one pause and the next of layoutCallsSteps. */
const SLICE = 1 << 16;

/**
 * As a generator that pauses (yields "") every SLICE calls of each pass, so that the page's
 * writer lets the event loop run (a signal takes effect) during the layout of many calls.
 */
export function* layoutCalls(records: readonly CallRecord[], firstTs: number | undefined, lastTs: number | undefined): Generator<"", Layout> {
  let lo = firstTs ?? Infinity;
  let hi = lastTs ?? -Infinity;
  let timed = false;
  for (let i = 0; i < records.length; i++) {
    if (i % SLICE === SLICE - 1) yield "";
    const r = records[i]!;
    for (const t of [r.startedMs, r.completedMs, r.backgroundEndMs]) {
      if (t === undefined) continue;
      timed = true;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  const intervals: Interval[] = [];
  const approx: boolean[] = [];
  /** Only the approx calls' entries (few): which of their times the log lacks. */
  const missing = new Map<number, NonNullable<HtmlCall["missing"]>>();
  /** A bar's end; a background shell's end on the axis (its lane stays its own up to there). */
  const ends: number[] = [];
  const bg: Array<number | undefined> = [];
  let span: number;
  let origin: number | undefined;
  if (timed) {
    origin = lo;
    span = Math.max(hi - lo, 1);
    let prev = 0;
    for (let i = 0; i < records.length; i++) {
      if (i % SLICE === SLICE - 1) yield "";
      const r = records[i]!;
      const open = r.cls === "incomplete";
      const known = r.startedMs ?? r.completedMs;
      const start = known === undefined ? prev : known - lo;
      const end = open ? span : r.completedMs === undefined ? start : Math.max(r.completedMs - lo, start);
      const bgEnd = r.backgroundEndMs === undefined ? undefined : Math.max(r.backgroundEndMs - lo, end);
      bg.push(bgEnd);
      ends.push(end);
      intervals.push({ start, end: bgEnd ?? end });
      const lacks = r.startedMs === undefined || r.completedMs === undefined;
      approx.push(!open && lacks);
      if (!open && lacks) missing.set(i, known === undefined ? "both" : r.startedMs === undefined ? "start" : "end");
      prev = start;
    }
  } else {
    span = Math.max(records.length, 1);
    for (const r of records) {
      intervals.push({ start: r.seq - 1, end: r.seq });
      ends.push(r.seq);
      approx.push(false);
      bg.push(undefined);
    }
  }
  const lanes = timed ? yield* packLanesSteps(intervals, span * MIN_BAR) : new Array<number>(records.length).fill(0);
  const calls = new Array<HtmlCall>(records.length);
  for (let i = 0; i < records.length; i++) {
    if (i % SLICE === SLICE - 1) yield "";
    calls[i] = htmlCall(records[i]!, lanes[i]!, intervals[i]!.start, ends[i]!, approx[i]!, bg[i], missing.get(i));
  }
  return { axis: timed ? "time" : "sequence", origin, span, lanes: lanes.reduce((n, l) => Math.max(n, l + 1), 0), calls };
}

function htmlCall(r: CallRecord, lane: number, x0: number, x1: number, approx: boolean, bg: number | undefined, missing: HtmlCall["missing"]): HtmlCall {
  const call: HtmlCall = {
    seq: r.seq,
    id: r.id,
    lane,
    kind: r.kind,
    action: r.action,
    target: r.target,
    ...(r.path && { path: true as const }),
    status: r.status,
    cls: r.cls,
    x0,
    x1,
    ms: r.durationMs ?? null,
    exit: r.exit,
    approx,
    ...(missing !== undefined && { missing }),
    line: r.line,
  };
  if (bg !== undefined) {
    call.bg = bg;
    call.bgMs = r.backgroundMs ?? null;
  }
  return call;
}
