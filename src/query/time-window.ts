import type { JsonObject } from "../input/record.js";

/**
 * The `--since` / `--until` window, [since, until) on `timestamp_ms` (or a time given: containsAt). An event without a numeric
 * `timestamp_ms` (user, final assistant, result, 2025-era events) takes the timestamp of the last
 * timestamped event before it in the same file; before the file's first timestamp it is inside
 * only when there is no `--since`. Call `contains` on every event, in order: it keeps that state.
 */
export class TimeWindow {
  private last: number | undefined;

  constructor(
    private readonly since: number | undefined,
    private readonly until: number | undefined,
  ) {}

  contains(ev: JsonObject): boolean {
    const ts = ev.timestamp_ms;
    return this.containsAt(typeof ts === "number" ? ts : undefined);
  }

  /**
   * The same, for an event whose time is known otherwise (the run model's Step.at: Claude Code's
   * ISO `timestamp`), or undefined when it has none.
   */
  containsAt(ts: number | undefined): boolean {
    if (ts !== undefined && Number.isFinite(ts)) this.last = ts;
    const t = this.last;
    if (t === undefined) return this.since === undefined;
    return (this.since === undefined || t >= this.since) && (this.until === undefined || t < this.until);
  }

  /** A new file starts with no timestamp seen. */
  endFile(): void {
    this.last = undefined;
  }
}
