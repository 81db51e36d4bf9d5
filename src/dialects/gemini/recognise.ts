import type { JsonObject } from "../../input/record.js";
import { isoMs } from "../claude/lines.js";

/**
 * Whether a line is Gemini CLI's stream-json (AGENTS §3.1, §3.2): every line is `type` (six
 * unprefixed words), an ISO `timestamp` (`new Date().toISOString()`) and no `subtype`
 * (cursor-agent's and Claude Code's init are `system/init`; their results have a subtype;
 * cursor-agent's times are `timestamp_ms`). True for an `init` so made (the first line Gemini CLI
 * writes), and for its other lines so made when a file begins with one (a capture cut at its
 * start): a `message` with a `role`, a `tool_use` or `tool_result` with a `tool_id`, an `error`
 * with a `severity`, a `result` with a `status`; false for an `init` that is not Gemini CLI's;
 * undefined for any other line.
 */
export function recogniseGemini(ev: JsonObject): boolean | undefined {
  const type = ev.type;
  if (type === "init") return !("subtype" in ev) && isoMs(ev.timestamp) !== undefined;
  if ("subtype" in ev || isoMs(ev.timestamp) === undefined) return undefined;
  switch (type) {
    case "message":
      return typeof ev.role === "string" ? true : undefined;
    case "tool_use":
    case "tool_result":
      return typeof ev.tool_id === "string" ? true : undefined;
    case "error":
      return typeof ev.severity === "string" ? true : undefined;
    case "result":
      return typeof ev.status === "string" ? true : undefined;
    default:
      return undefined;
  }
}
