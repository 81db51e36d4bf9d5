import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanStatus } from "@opentelemetry/api";
import type { InstrumentationScope } from "@opentelemetry/core";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { dialectOf } from "../../dialects/index.js";
import type { Run } from "../../model/run.js";
import type { RunCall, RunRecord } from "../shared/run-record.js";
import { requestIdOf, runKey, spanIdOf, traceIdOf } from "./ids.js";

export interface SpanOptions {
  /** `--include-content`: tool arguments and results, the prompt and the answer, as the conventions name them. */
  content: boolean;
  /** The resource of a run's spans (its `service.name`: given, else the run's agent's name). */
  resource: (run: Run) => Resource;
  scope: InstrumentationScope;
}

/**
 * The run's agent as the GenAI conventions name it (Dialect.genAi): `gen_ai.agent.name` and
 * `gen_ai.provider.name` (`cursor-agent`/`cursor`, `claude-code`/`anthropic`).
 */
export function genAiOf(run: Run): { agent: string; provider: string } {
  return dialectOf(run.agent)?.genAi ?? { agent: run.agent, provider: run.agent };
}

/**
 * The times OTLP can hold: its timestamps are unsigned 64-bit nanoseconds since the epoch
 * (fixed64), from 1970-01-01 to 2554-07-21T23:34:33.709Z in whole ms. A logged time outside (a
 * negative one, year 9999, 1e308) is no time: the export takes it as absent, as the run model
 * takes an unreadable one, so the file and the wire carry the same valid spans (run-stage.ts
 * says so once per run).
 */
export const OTLP_TIMES = {
  accept: (ms: number) => ms >= 0 && ms <= MAX_OTLP_MS,
  range: "OTLP can hold (1970-01-01T00:00:00Z to 2554-07-21T23:34:33.709Z)",
};
/** The last whole ms whose nanoseconds fit 64 bits (2^64 ns is 18446744073709.551616 ms). */
const MAX_OTLP_MS = 18_446_744_073_709;

/** A span's start and end, in ms since the epoch. */
interface Interval {
  start: number;
  end: number;
}

/**
 * The spans of one run: a root `invoke_agent <agent>` span (INTERNAL: `cursor-agent`,
 * `claude-code`), one `execute_tool <name>` span per tool call in start order, a child of the root
 * (a subagent's call, of the subagent's span under its task call, when the run holds that call),
 * under a subagent task a span `invoke_agent subagent`, and after a background shell's launch a
 * `background_shell` span up to the end of its task (a background subagent's span runs to its
 * task's end instead).
 *
 * Times are the run model's (ms): the root span runs from the run's start to its end (Run.start,
 * Run.end: the Chrome trace's run slice has the same), a call's span over its timing (Call.timing:
 * from its start to its end, never before its start). A call without a start is a zero-length span
 * at its end (`cursor.time.start_unknown`); a call without a time of its own is a zero-length span
 * at the latest time the log gave up to its line, else at the run's start (`cursor.time.absent`);
 * a call still open when the run ended runs to the root's end. A run with no time at all (2025
 * Cursor logs, Claude Code's before mid-2026, every Codex log) is placed at the Unix epoch, its
 * calls zero-length, 1 ns apart in start order (the nth call at n ns), its root from 0 to one ns
 * past the last so that it holds them (an order, not a duration), every span of it marked
 * `cursor.time.unknown`: durations are never made up (the export says so on stderr, once).
 */
