import type { JsonObject } from "../../input/record.js";
import { isPlainObject } from "./types.js";

/** Gemini CLI's tool names (AGENTS §3.3), which Qwen Code's Claude-like stream calls its tools by (AGENTS §1.1). */
const GEMINI_TOOLS = new Set(["read_file", "read_many_files", "write_file", "run_shell_command", "list_directory", "grep_search", "search_file_content", "web_fetch", "google_web_search", "write_todos"]);

/**
 * The look-alikes of Claude Code's stream-json (AGENTS §1.1): its envelope (an init listing
 * `tools`, assistant lines of `tool_use` blocks), another agent's marks: Qwen Code's
 * `qwen_code_version` and Gemini CLI's tool names, Amp's `T-…` session ids. No dialect reads them:
 * checked before Claude Code's own shapes, so that neither recogniseClaude nor dialectFor's
 * fallback takes them for Claude Code's, and the refusal names them.
 */
function claudeLookAlike(ev: JsonObject, type: string): { name: string; sign: string } | undefined {
  const what = type === "system" && typeof ev.subtype === "string" ? `system/${ev.subtype}` : type;
  if ("qwen_code_version" in ev) return { name: "Qwen Code stream-json", sign: `a ${what} event with qwen_code_version` };
  if (typeof ev.session_id === "string" && ev.session_id.startsWith("T-")) return { name: "Amp stream-json", sign: `a ${what} event with a session id T-…` };
  if (type === "assistant" && isPlainObject(ev.message) && Array.isArray(ev.message.content)) {
    for (const b of ev.message.content) {
      if (isPlainObject(b) && b.type === "tool_use" && typeof b.name === "string" && GEMINI_TOOLS.has(b.name)) {
        return { name: "Qwen Code stream-json", sign: `an assistant message calling ${b.name}, a Gemini CLI tool name` };
      }
    }
  }
  return undefined;
}

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
  const lookAlike = claudeLookAlike(ev, type);
  if (lookAlike !== undefined) return lookAlike;
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
