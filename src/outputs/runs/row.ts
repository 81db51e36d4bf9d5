import type { Run } from "../../model/run.js";
import type { SessionStats } from "../stats/types.js";
import type { RunRow, RunsOutcome } from "./columns.js";

/** ±8.64e15 ms is the range of a JS Date. */
const MAX_DATE_MS = 8.64e15;

/** `new Date(ms).toISOString()`, or undefined for an unknown or out-of-range time. */
export function isoOf(ms: number | undefined): string | undefined {
  return ms === undefined || !(Math.abs(ms) <= MAX_DATE_MS) ? undefined : new Date(Math.trunc(ms)).toISOString();
}

/**
 * A finished run's row: stats' summary of it (SessionStats, from statsSink) and the run itself
 * (Run: its agent, times, failure). Nothing is invented: a value the log does not hold is
 * undefined. Strings are as logged (each format escapes or cuts them).
 *
 * - outcome: the model's (Run.outcome): `finished`, `failed` (the result says the run failed);
 *   a run without a result is `error` when the agent CLI wrote its own text in it (Run.said: its
 *   stderr merged into the log, which tells why it stopped), else `cut_off`.
 * - message: a failed run's failure (the agent's result text), else the agent CLI's own text
 *   (Run.said, its first line of it), else undefined.
 * - duration: the result's own figure (source `result`), else end − start of the times the log
 *   gives (source `timestamps`), else undefined (stats' rule).
 * - tokens: the usage the model holds (the result's; Codex's: the thread's so far, usage_scope
 *   `thread`), never the agent's per-message repeats; cost: the result's total_cost_usd (Claude
 *   Code), the session's so far.
 */
export function runRow(s: SessionStats, run: Run): RunRow {
  const usage = s.usage;
  return {
    file: s.file,
    line: s.firstLine,
    agent: run.agent,
    session_id: s.sessionId,
    model: s.model,
    started_at: isoOf(run.start?.ms),
    outcome: outcomeOf(run),
    duration_ms: s.durationMs,
    duration_source: s.durationSource,
    calls: s.calls.calls,
    failed_calls: s.calls.failed,
    input_tokens: usage?.inputTokens,
    output_tokens: usage?.outputTokens,
    cache_read_tokens: usage?.cacheReadTokens,
    cache_write_tokens: usage?.cacheWriteTokens,
    usage_scope: usage === undefined ? undefined : (s.usageScope ?? "run"),
    cost_usd: s.cost?.usd,
    message: messageOf(run),
    last_line: s.lastLine,
    ended_at: isoOf(run.end?.ms),
    refused_calls: s.calls.refused,
    open_calls: s.calls.open,
    prompt: s.prompt,
  };
}

function outcomeOf(run: Run): RunsOutcome {
  switch (run.outcome) {
    case "finished":
      return "finished";
    case "failed":
      return "failed";
    default:
      return run.said !== undefined ? "error" : "cut_off";
  }
}

function messageOf(run: Run): string | undefined {
  if (run.outcome === "failed" && run.failure !== undefined && run.failure !== "") return run.failure;
  return run.said?.text;
}
