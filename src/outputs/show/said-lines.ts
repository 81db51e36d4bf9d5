import type { Problem } from "../../input/record.js";

/** Lines of the agent CLI's text kept at each end of a run of them that waits for a header. */
export const SAID_KEPT = 10;

/**
 * The agent CLI's text lines that wait to be shown (before a session's header, or before a file's
 * end when no session takes them): the first SAID_KEPT and the last SAID_KEPT, and how many came
 * between, so that a retry loop that writes a million lines before its run begins costs as much
 * as one that writes twenty.
 */
export class SaidLines {
  readonly head: Problem[] = [];
  /** The last lines, a ring of at most SAID_KEPT once past the head. */
  private tail: Problem[] = [];
  private next = 0;
  /** Lines left out between head and tail: how many, the first's and last's line numbers. */
  skipped = 0;
  firstSkipped = 0;
  lastSkipped = 0;
  count = 0;

  constructor(readonly file: string) {}

  push(p: Problem): void {
    this.count++;
    if (this.head.length < SAID_KEPT) {
      this.head.push(p);
      return;
    }
    if (this.tail.length < SAID_KEPT) {
      this.tail.push(p);
      return;
    }
    // The oldest of the tail is left out.
    const out = this.tail[this.next]!;
    this.tail[this.next] = p;
    this.next = (this.next + 1) % SAID_KEPT;
    if (this.skipped === 0) this.firstSkipped = out.line ?? 0;
    this.lastSkipped = out.line ?? 0;
    this.skipped++;
  }

  /** The first line of all. */
  get first(): Problem | undefined {
    return this.head[0];
  }

  /** The last lines, oldest first. */
  last(): Problem[] {
    return [...this.tail.slice(this.next), ...this.tail.slice(0, this.next)];
  }
}
