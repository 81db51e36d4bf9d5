import { CallTally } from "./tally.js";
import type { SessionStats, StatsTotal, TokenUsage } from "./types.js";

/** Requests remembered to keep usage from being added twice; past this, no more are remembered. */
const MAX_REQUESTS = 100_000;

/**
 * The run's total, a reducer over finished session reports. Token usage is added once per
 * (session_id, request_id), or where the result has no request_id, once per (session_id, the
 * result line's own id: Claude Code's uuid): the same request logged twice (a log passed twice, a
 * capture concatenated with its copy) is counted once and reported as repeated. A session with
 * neither is always added. A cost (Claude Code's `total_cost_usd`) is the session's so far:
 * each session is counted once, at the highest figure its runs state (addCost), never summed
 * across the runs of one session. A usage whose scope is the thread so far (Codex's: cumulative over
 * a thread's resumed runs) is likewise counted once per thread, at its run with the most tokens.
 */
export class StatsTotalAcc {
  private sessions = 0;
  private finished = 0;
  private errors = 0;
  private cutOff = 0;
  private durationMs = 0;
  private durationSessions = 0;
  private durationEstimated = 0;
  private usage: TokenUsage | undefined;
  private usageSessions = 0;
  private usageRepeated = 0;
  private readonly seen = new Set<string>();
  private readonly tally = new CallTally();
  private subagentCalls = 0;
  /** The highest cost stated in each session (a session's cost is cumulative: never added across its runs). */
  private readonly costs = new Map<string, number>();
  /** Costs added as they are: runs without a session_id, and sessions past MAX_REQUESTS. */
  private looseCost = 0;
  private looseCostRuns = 0;
  private costRuns = 0;
  private failed = 0;
  private rejected = 0;
  private shellExits = 0;
  private shellCalls = 0;
  private shellExitsKnown = 0;
  private background = 0;
  private backgroundEnded = 0;
  private readonly files = { read: 0, created: 0, edited: 0, deleted: 0 };
  /** The usage of each thread at its run with the most tokens (a thread's usage is cumulative: never added across its runs). */
  private readonly threads = new Map<string, TokenUsage>();

  add(s: SessionStats): void {
    this.sessions++;
    if (s.outcome === "finished") this.finished++;
    else if (s.outcome === "error") this.errors++;
    else this.cutOff++;
    if (s.durationMs !== undefined) {
      this.durationMs += s.durationMs;
      this.durationSessions++;
      if (s.durationSource === "timestamps") this.durationEstimated++;
    }
    if (s.usage !== undefined) this.addUsage(s);
    this.tally.merge(s.calls);
    this.subagentCalls += s.subagentCalls;
    if (s.cost !== undefined) this.addCost(s.sessionId, s.cost.usd);
    this.failed += s.failed.count;
    this.rejected += s.rejected.count;
    this.shellExits += s.shellExits.count;
    this.shellCalls += s.shellCalls;
    this.shellExitsKnown += s.shellExitsKnown;
    this.background += s.background.count;
    this.backgroundEnded += s.background.ended;
    for (const op of ["read", "created", "edited", "deleted"] as const) this.files[op] += s.files[op].paths.length + s.files[op].more;
  }

  report(): StatsTotal {
    return {
      sessions: this.sessions,
      finished: this.finished,
      errors: this.errors,
      cutOff: this.cutOff,
      durationMs: this.durationSessions > 0 ? this.durationMs : undefined,
      durationSessions: this.durationSessions,
      durationEstimated: this.durationEstimated,
      usage: this.totalUsage(),
      usageSessions: this.usageSessions,
      usageRepeated: this.usageRepeated,
      cost: this.costRuns === 0 ? undefined : { usd: this.totalCost(), sessionIds: this.costs.size + this.looseCostRuns, runs: this.costRuns },
      calls: this.tally.report(),
      subagentCalls: this.subagentCalls,
      failed: this.failed,
      rejected: this.rejected,
      shellExits: this.shellExits,
      shellCalls: this.shellCalls,
      shellExitsKnown: this.shellExitsKnown,
      background: this.background,
      backgroundEnded: this.backgroundEnded,
      files: { ...this.files },
    };
  }

  /** A run's cost: the session's so far, so a session counts once, at its highest. */
  private addCost(sessionId: string | undefined, usd: number): void {
    this.costRuns++;
    if (sessionId !== undefined && (this.costs.has(sessionId) || this.costs.size < MAX_REQUESTS)) {
      const before = this.costs.get(sessionId);
      if (before === undefined || usd > before) this.costs.set(sessionId, usd);
      return;
    }
    this.looseCost += usd;
    this.looseCostRuns++;
  }

  /** The sum of each session's highest cost (in the order first seen: the same input, the same sum), and the loose ones. */
  private totalCost(): number {
    let sum = 0;
    for (const usd of this.costs.values()) sum += usd;
    return sum + this.looseCost;
  }

  /** The runs' usage added, and each thread's highest. */
  private totalUsage(): TokenUsage | undefined {
    let t = this.usage === undefined ? undefined : { ...this.usage };
    for (const u of this.threads.values()) t = addTo(t, u);
    return t;
  }

  private addUsage(s: SessionStats): void {
    const thread = s.sessionId;
    if (s.usageScope === "thread" && thread !== undefined && (this.threads.has(thread) || this.threads.size < MAX_REQUESTS)) {
      const u = s.usage as TokenUsage;
      const before = this.threads.get(thread);
      if (before === undefined || tokens(u) > tokens(before)) this.threads.set(thread, u);
      this.usageSessions++;
      return;
    }
    // cursor-agent's request_id; else the result line's own id (Claude Code's uuid).
    const id = s.requestId ?? (s.resultLineId === undefined ? undefined : `line\u0000${s.resultLineId}`);
    if (id !== undefined) {
      const key = `${s.sessionId ?? ""}\u0000${id}`;
      if (this.seen.has(key)) {
        this.usageRepeated++;
        return;
      }
      if (this.seen.size < MAX_REQUESTS) this.seen.add(key);
    }
    this.usage = addTo(this.usage, s.usage as TokenUsage);
    this.usageSessions++;
  }
}

/** `u` added to `t` (a new total when `t` is undefined), key by key. */
function addTo(t: TokenUsage | undefined, u: TokenUsage): TokenUsage {
  const out = t ?? { inputTokens: undefined, outputTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined };
  out.inputTokens = plus(out.inputTokens, u.inputTokens);
  out.outputTokens = plus(out.outputTokens, u.outputTokens);
  out.cacheReadTokens = plus(out.cacheReadTokens, u.cacheReadTokens);
  out.cacheWriteTokens = plus(out.cacheWriteTokens, u.cacheWriteTokens);
  return out;
}

/** Input and output tokens of a usage, the unstated as 0: which of a thread's runs states the most. */
function tokens(u: TokenUsage): number {
  return (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
}

/** A sum where undefined means "not in the log": it never turns into 0. */
function plus(a: number | undefined, b: number | undefined): number | undefined {
  return b === undefined ? a : (a ?? 0) + b;
}
