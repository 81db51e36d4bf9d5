import type { JsonObject } from "../../input/record.js";
import { otherAgentFormat } from "../cursor/other-agents.js";
import { contentOf, isPlainObject } from "./lines.js";

/** `system` subtypes only Claude Code writes (AGENTS §1.2; cursor-agent's are `init`, `task_notification`, …). */
const CLAUDE_SYSTEM = new Set([
  "hook_started",
  "hook_response",
  "hook_progress",
  "commands_changed",
  "thinking_tokens",
  "status",
  "compact_boundary",
  "api_retry",
  "permission_denied",
  "task_started",
  "task_progress",
  "task_updated",
  "background_tasks_changed",
  "informational",
  "model_fallback",
  "model_refusal_fallback",
  "model_refusal_no_fallback",
]);

/** Line types only Claude Code writes. */
const CLAUDE_TYPES = new Set(["rate_limit_event", "tool_progress", "stream_event"]);

/** cursor-agent's own line types (FORMAT.md §2), none of them Claude Code's. */
const CURSOR_TYPES = new Set(["tool_call", "thinking", "connection", "retry", "interaction_query"]);

/**
 * Whether a line is Claude Code's stream-json (AGENTS §1.1): true for a line only it writes (an init
 * with `claude_code_version`, `tools[]` or `mcp_servers[]`; its hook, commands, task and other
 * system lines, which may come before the init; an assistant message `msg_…` or with tool_use or
 * thinking blocks; a user line answering tool_use blocks; a result with its cost or turns; a line
 * with `uuid` and `session_id`); false for a line that is another agent's (cursor-agent's own types
 * and fields, an init without a tools list; Codex and Gemini CLI; the look-alikes with Claude's
 * envelope: Qwen Code's `qwen_code_version` and Gemini tool names, Amp's `T-…` session ids);
 * undefined when the line cannot tell (a plain text message, an unknown type).
 */
export function recogniseClaude(ev: JsonObject): boolean | undefined {
  const type = ev.type;
  if (typeof type !== "string") return undefined;
  if (CURSOR_TYPES.has(type) || "timestamp_ms" in ev || "model_call_id" in ev) return false;
  // Another agent's shape, the look-alikes with Claude Code's envelope included (Qwen Code, Amp):
  // decided there, for dialectFor's fallback and the refusal alike.
  const other = otherAgentFormat(ev);
  if (other !== undefined && !other.name.startsWith("Claude Code")) return false;
  switch (type) {
    case "system":
      if (ev.subtype === "init") return Array.isArray(ev.tools) || Array.isArray(ev.mcp_servers) || typeof ev.claude_code_version === "string";
      if (typeof ev.subtype === "string" && CLAUDE_SYSTEM.has(ev.subtype)) return true;
      break;
    case "assistant": {
      const blocks = contentOf(ev);
      const msg = isPlainObject(ev.message) ? ev.message : undefined;
      if (msg !== undefined && ((typeof msg.id === "string" && msg.id.startsWith("msg_")) || msg.model === "<synthetic>")) return true;
      if (Array.isArray(blocks) && blocks.some((b) => isPlainObject(b) && (b.type === "tool_use" || b.type === "thinking"))) return true;
      break;
    }
    case "user": {
      const blocks = contentOf(ev);
      if (Array.isArray(blocks) && blocks.some((b) => isPlainObject(b) && b.type === "tool_result")) return true;
      break;
    }
    case "result":
      if ("total_cost_usd" in ev || "num_turns" in ev) return true;
      break;
    default:
      if (CLAUDE_TYPES.has(type)) return true;
  }
  return typeof ev.uuid === "string" && typeof ev.session_id === "string" ? true : undefined;
}
