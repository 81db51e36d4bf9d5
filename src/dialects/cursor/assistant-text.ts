import type { JsonObject } from "../../input/record.js";
import { isAssistant, isToolCall, messageText } from "./types.js";

/**
 * Rebuilds a session's assistant text without doubling what `--stream-partial-output` repeats
 * (FORMAT.md §4). Deltas carry `timestamp_ms` and no `model_call_id`; a consolidated event (with
 * `model_call_id`, or with neither field) repeats the segment the deltas streamed, so it replaces
 * them. Without partial output there are no deltas and every event is a segment of its own.
 */
export class AssistantText {
  private full = "";
  private pending = "";
  private final = "";

  observe(ev: JsonObject): void {
    if (isAssistant(ev)) {
      const text = messageText(ev);
      const isDelta = typeof ev.timestamp_ms === "number" && typeof ev.model_call_id !== "string";
      if (isDelta) {
        this.pending += text;
      } else {
        this.segment(text);
        this.pending = "";
      }
    } else if (isToolCall(ev)) {
      this.flush();
      this.final = "";
    }
  }

  /** All assistant text of the session: what `result.result` holds for a finished run. */
  text(): string {
    return this.full + this.pending;
  }

  /** The last message: the text written after the last tool call. */
  finalMessage(): string {
    return this.final + this.pending;
  }

  private flush(): void {
    if (this.pending !== "") this.segment(this.pending);
    this.pending = "";
  }

  private segment(text: string): void {
    this.full += text;
    this.final += text;
  }
}