export function runSpans(rec: RunRecord, opts: SpanOptions): ReadableSpan[] {
  const run = rec.run;
  const agent = genAiOf(run);
  const key = runKey(run);
  const traceId = traceIdOf(key);
  const rootId = spanIdOf(key, "root");
  const timed = isTimed(run);
  const root: Interval = timed ? { start: run.start!.ms, end: run.end!.ms } : { start: 0, end: (rec.calls.length + 1) * NS };
  const resource = opts.resource(run);
  const make = (name: string, spanId: string, parent: string | undefined, t: Interval, attributes: Attributes, status: SpanStatus): ReadableSpan =>
    span(name, traceId, spanId, parent, t, attributes, status, resource, opts.scope);
  const spans: ReadableSpan[] = [];
  spans.push(make(`invoke_agent ${agent.agent}`, rootId, undefined, root, rootAttributes(rec, agent, timed, opts.content), rootStatus(run)));

  /** The span a subagent's calls go under, by its task call's id: the subagent's span, else the task call's. */
  const subagents = new Map<string, string>();
  for (const c of rec.calls) {
    const id = spanIdOf(key, `call\u0000${c.id}\u0000${c.occurrence}`);
    const attrs = toolAttributes(c, opts.content);
    const open = c.status === "open";
    const startMs = c.timing.start?.ms;
    const endMs = c.timing.end?.ms;
    let parent = rootId;
    if (c.parentId !== undefined) {
      const under = subagents.get(c.parentId);
      if (under !== undefined) parent = under;
      else attrs["cursor.tool.parent_call_id"] = c.parentId; // its task call is not in the run: under the root, named
    }
    let t: Interval;
    if (!timed) {
      // No time in the run: its order only, marked on the call's span as on the root's.
      t = { start: c.seq * NS, end: c.seq * NS };
      attrs["cursor.time.unknown"] = true;
    } else {
      // No time of its own: at the latest time logged up to its line (else the run's start), zero-length.
      const start = startMs ?? endMs ?? c.lastLoggedMs ?? root.start;
      if (startMs === undefined) attrs["cursor.time.start_unknown"] = true;
      if (startMs === undefined && endMs === undefined) attrs["cursor.time.absent"] = true;
      // A span lasts the call's duration (Call.timing), or nothing: a start and an end from two
      // clocks, or out of order, give no duration (model/time.ts), and the span says so.
      const d = c.timing.durationMs;
      const end = open ? Math.max(root.end, start) : d !== undefined ? start + d : start;
      if (!open && d === undefined) attrs["cursor.time.end_unknown"] = true;
      t = { start, end };
    }
    spans.push(make(toolSpanName(c), id, parent, t, attrs, toolStatus(c)));
    if (c.kind === "task") subagents.set(c.id, id);
    // The end of the call's background task, when it has one (else the run's end).
    const part = c.backgroundTask !== undefined && timed && endMs !== undefined ? backgroundPart(c, t, root) : undefined;
    // A task that failed (invalid arguments, …) ran no subagent; one still open when the run ended did.
    if (c.kind === "task" && (open || c.status === "ok")) {
      const a = subagentAttributes(c, agent.provider);
      if (!timed) a["cursor.time.unknown"] = true;
      let st = t;
      if (part !== undefined) {
        // A background subagent runs on after its call completed: up to its task's end.
        st = { start: t.start, end: part.end };
        Object.assign(a, part.attributes);
      }
      const sid = spanIdOf(key, `subagent\u0000${c.id}\u0000${c.occurrence}`);
      spans.push(make("invoke_agent subagent", sid, id, st, a, { code: SpanStatusCode.UNSET }));
      subagents.set(c.id, sid);
    } else if (part !== undefined && c.kind === "shell") {
      const a: Attributes = { "cursor.shell.id": c.backgroundTask!, ...part.attributes };
      spans.push(make("background_shell", spanIdOf(key, `background\u0000${c.id}\u0000${c.occurrence}`), id, part, a, { code: SpanStatusCode.UNSET }));
    }
  }
  return spans;
}

/** The run has times: its start and its end (a run with neither is laid out at the epoch). */
export function isTimed(run: Run): boolean {
  return run.start !== undefined && run.end !== undefined;
}

/** A call's background part: from its completion (not before its span's start) to its task's end, else the run's end. */
function backgroundPart(c: RunCall, t: Interval, root: Interval): Interval & { attributes: Attributes } {
  const bg = c.background;
  const start = Math.max(c.timing.end!.ms, t.start);
  const end = bg?.at !== undefined ? Math.max(bg.at.ms, start) : Math.max(root.end, start);
  const a: Attributes = { "cursor.background.finished": bg !== undefined };
  if (bg?.status !== undefined) a["cursor.background.status"] = bg.status;
  if (bg !== undefined) a["cursor.log.line"] = bg.line;
  return { start, end, attributes: a };
}

