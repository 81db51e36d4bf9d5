import type { JsonObject } from "../../input/record.js";
import { RunText } from "../../model/text.js";
import { isAssistant, isToolCall, messageText } from "./types.js";

/**
 * An assistant line of `--stream-partial-output` that is a delta (FORMAT.md §4): it carries a
 * finite `timestamp_ms` and no `model_call_id`; the consolidated event (with `model_call_id`, or
 * with neither field) repeats the segment the deltas streamed. The reader's rule (Step.text.delta).
 */
export function isDelta(ev: JsonObject): boolean {
  const ts = ev.timestamp_ms;
  return typeof ts === "number" && Number.isFinite(ts) && typeof ev.model_call_id !== "string";
}

/**
 * The library's reader of a session's assistant text over raw events (exported since before the
 * run model): the model's one rule (RunText) fed by the dialect's (isDelta). Outputs read RunText
 * over the driver's Steps instead.
 */
export class AssistantText {
  private readonly t = new RunText();

  observe(ev: JsonObject): void {
    if (isAssistant(ev)) this.t.piece(messageText(ev), isDelta(ev));
    else if (isToolCall(ev)) this.t.call();
  }

  /** All assistant text of the session: what `result.result` holds for a finished run. */
  text(): string {
    return this.t.text();
  }

  /** The last message: the text written after the last tool call. */
  finalMessage(): string {
    return this.t.finalMessage();
  }
}
