import type { Listed } from "./types.js";

/**
 * An exact count and the first `cap` items. `add` takes a maker so that an item past the cap is
 * never built: memory stays at `cap` items however many the log has.
 */
export class CappedList<T> {
  private count = 0;
  private readonly items: T[] = [];

  constructor(private readonly cap: number) {}

  add(make: () => T): void {
    this.count++;
    if (this.items.length < this.cap) this.items.push(make());
  }

  report(): Listed<T> {
    return { count: this.count, items: this.items.slice() };
  }
}
