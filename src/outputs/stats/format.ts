import type { PathList, SessionCost, SessionStats, StatsTotal, TokenUsage } from "./types.js";

/** `12,840`: digits grouped by three with commas, the same in every locale (never toLocaleString). */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const s = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 ? "-" + s : s;
}

/** `37 ms`, `2.40 s`, `3 min 05 s`, `1 h 02 min`: readable, from the logged milliseconds. */
export function formatDuration(ms: number): string {
  if (!(ms >= 1000)) return `${Math.round(ms)} ms`;
  if (ms < 59_995) return `${(ms / 1000).toFixed(2)} s`;
  const totalS = Math.round(ms / 1000);
  if (totalS < 3600) return `${Math.floor(totalS / 60)} min ${pad2(totalS % 60)} s`;
  const totalMin = Math.round(totalS / 60);
  return `${Math.floor(totalMin / 60)} h ${pad2(totalMin % 60)} min`;
}

/** A session's wall duration in words: `12.84 s`, `~1.20 s (estimated from timestamps)`, `unknown`. */
export function sessionDuration(s: SessionStats): string {
  // The result's field it lacks, as the agent names it; a format that states no duration (Codex) says so.
  const lacks = s.words.duration === undefined ? "the log states none" : `no ${s.words.duration}`;
  if (s.durationMs === undefined) return `unknown (${lacks}, fewer than two timestamps)`;
  const d = formatDuration(s.durationMs);
  return s.durationSource === "timestamps" ? `~${d} (estimated from timestamps, ${lacks})` : d;
}

/** The run's summed duration in words, saying what it covers. */
export function totalDuration(t: StatsTotal): string {
  if (t.durationMs === undefined) return `unknown for all ${t.sessions} sessions`;
  const parts = [`${formatDuration(t.durationMs)}, sum of ${t.durationSessions} of ${t.sessions} sessions`];
  if (t.durationEstimated > 0) parts.push(`${t.durationEstimated} estimated from timestamps`);
  return parts.join("; ");
}

/** `input 5,120, output 734, cache read 20,480, cache write 1,024`; a counter the log lacks says so. */
export function formatUsage(u: TokenUsage, sep = ", "): string {
  const n = (v: number | undefined) => (v === undefined ? "not in log" : formatCount(v));
  return [`input ${n(u.inputTokens)}`, `output ${n(u.outputTokens)}`, `cache read ${n(u.cacheReadTokens)}`, `cache write ${n(u.cacheWriteTokens)}`].join(sep);
}

/** The total's token line, with how many sessions it sums and how many repeats it skipped. */
export function totalUsage(t: StatsTotal, sep = ", "): string {
  if (t.usage === undefined) return "not in log";
  let s = `${formatUsage(t.usage, sep)} (${t.usageSessions} of ${t.sessions} sessions report usage`;
  if (t.usageRepeated > 0) s += `; ${t.usageRepeated} repeated request${t.usageRepeated === 1 ? "" : "s"} not added again`;
  return s + ")";
}

/** `$0.0558`: dollars to four places (a cent is 0.01), the exact figure in json. */
export function formatUsd(usd: number): string {
  return usd < 0 ? `-$${(-usd).toFixed(4)}` : `$${usd.toFixed(4)}`;
}

/** `$0.0558 (total_cost_usd: the session's so far)`. */
export function sessionCost(c: SessionCost): string {
  return `${formatUsd(c.usd)} (total_cost_usd: the session's so far)`; // as written: the result's field, named so the reader knows its scope
}

/** `claude-haiku-4-5: $0.0558, input 99, output 1,532, …`: one model's share of the session's cost (modelUsage). */
export function modelCost(m: SessionCost["models"][number], sep = ", "): string {
  return `${m.model}: ${m.usd === undefined ? "cost not in log" : formatUsd(m.usd)}${sep}${formatUsage(m.usage, sep)}`;
}

/** The total's cost: each session_id counted once, at its highest figure (it is cumulative), and how many sessions state one. */
export function totalCost(t: StatsTotal): string {
  const c = t.cost!;
  // as written: the result's field and the key its runs share, named so the reader knows what was added
  return `${formatUsd(c.usd)} (the highest total_cost_usd of each session_id, never added across its results: ${c.sessionIds} session_id${c.sessionIds === 1 ? "" : "s"}; ${c.runs} of ${t.sessions} sessions state a cost)`;
}

/** `finished`, `error (is_error: true)` (the agent's words: `error (turn.failed)`), `cut off: no result after line 9, 1 call still open`. */
export function outcomeText(s: SessionStats): string {
  const reason = s.terminalReason === undefined ? "" : `terminal_reason ${s.terminalReason}`; // as written: the result's field
  if (s.outcome === "finished") {
    const head = reason === "" ? "finished" : `finished (${reason})`;
    return s.agentMessage === undefined ? head : `${head}; the agent CLI said at line ${s.agentMessage.line}: ${s.agentMessage.text}`;
  }
  // The subtype only where the agent's result has one of its own (Gemini CLI's status is its failure words).
  if (s.outcome === "error") return `error (${s.words.failed}${s.resultSubtype === undefined || s.words.subtype === undefined ? "" : `, ${s.words.subtype} ${s.resultSubtype}`}${reason === "" ? "" : `, ${reason}`})`;
  const open = s.open.count;
  if (s.agentMessage !== undefined) {
    const m = s.agentMessage;
    const more = m.more === 0 ? "" : `, and ${m.more} more line${m.more === 1 ? "" : "s"}`;
    return `cut off: no result; the agent CLI said at line ${m.line}: ${m.text}${more}`;
  }
  return `cut off: no result, last event at line ${s.lastLine}, ${open === 0 ? "no" : open} call${open === 1 ? "" : "s"} still open`;
}

/** `18 ok, 1 failed, 2 refused` (zero bins left out); "" for no calls. */
export function callSummary(c: { ok: number; failed: number; refused: number; noResult: number; open: number }): string {
  const parts: string[] = [];
  if (c.ok > 0) parts.push(`${formatCount(c.ok)} ok`);
  if (c.failed > 0) parts.push(`${formatCount(c.failed)} failed`);
  if (c.refused > 0) parts.push(`${formatCount(c.refused)} refused`);
  if (c.noResult > 0) parts.push(`${formatCount(c.noResult)} without result`);
  if (c.open > 0) parts.push(`${formatCount(c.open)} open`);
  return parts.join(", ");
}

/** Calls on a path list: distinct paths kept plus those past the cap. */
export function pathCount(p: PathList): number {
  return p.paths.length + p.more;
}

function pad2(n: number): string {
  return n < 10 ? "0" + n : String(n);
}
