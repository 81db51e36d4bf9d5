import type { CallCounts, KindCounts, Listed, PathList, SessionCost, ShellExit, StatsCall, StatsRenderer, TokenUsage } from "./types.js";
import { INVISIBLE } from "../../sanitize.js";

/** Characters JSON allows raw but a terminal should not get: C1 controls, DEL, the invisible ones (bidi, zero-width, LS/PS). */
const TERMINAL_UNSAFE_G = new RegExp(`[\\u007f-\\u009f${INVISIBLE}]`, "g");

/**
 * `cursorlog stats --format json`: NDJSON, one `{"type":"session",…}` object per session as it
 * ends, then one `{"type":"total",…}` (always, even for one session or none). Keys in a fixed
 * order, snake_case; numbers are numbers; what the log does not say is null, never 0. Strings are
 * the log's own, with the characters above written as \u escapes (the same string once parsed).
 */
export function toStatsJson(): StatsRenderer {
  return {
    session(s) {
      return line({
        type: "session",
        index: s.index,
        file: s.file,
        first_line: s.firstLine,
        last_line: s.lastLine,
        session_id: s.sessionId ?? null,
        request_id: s.requestId ?? null,
        model: s.model ?? null,
        prompt: s.prompt ?? null,
        outcome: s.outcome,
        result_subtype: s.resultSubtype ?? null,
        // Keys only some agents' logs state are written where stated (a cursor-agent session's object is as before).
        ...(s.terminalReason === undefined ? {} : { terminal_reason: s.terminalReason }), // as written: the result's field, its name kept
        agent_message: s.agentMessage === undefined ? null : { line: s.agentMessage.line, text: s.agentMessage.text, more_lines: s.agentMessage.more },
        // Where the agent CLI wrote warnings into the stream (Gemini CLI's, Codex's): a cursor-agent session's object is as before.
        ...(s.warnings.count === 0 ? {} : { warnings: listed(s.warnings, (w) => ({ line: w.line, severity: w.severity ?? null, text: w.text })) }),
        duration_ms: s.durationMs ?? null,
        duration_source: s.durationSource ?? null,
        usage: s.usage === undefined ? null : usage(s.usage),
        ...(s.cost === undefined ? {} : { cost: cost(s.cost) }),
        calls: calls(s.calls),
        ...(s.subagentCalls === 0 ? {} : { subagent_calls: s.subagentCalls }),
        failed_calls: listed(s.failed, call),
        rejected_calls: listed(s.rejected, call),
        slowest_calls: s.slowest.map(call),
        shell_failures: listed(s.shellExits, shellExit),
        files: { read: paths(s.files.read), created: paths(s.files.created), edited: paths(s.files.edited), deleted: paths(s.files.deleted) },
        open_calls: listed(s.open, call),
        background_tasks: {
          count: s.background.count,
          ended: s.background.ended,
          items: s.background.items.map((b) => ({ line: b.line, task_id: b.taskId, command: b.command, status: b.status ?? null, end_line: b.endLine ?? null, duration_ms: b.durationMs ?? null })), // as written: the key stats has always printed
        },
      });
    },
    total(t) {
      return line({
        type: "total",
        sessions: t.sessions,
        finished: t.finished,
        error: t.errors,
        cut_off: t.cutOff,
        duration_ms: t.durationMs ?? null,
        duration_sessions: t.durationSessions,
        duration_estimated: t.durationEstimated,
        usage: t.usage === undefined ? null : usage(t.usage),
        usage_sessions: t.usageSessions,
        usage_repeated: t.usageRepeated,
        ...(t.cost === undefined ? {} : { cost: { usd: t.cost.usd, session_ids: t.cost.sessionIds, sessions: t.cost.runs } }),
        calls: calls(t.calls),
        ...(t.subagentCalls === 0 ? {} : { subagent_calls: t.subagentCalls }),
        failed_calls: t.failed,
        rejected_calls: t.rejected,
        shell_failures: t.shellExits,
        background_tasks: t.background,
        background_ended: t.backgroundEnded,
        files: { read: t.files.read, created: t.files.created, edited: t.files.edited, deleted: t.files.deleted },
      });
    },
  };
}

function line(o: object): string {
  return JSON.stringify(o).replace(TERMINAL_UNSAFE_G, (ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0")) + "\n";
}

function usage(u: TokenUsage): object {
  return {
    input_tokens: u.inputTokens ?? null,
    output_tokens: u.outputTokens ?? null,
    cache_read_tokens: u.cacheReadTokens ?? null,
    cache_write_tokens: u.cacheWriteTokens ?? null,
  };
}

/** The session's cost as stated (scope: the session so far), by model as stated; a count not stated is null. */
function cost(c: SessionCost): object {
  return { usd: c.usd, scope: "session", by_model: Object.fromEntries(c.models.map((m) => [m.model, { usd: m.usd ?? null, ...usage(m.usage) }])) };
}

function counts(k: KindCounts): object {
  return { calls: k.calls, ok: k.ok, failed: k.failed, refused: k.refused, no_result: k.noResult, open: k.open };
}

/** by_kind and by_status are objects (jq: `.calls.by_kind.shell.failed`); fromEntries keeps a "__proto__" kind as data. */
function calls(c: CallCounts): object {
  return {
    total: c.calls,
    ok: c.ok,
    failed: c.failed,
    refused: c.refused,
    no_result: c.noResult,
    open: c.open,
    by_kind: Object.fromEntries(c.byKind.map(([kind, k]) => [kind, counts(k)])),
    by_status: Object.fromEntries(c.byStatus),
  };
}

function call(c: StatsCall): object {
  return {
    line: c.line,
    kind: c.kind,
    action: c.action,
    target: c.target === "" ? null : c.target,
    status: c.status === "" ? null : c.status,
    note: c.note === "" ? null : c.note,
    duration_ms: c.durationMs ?? null,
  };
}

function shellExit(x: ShellExit): object {
  return { line: x.line, command: x.command, exit_code: x.exitStatus ?? null, signal: x.signal ?? null };
}

function listed<T>(l: Listed<T>, f: (item: T) => object): object {
  return { count: l.count, items: l.items.map(f) };
}

function paths(p: PathList): object {
  return { paths: p.paths, more: p.more };
}
