import type { Step } from "./run.js";

/**
 * THE RULE for the agent's text, for every output (json's result text, text --final, show's
 * messages, the traces' messages): a whole message (or a segment of one) is kept as it comes; a
 * delta (a chunk of a message still streaming, Step.text.delta) is pending until the whole message
 * that repeats it replaces it, or something else happens (a tool call), which keeps the chunks as
 * they are (a run cut off mid-stream). Segments join with no separator, as the agent's result does.
 */
export class RunText {
  private full = "";
  private pending = "";
  private final = "";

  /** Takes a step; returns whether it held text. */
  observe(step: Step): boolean {
    if (step.text !== undefined) {
      if (step.text.delta) this.pending += step.text.text;
      else {
        this.segment(step.text.text);
        this.pending = "";
      }
      return true;
    }
    if (step.started !== undefined || step.done !== undefined || step.restarted !== undefined) {
      if (this.pending !== "") this.segment(this.pending);
      this.pending = "";
      this.final = "";
    }
    return false;
  }

  /** All the run's text so far: what the agent's result holds for a finished run. */
  text(): string {
    return this.full + this.pending;
  }

  /** The last message: the text written after the last tool call. */
  finalMessage(): string {
    return this.final + this.pending;
  }

  private segment(text: string): void {
    this.full += text;
    this.final += text;
  }
}
