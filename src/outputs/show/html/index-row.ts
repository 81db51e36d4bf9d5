import { formatUsd } from "../../stats/format.js";
import type { SessionFoot, SessionHead } from "../render.js";

/** The columns of index.html, as `cursorlog runs` has them. */
export const INDEX_COLUMNS = ["file", "agent", "session", "model", "start", "outcome", "duration", "calls", "failed", "tokens", "cost"] as const;

/** One run's row of index.html: raw text per column ("" when the log does not hold it; the page escapes). */
export type IndexRow = Record<(typeof INDEX_COLUMNS)[number], string>;

/** How the index names each agent (model/run.ts AgentId). */
const AGENTS: Record<string, string> = { cursor: "cursor-agent", claude: "claude-code", codex: "codex", gemini: "gemini" };

/**
 * A run's row, from what show's header and footer give (SessionHead, SessionFoot). Kept apart so
 * that `cursorlog runs`' own row (its runRow) can take its place. Nothing is guessed: a fact the
 * log does not hold is "".
 */
export function indexRow(h: SessionHead, f: SessionFoot): IndexRow {
  const c = f.calls;
  return {
    file: `${h.file}:${h.line}`,
    agent: h.agent === undefined ? "" : (AGENTS[h.agent] ?? h.agent),
    session: h.sessionId ?? "",
    model: h.model ?? "",
    start: h.started ?? "",
    // runs' words (src/outputs/runs): failed (the result says so), error (no result, the agent CLI said why), cut off.
    outcome: f.outcome === "error" ? "failed" : f.outcome === "unfinished" ? (f.said !== undefined ? "error" : "cut off") : "finished",
    duration: f.duration ?? "",
    calls: String(c.ok + c.failed + c.refused + c.noResult + c.background + f.open.length),
    failed: String(c.failed),
    tokens: f.tokens ?? "",
    cost: f.costUsd === undefined ? "" : formatUsd(f.costUsd),
  };
}
