import type { JsonObject } from "../../input/record.js";
import { isAssistant, messageText } from "../../dialects/cursor/types.js";

/**
 * The agent's current message, held until something else happens (a tool call, thinking, the
 * result), then shown as one block. `--stream-partial-output` repeats (FORMAT.md §4): deltas
 * (`timestamp_ms`, no `model_call_id`) are pending text that a consolidated event (with
 * `model_call_id`, or with neither field) replaces; without partial output every event is a
 * segment, and segments of one message are joined.
 */
export class MessageBuffer {
  private committed = "";
  private pending = "";

  /** Takes an assistant event; false for any other event. */
  observe(ev: JsonObject): boolean {
    if (!isAssistant(ev)) return false;
    const text = messageText(ev);
    const isDelta = typeof ev.timestamp_ms === "number" && typeof ev.model_call_id !== "string";
    if (isDelta) this.pending += text;
    else {
      this.committed += text;
      this.pending = "";
    }
    return true;
  }

  /** The message so far, emptied. */
  take(): string {
    const text = this.committed + this.pending;
    this.committed = "";
    this.pending = "";
    return text;
  }

  get empty(): boolean {
    return this.committed === "" && this.pending === "";
  }
}

/** Thinking text of the current phase (`thinking/delta` texts), until `thinking/completed` or something else. */
export class ThinkingBuffer {
  private text = "";

  observe(ev: JsonObject): "delta" | "completed" | false {
    if (ev.type !== "thinking") return false;
    if (typeof ev.text === "string") this.text += ev.text;
    return ev.subtype === "completed" ? "completed" : "delta";
  }

  take(): string {
    const t = this.text;
    this.text = "";
    return t;
  }

  get empty(): boolean {
    return this.text === "";
  }
}
