import type { StatsCall } from "./types.js";

/**
 * The `cap` longest calls, longest first; among equal durations the earlier call first. A sorted
 * insert into at most `cap` entries (cap is small: 10 by default); a call that does not make the
 * list is never built.
 */
export class SlowestCalls {
  private readonly top: StatsCall[] = [];

  constructor(private readonly cap: number) {}

  offer(durationMs: number, make: () => StatsCall): void {
    const top = this.top;
    if (this.cap <= 0) return;
    if (top.length === this.cap && !(durationMs > (top[top.length - 1]!.durationMs as number))) return;
    let i = top.length;
    while (i > 0 && (top[i - 1]!.durationMs as number) < durationMs) i--;
    top.splice(i, 0, make());
    if (top.length > this.cap) top.pop();
  }

  report(): StatsCall[] {
    return this.top.slice();
  }
}
