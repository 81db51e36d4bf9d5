import type { JsonObject } from "../../input/record.js";
import { isPlainObject } from "./types.js";

/**
 * Other agents' logs that look like cursor-agent's at a glance, recognised from a file's first
 * event: cursorlog would read them wrong in silence (no tool calls, messages glued together).
 * Returns the format's name, what gave it away and, for a format a dialect reads, that dialect's
 * agent (dialectFor then reads the file so: an event its dialect's own test leaves undecided, as a
 * Gemini CLI init without its timestamp, is still that agent's), or undefined for anything else.
 */
export function otherAgentFormat(ev: JsonObject): { name: string; sign: string; agent?: "claude" | "codex" | "gemini" } | undefined {
  // Codex `exec --json` up to Sept 2025 (0.21 to 0.46, AGENTS.md §2.1): `{"id", "msg": {"type", …}}`, no type of its own.
  if (!("type" in ev) && typeof ev.id === "string" && isPlainObject(ev.msg) && typeof ev.msg.type === "string") {
    return { name: "Codex exec --json of before Oct 2025", sign: `an event {id, msg} of msg.type ${ev.msg.type}` };
  }
  const type = ev.type;
  if (typeof type !== "string") return undefined;
  // Claude Code `--output-format stream-json`: its init lists the tools (cursor-agent's never does).
  if (type === "system" && ev.subtype === "init" && (Array.isArray(ev.tools) || Array.isArray(ev.mcp_servers) || typeof ev.claude_code_version === "string")) {
    return { name: "Claude Code stream-json", sign: "a system/init event with a tools list", agent: "claude" };
  }
  if (type === "assistant" && isPlainObject(ev.message) && Array.isArray(ev.message.content) && ev.message.content.some((b) => isPlainObject(b) && b.type === "tool_use")) {
    return { name: "Claude Code stream-json", sign: "an assistant message holding tool_use blocks", agent: "claude" };
  }
  if (type === "result" && "total_cost_usd" in ev) return { name: "Claude Code stream-json", sign: "a result with total_cost_usd", agent: "claude" };
  // Codex `exec --json`: dotted event types.
  if (type === "thread.started" || type === "turn.started" || type === "turn.completed" || type === "turn.failed" || type === "item.started" || type === "item.completed" || type === "item.updated") {
    return { name: "Codex exec --json", sign: `a ${type} event`, agent: "codex" };
  }
  // Gemini CLI `--output-format stream-json`: init, message, tool_use, tool_result, result with stats.
  if (type === "init" || type === "tool_use" || type === "tool_result" || (type === "message" && typeof ev.role === "string")) {
    return { name: "Gemini CLI stream-json", sign: `${type === "init" ? "an" : "a"} ${type} event`, agent: "gemini" };
  }
  if (type === "result" && isPlainObject(ev.stats) && !("session_id" in ev && "request_id" in ev)) {
    return { name: "Gemini CLI stream-json", sign: "a result with stats", agent: "gemini" };
  }
  return undefined;
}