function span(
  name: string,
  traceId: string,
  spanId: string,
  parent: string | undefined,
  t: Interval,
  attributes: Attributes,
  status: SpanStatus,
  resource: Resource,
  scope: InstrumentationScope,
): ReadableSpan {
  const ctx = { traceId, spanId, traceFlags: TraceFlags.SAMPLED };
  const s: ReadableSpan = {
    name,
    kind: SpanKind.INTERNAL,
    spanContext: () => ctx,
    startTime: hr(t.start),
    endTime: hr(t.end),
    status,
    attributes,
    links: [],
    events: [],
    duration: hr(t.end - t.start),
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  if (parent !== undefined) (s as { parentSpanContext?: unknown }).parentSpanContext = { traceId, spanId: parent, traceFlags: TraceFlags.SAMPLED };
  return s;
}

function rootAttributes(rec: RunRecord, agent: { agent: string; provider: string }, timed: boolean, content: boolean): Attributes {
  const run = rec.run;
  const a: Attributes = {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.provider.name": agent.provider,
    "gen_ai.agent.name": agent.agent,
  };
  if (run.sessionId !== undefined) a["gen_ai.conversation.id"] = run.sessionId;
  if (run.model !== undefined) a["gen_ai.request.model"] = run.model;
  const usage = run.usage;
  if (usage !== undefined) {
    const input = count(usage.inputTokens);
    const output = count(usage.outputTokens);
    const cacheRead = count(usage.cacheReadTokens);
    const cacheWrite = count(usage.cacheWriteTokens);
    // The conventions count cached tokens in input_tokens; Cursor's and Claude Code's input counts count neither kind.
    if (input !== undefined) a["gen_ai.usage.input_tokens"] = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    if (output !== undefined) a["gen_ai.usage.output_tokens"] = output;
    if (cacheRead !== undefined) a["gen_ai.usage.cache_read.input_tokens"] = cacheRead;
    if (cacheWrite !== undefined) a["gen_ai.usage.cache_creation.input_tokens"] = cacheWrite;
    if (input !== undefined) a["cursor.usage.input_tokens"] = input;
    // The span is the run: a usage of another scope (a thread's so far) says so.
    if (usage.scope !== "run") a["cursor.usage.scope"] = usage.scope;
  }
  const cost = run.cost;
  const usd = num(cost?.usd);
  if (cost !== undefined && usd !== undefined) {
    // As stated: the session's so far (Claude Code's total_cost_usd), never the run's alone.
    a["cursor.cost.usd"] = usd;
    a["cursor.cost.scope"] = cost.scope;
    if (cost.byModel !== undefined) a["cursor.cost.by_model"] = JSON.stringify(cost.byModel);
  }
  const r = run.stated;
  if (run.outcome === "cut-off") a["error.type"] = "incomplete";
  else if (run.outcome === "failed") a["error.type"] = r?.subtype !== undefined && r.subtype !== "" && r.subtype !== "success" ? r.subtype : "error";
  const requestId = requestIdOf(run);
  if (requestId !== undefined) a["cursor.request.id"] = requestId;
  if (run.cwd !== undefined) a["cursor.cwd"] = run.cwd;
  if (run.permissionMode !== undefined) a["cursor.permission_mode"] = run.permissionMode;
  if (r !== undefined) {
    if (r.subtype !== undefined) a["cursor.result.subtype"] = r.subtype;
    const d = num(r.durationMs);
    if (d !== undefined) a["cursor.duration_ms"] = d;
    const api = num(r.apiDurationMs);
    if (api !== undefined) a["cursor.duration_api_ms"] = api;
  }
  a["cursor.tool_calls"] = rec.calls.length;
  a["cursor.log.file"] = run.file;
  a["cursor.log.first_line"] = run.startLine;
  a["cursor.log.last_line"] = run.lastLine;
  if (!timed) a["cursor.time.unknown"] = true;
  if (content) {
    if (run.prompt !== undefined) a["gen_ai.input.messages"] = JSON.stringify([{ role: "user", parts: [{ type: "text", content: run.prompt }] }]);
    if (r?.text !== undefined) {
      // The result's own text (the answer the agent returned).
      a["gen_ai.output.messages"] = JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: r.text }] }]);
    }
  }
  return a;
}

function rootStatus(run: Run): SpanStatus {
  if (run.outcome === "cut-off" || run.outcome === "running") return { code: SpanStatusCode.ERROR, message: "the log ends before the run's result" };
  // The agent's own words for how its log said so (Run.words): `is_error: true`, `turn.failed`.
  if (run.outcome === "failed") return { code: SpanStatusCode.ERROR, message: `the run failed (${run.words.failed})` };
  return { code: SpanStatusCode.UNSET };
}

/** MCP calls are named by the MCP tool; Cursor's own tools by their short kind (shell, read, edit, …). */
function toolName(c: RunCall): string {
  if (c.kind === "mcp") return c.mcp?.tool ?? "mcp";
  return c.kind;
}

function toolSpanName(c: RunCall): string {
  return `execute_tool ${toolName(c)}`;
}

