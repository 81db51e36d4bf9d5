/**
 * Times of the run model. A time is a number of milliseconds since the epoch, always with where
 * it came from: cursorlog never makes a time up, and an output can say how sure it is.
 *
 * - `call`: the tool call's own clock (cursor-agent's `startedAtMs` / `completedAtMs`).
 * - `event`: the time stamped on the line that told it (cursor-agent's `timestamp_ms`, Claude
 *   Code's ISO `timestamp`).
 * - `batch`: the time stamped on the line that told a call's end, when that line was written once
 *   the whole batch of calls it ran with had ended (Gemini CLI's `tool_result` of a batch of several
 *   calls): the batch's end, not the call's own. It is on the `event` clock (a duration from the
 *   start line's time is one), but a duration ending there is the batch's time so far, not the call's.
 *
 * A time the log does not hold is absent (undefined), never estimated. (A time stamped by
 * cursorlog on arrival, for a live stream of an agent that writes none, would be a third source;
 * no dialect gives one yet.)
 */
export type TimeSource = "call" | "event" | "batch";

export interface Stamp {
  ms: number;
  from: TimeSource;
}

/** The times the log gives for one call, each from both clocks where it has them. */
export interface CallClocks {
  /** The call's own start and end (its `call` clock). */
  callStart?: number | undefined;
  callEnd?: number | undefined;
  /** The times on the lines that started and completed it (its `event` clock). */
  eventStart?: number | undefined;
  eventEnd?: number | undefined;
  /** `eventEnd` was stamped when the call's whole batch ended (its source is `batch`). */
  eventEndBatch?: boolean | undefined;
}

export interface CallTiming {
  start?: Stamp;
  end?: Stamp;
  /** Never negative; absent when no clock gives both ends in order. */
  durationMs?: number;
}

/**
 * THE RULE for a call's times (every output reads them from here):
 *
 * - a duration comes from two times of one clock only: the call's own pair when it has both ends
 *   and the end is not before the start, else the lines' pair under the same condition; and then
 *   the start and the end are that pair's, so that end - start is the duration in every output
 *   (a trace's span, a timeline's columns, a chart's bar); a `batch` end is on the lines' clock
 *   (its duration is the batch's, as its source says);
 * - with no such pair, start is the call's own start, else its start line's time, and end
 *   likewise (each as the log gives it, with its source), and there is no duration.
 *
 * A log that contradicts itself (an end before its start on one clock) gets the other clock's
 * duration or none: never a negative one. Times of two clocks are never subtracted (the line's
 * time can be earlier than the call's own start: FORMAT.md §5.5).
 */
export function callTiming(c: CallClocks): CallTiming {
  const own = spanOf(c.callStart, c.callEnd);
  if (own !== undefined) return { start: { ms: c.callStart!, from: "call" }, end: { ms: c.callEnd!, from: "call" }, durationMs: own };
  const lines = spanOf(c.eventStart, c.eventEnd);
  const endFrom = c.eventEndBatch === true ? "batch" : "event";
  if (lines !== undefined) return { start: { ms: c.eventStart!, from: "event" }, end: { ms: c.eventEnd!, from: endFrom }, durationMs: lines };
  const t: CallTiming = {};
  if (c.callStart !== undefined) t.start = { ms: c.callStart, from: "call" };
  else if (c.eventStart !== undefined) t.start = { ms: c.eventStart, from: "event" };
  if (c.callEnd !== undefined) t.end = { ms: c.callEnd, from: "call" };
  else if (c.eventEnd !== undefined) t.end = { ms: c.eventEnd, from: endFrom };
  return t;
}

/** `end - start` when both are there and in order; else undefined. */
export function spanOf(start: number | undefined, end: number | undefined): number | undefined {
  return start !== undefined && end !== undefined && end >= start ? end - start : undefined;
}

/**
 * A number of milliseconds as a log may write it: a finite number, or a string of digits (cursor-
 * agent writes `startedAtMs` as a string). Anything else is no time.
 */
export function msOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && /^\d{1,16}$/.test(v)) return Number(v);
  return undefined;
}
