import type { Step } from "./run.js";

/**
 * THE RULE for the agent's text, for every output (json's result text, text --final, show's
 * messages, the traces' messages): a whole message (or a segment of one) is kept as it comes; a
 * delta (a chunk of a message still streaming, Step.text.delta) is pending until the whole message
 * that repeats it replaces it, or something else happens (a tool call), which keeps the chunks as
 * they are (a run cut off mid-stream). Segments join with no separator, as the agent's result does.
 * A subagent's lines (Step.parentId) are not the run's own: neither their text nor their calls
 * count here.
 */
export class RunText {
  private full = "";
  private pending = "";
  private final = "";

  /**
   * `onSegment`: told each segment as it is kept — a whole message (`fromDeltas` false) or the
   * chunks of one that no whole message repeated (true) — for an output that places messages.
   */
  constructor(private readonly onSegment?: (text: string, fromDeltas: boolean) => void) {}

  /** Takes a step; returns whether it held text. */
  observe(step: Step): boolean {
    if (step.parentId !== undefined) return false;
    if (step.text !== undefined) {
      this.piece(step.text.text, step.text.delta);
      // A line with text and calls (a Claude Code message: its text, then its tool_use blocks):
      // the calls come after the text, so the final message starts again after it.
      if (step.calls !== undefined) this.call();
      return true;
    }
    if (step.calls !== undefined) this.call();
    return false;
  }

  /** A piece of the agent's text: a delta, or a whole message (or a segment of one). */
  piece(text: string, delta: boolean): void {
    if (delta) this.pending += text;
    else {
      this.segment(text, false);
      this.pending = "";
    }
  }

  /** A tool call started or completed: pending chunks are kept as they are, and the final message starts again. */
  call(): void {
    if (this.pending !== "") this.segment(this.pending, true);
    this.pending = "";
    this.final = "";
  }

  /** The run ended: chunks still pending (a run cut off mid-stream) are kept as they are. */
  end(): void {
    if (this.pending !== "") this.segment(this.pending, true);
    this.pending = "";
  }

  /** All the run's text so far: what the agent's result holds for a finished run. */
  text(): string {
    return this.full + this.pending;
  }

  /** The last message: the text written after the last tool call. */
  finalMessage(): string {
    return this.final + this.pending;
  }

  private segment(text: string, fromDeltas: boolean): void {
    this.full += text;
    this.final += text;
    this.onSegment?.(text, fromDeltas);
  }
}
