import type { JsonObject } from "../../input/record.js";
import { isPlainObject } from "./items.js";

/** Codex's dotted event types (AGENTS §2.2; the last two in the vendor's source only). */
const CODEX_TYPES = new Set(["thread.started", "turn.started", "turn.completed", "turn.failed", "item.started", "item.updated", "item.completed", "item.plan.delta", "request_user_input"]);

/**
 * Whether a line is Codex's `exec --json` (AGENTS §2.1): true for its dotted types
 * (`thread.started`, `turn.*`, `item.*`: an item event holds an `item` object), and for its bare
 * `error` event (`{type: "error", message}`, nothing else: Gemini CLI's `error` has a `timestamp`
 * and a `severity`); false for any other typed line; undefined for a line with no string type.
 */
export function recogniseCodex(ev: JsonObject): boolean | undefined {
  const type = ev.type;
  if (typeof type !== "string") return undefined;
  if (CODEX_TYPES.has(type)) return !type.startsWith("item.") || type === "item.plan.delta" || isPlainObject(ev.item);
  if (type === "error") return typeof ev.message === "string" && !("timestamp" in ev) && !("severity" in ev) && !("session_id" in ev);
  return false;
}