function toolAttributes(c: RunCall, content: boolean): Attributes {
  const a: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": toolName(c),
    "gen_ai.tool.call.id": c.id,
    // MCP tools are run by a server the agent calls (an extension); Cursor's own tools by the agent itself.
    "gen_ai.tool.type": c.kind === "mcp" ? "extension" : "function",
  };
  // The agent's own word for the outcome (Call.arm), as written; `incomplete` for a call left open;
  // for an agent that writes no word (Claude Code's ok and failed calls), the model's (CallStatus).
  const status = statusWord(c);
  if (status !== undefined && status !== "success" && c.status !== "ok") a["error.type"] = status;
  if (c.kind === "shell" && c.status !== "open") {
    if (c.exitStatus !== undefined && Number.isSafeInteger(c.exitStatus)) a["process.exit.code"] = c.exitStatus;
    if (c.signal !== undefined) a["cursor.shell.signal"] = c.signal;
  }
  if (c.kind === "shell" && c.backgroundTask !== undefined) {
    a["cursor.shell.background"] = true;
    a["cursor.shell.id"] = c.backgroundTask;
  }
  if (c.kind === "mcp") {
    a["mcp.method.name"] = "tools/call";
    const server = c.mcp?.server;
    if (server !== undefined) a["cursor.mcp.server"] = server;
  }
  if (c.kind === "task") a["cursor.task.subagent"] = true;
  a["cursor.tool.kind"] = c.tool;
  a["cursor.tool.action"] = c.label;
  if (status !== undefined) a["cursor.tool.status"] = status;
  a["cursor.tool.seq"] = c.seq;
  // The span ends when the call's whole batch ended, not the call itself (Gemini CLI's, model/time.ts `batch`).
  if (c.timing.end?.from === "batch") a["cursor.tool.end_source"] = "batch";
  if (c.responseId !== undefined) a["cursor.model_call_id"] = c.responseId; // as written: the attribute is named after the CLI's field
  const line = c.startLine ?? c.endLine;
  if (line !== undefined) a["cursor.log.line"] = line;
  if (content) {
    if (c.target !== "") a["cursor.tool.target"] = c.target;
    if (c.args !== undefined) a["gen_ai.tool.call.arguments"] = JSON.stringify(c.args);
    if (c.status !== "open" && c.outcome !== undefined) a["gen_ai.tool.call.result"] = JSON.stringify(c.outcome);
    // A failure that logged no outcome object (Claude Code's: an error string): what it said, as a JSON string.
    else if (c.failure !== undefined) a["gen_ai.tool.call.result"] = JSON.stringify(c.failure);
  }
  return a;
}

/** The agent's word for the call's outcome (Call.arm), else the model's bin (`ok`, `failed`, …); `incomplete` for a call left open; none for a completion without outcome. */
function statusWord(c: RunCall): string | undefined {
  if (c.status === "open") return "incomplete";
  return c.arm ?? (c.status === "no-result" ? undefined : c.status);
}

/** ok, and a completion with no result arm (no outcome to call an error): UNSET; any other completion: ERROR, with why. */
function toolStatus(c: RunCall): SpanStatus {
  if (c.status === "open") return { code: SpanStatusCode.ERROR, message: "the run ended before the call completed" };
  if (c.status === "ok" || c.status === "no-result") return { code: SpanStatusCode.UNSET };
  return { code: SpanStatusCode.ERROR, message: c.note };
}

function subagentAttributes(c: RunCall, provider: string): Attributes {
  const s = c.subagent;
  const a: Attributes = { "gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": provider, "gen_ai.agent.name": "subagent" };
  if (s?.agentId !== undefined) a["gen_ai.agent.id"] = s.agentId;
  if (s?.model !== undefined) a["gen_ai.request.model"] = s.model;
  if (s?.background !== undefined) a["cursor.task.background"] = s.background;
  if (s?.durationMs !== undefined) a["cursor.task.duration_ms"] = s.durationMs;
  return a;
}

/** One nanosecond, in ms: the step between calls of a run without times. */
const NS = 1e-6;

/** Milliseconds since the epoch as [seconds, nanoseconds] (times stay in ms: epoch ms times 1e6 would pass 2^53). */
function hr(ms: number): HrTime {
  const s = Math.floor(ms / 1000);
  return [s, Math.round((ms - s * 1000) * 1e6)];
}

/**
 * A number for an attribute: finite, and if whole, within ±2^53 (an attribute's whole number is
 * an int64, and OTLP/JSON writes it as a JSON number: past 2^53 it would not be read back, past
 * 2^63 not be one).
 */
function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && (!Number.isInteger(v) || Math.abs(v) <= Number.MAX_SAFE_INTEGER) ? v : undefined;
}

function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}
