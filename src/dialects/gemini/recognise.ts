import type { JsonObject } from "../../input/record.js";
import { isoMs } from "../claude/lines.js";

/**
 * Whether a line is Gemini CLI's stream-json (AGENTS §3.1): its first line is `init` with an ISO
 * `timestamp` (`new Date().toISOString()`) and no `subtype` (cursor-agent's and Claude Code's
 * init are `system/init`); true for such a line, false for an `init` that is not it, undefined for
 * any other line (a file's first line decides: Gemini CLI always writes its init first, §3.2).
 */
export function recogniseGemini(ev: JsonObject): boolean | undefined {
  if (ev.type !== "init") return undefined;
  return !("subtype" in ev) && isoMs(ev.timestamp) !== undefined;
}
