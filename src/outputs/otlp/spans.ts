import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanStatus } from "@opentelemetry/api";
import type { InstrumentationScope } from "@opentelemetry/core";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { actionLabel, actionTarget, statusNote } from "../../dialects/cursor/action.js";
import type { JsonObject } from "../../input/record.js";
import type { RunCall, RunRecord } from "../shared/run-record.js";
import { runKey, spanIdOf, traceIdOf } from "./ids.js";

/** Names from the OpenTelemetry GenAI semantic conventions (development status), and our `cursor.` ones. */
export const PROVIDER = "cursor";
export const AGENT = "cursor-agent";

export interface SpanOptions {
  /** `--include-content`: tool arguments and results, the prompt and the answer, as the conventions name them. */
  content: boolean;
  resource: Resource;
  scope: InstrumentationScope;
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
 * The spans of one run: a root `invoke_agent cursor-agent` span (INTERNAL), one child
 * `execute_tool <name>` span per tool call in start order, under a subagent task a span
 * `invoke_agent subagent`, and after a background shell's launch a `background_shell` span up to
 * the task_notification that ended it.
 *
 * Times (ms, as logged): a call runs from startedAtMs to completedAtMs, else from its started
 * event's timestamp_ms to its completed event's. The root span ends at the run's last logged time
 * and starts at its first, or earlier when the result's duration_ms says the run began before its
 * first logged time (the init and user events carry none). A call without a logged start is a
 * zero-length span at its end (`cursor.time.start_unknown`); a call still open when the run ended
 * runs to the root's end. A run with no time at all (2025 logs) is placed at the Unix epoch, its
 * calls zero-length, 1 ns apart in start order (`cursor.time.unknown`): durations are never made up.
 */
export function runSpans(run: RunRecord, opts: SpanOptions): ReadableSpan[] {
  const key = runKey(run);
  const traceId = traceIdOf(key);
  const rootId = spanIdOf(key, "root");
  const timed = run.firstMs !== undefined && run.lastMs !== undefined;
  const result = run.result;
  const durationMs = num(result?.duration_ms);
  let root: Interval;
  if (timed) {
    let start = run.firstMs!;
    const end = run.lastMs!;
    // (Not before the epoch: a duration longer than the time since is no start OTLP can hold.)
    if (durationMs !== undefined && durationMs >= 0 && end - durationMs < start && end - durationMs >= 0) start = end - durationMs;
    root = { start: start, end: end };
  } else {
    root = { start: 0, end: (run.calls.length + 1) * NS };
  }
  const make = (name: string, spanId: string, parent: string | undefined, t: Interval, attributes: Attributes, status: SpanStatus): ReadableSpan =>
    span(name, traceId, spanId, parent, t, attributes, status, opts);
  const spans: ReadableSpan[] = [];
  spans.push(make(`invoke_agent ${AGENT}`, rootId, undefined, root, rootAttributes(run, timed, opts.content), rootStatus(run)));

  let prevStart = root.start;
  for (const c of run.calls) {
    const id = spanIdOf(key, `call\u0000${c.callId}\u0000${c.occurrence}`);
    const attrs = toolAttributes(c, opts.content);
    let t: Interval;
    if (!timed) {
      t = { start: c.seq * NS, end: c.seq * NS };
    } else {
      const startMs = c.startMs ?? c.endMs;
      const start = startMs === undefined ? prevStart : startMs;
      if (c.startMs === undefined) attrs["cursor.time.start_unknown"] = true;
      const end = !c.completed ? root.end : c.endMs === undefined ? start : Math.max(c.endMs, start);
      if (c.completed && c.endMs === undefined) attrs["cursor.time.end_unknown"] = true;
      t = { start, end };
      prevStart = start;
    }
    spans.push(make(toolSpanName(c), id, rootId, t, attrs, toolStatus(c)));
    // A task that failed (invalid arguments, …) ran no subagent; one still open when the run ended did.
    if (c.call.kind === "task" && (!c.completed || c.call.status === "success")) {
      spans.push(make("invoke_agent subagent", spanIdOf(key, `subagent\u0000${c.callId}\u0000${c.occurrence}`), id, t, subagentAttributes(c), { code: SpanStatusCode.UNSET }));
    }
    if (c.shellId !== undefined && timed && c.endMs !== undefined) {
      const bg = c.background;
      const start = Math.max(c.endMs, t.start);
      const end = bg?.endMs !== undefined ? Math.max(bg.endMs, start) : Math.max(root.end, start);
      const a: Attributes = { "cursor.shell.id": c.shellId, "cursor.background.finished": bg !== undefined };
      if (bg?.status !== undefined) a["cursor.background.status"] = bg.status;
      if (bg !== undefined) a["cursor.log.line"] = bg.line;
      spans.push(make("background_shell", spanIdOf(key, `background\u0000${c.callId}\u0000${c.occurrence}`), id, { start, end }, a, { code: SpanStatusCode.UNSET }));
    }
  }
  return spans;
}

function span(
  name: string,
  traceId: string,
  spanId: string,
  parent: string | undefined,
  t: Interval,
  attributes: Attributes,
  status: SpanStatus,
  opts: SpanOptions,
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
    resource: opts.resource,
    instrumentationScope: opts.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  if (parent !== undefined) (s as { parentSpanContext?: unknown }).parentSpanContext = { traceId, spanId: parent, traceFlags: TraceFlags.SAMPLED };
  return s;
}

function rootAttributes(run: RunRecord, timed: boolean, content: boolean): Attributes {
  const a: Attributes = {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.provider.name": PROVIDER,
    "gen_ai.agent.name": AGENT,
  };
  if (run.sessionId !== undefined) a["gen_ai.conversation.id"] = run.sessionId;
  if (run.model !== undefined) a["gen_ai.request.model"] = run.model;
  const usage = run.result?.usage;
  if (isObject(usage)) {
    const input = count(usage.inputTokens);
    const output = count(usage.outputTokens);
    const cacheRead = count(usage.cacheReadTokens);
    const cacheWrite = count(usage.cacheWriteTokens);
    // The conventions count cached tokens in input_tokens; Cursor's inputTokens counts neither kind.
    if (input !== undefined) a["gen_ai.usage.input_tokens"] = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    if (output !== undefined) a["gen_ai.usage.output_tokens"] = output;
    if (cacheRead !== undefined) a["gen_ai.usage.cache_read.input_tokens"] = cacheRead;
    if (cacheWrite !== undefined) a["gen_ai.usage.cache_creation.input_tokens"] = cacheWrite;
    if (input !== undefined) a["cursor.usage.input_tokens"] = input;
  }
  const r = run.result;
  if (r === undefined) a["error.type"] = "incomplete";
  else if (r.is_error === true) a["error.type"] = typeof r.subtype === "string" && r.subtype !== "" && r.subtype !== "success" ? r.subtype : "error";
  if (run.requestId !== undefined) a["cursor.request.id"] = run.requestId;
  if (run.cwd !== undefined) a["cursor.cwd"] = run.cwd;
  if (run.permissionMode !== undefined) a["cursor.permission_mode"] = run.permissionMode;
  if (r !== undefined) {
    if (typeof r.subtype === "string") a["cursor.result.subtype"] = r.subtype;
    const d = num(r.duration_ms);
    if (d !== undefined) a["cursor.duration_ms"] = d;
    const api = num(r.duration_api_ms);
    if (api !== undefined) a["cursor.duration_api_ms"] = api;
  }
  a["cursor.tool_calls"] = run.calls.length;
  a["cursor.log.file"] = run.file;
  a["cursor.log.first_line"] = run.startLine;
  a["cursor.log.last_line"] = run.lastLine;
  if (!timed) a["cursor.time.unknown"] = true;
  if (content) {
    if (run.prompt !== undefined) a["gen_ai.input.messages"] = JSON.stringify([{ role: "user", parts: [{ type: "text", content: run.prompt }] }]);
    if (r !== undefined && typeof r.result === "string") {
      a["gen_ai.output.messages"] = JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: r.result }] }]);
    }
  }
  return a;
}

function rootStatus(run: RunRecord): SpanStatus {
  if (run.result === undefined) return { code: SpanStatusCode.ERROR, message: "the log ends before the run's result" };
  if (run.result.is_error === true) return { code: SpanStatusCode.ERROR, message: "the result has is_error: true" };
  return { code: SpanStatusCode.UNSET };
}

/** MCP calls are named by the MCP tool; Cursor's own tools by their short kind (shell, read, edit, …). */
function toolName(c: RunCall): string {
  const a = c.call.args ?? {};
  if (c.call.kind === "mcp") return str(a.toolName) ?? str(a.name) ?? "mcp";
  return c.call.kind;
}

function toolSpanName(c: RunCall): string {
  return `execute_tool ${toolName(c)}`;
}

function toolAttributes(c: RunCall, content: boolean): Attributes {
  const call = c.call;
  const a: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": toolName(c),
    "gen_ai.tool.call.id": c.callId,
    // MCP tools are run by a server the agent calls (an extension); Cursor's own tools by the agent itself.
    "gen_ai.tool.type": call.kind === "mcp" ? "extension" : "function",
  };
  const status = c.completed ? call.status : "incomplete";
  if (status !== undefined && status !== "success") a["error.type"] = status;
  const o = call.outcome ?? {};
  const args = call.args ?? {};
  if (call.kind === "shell" && c.completed) {
    const code = o.exitCode;
    if (typeof code === "number" && Number.isSafeInteger(code)) a["process.exit.code"] = code;
    const signal = str(o.signal);
    if (signal !== undefined) a["cursor.shell.signal"] = signal;
  }
  if (call.kind === "shell" && (args.isBackground === true || o.isBackground === true || c.shellId !== undefined)) {
    a["cursor.shell.background"] = true;
    if (c.shellId !== undefined) a["cursor.shell.id"] = c.shellId;
  }
  if (call.kind === "mcp") {
    a["mcp.method.name"] = "tools/call";
    const server = str(args.providerIdentifier) ?? str(args.serverIdentifier);
    if (server !== undefined) a["cursor.mcp.server"] = server;
  }
  if (call.kind === "task") a["cursor.task.subagent"] = true;
  a["cursor.tool.kind"] = call.tool;
  a["cursor.tool.action"] = actionLabel(call);
  if (status !== undefined) a["cursor.tool.status"] = status;
  a["cursor.tool.seq"] = c.seq;
  if (c.modelCallId !== undefined) a["cursor.model_call_id"] = c.modelCallId;
  const line = c.startLine ?? c.endLine;
  if (line !== undefined) a["cursor.log.line"] = line;
  if (content) {
    const target = actionTarget(call);
    if (target !== "") a["cursor.tool.target"] = target;
    if (call.args !== undefined) a["gen_ai.tool.call.arguments"] = JSON.stringify(call.args);
    if (c.completed && call.outcome !== undefined) a["gen_ai.tool.call.result"] = JSON.stringify(call.outcome);
  }
  return a;
}

function toolStatus(c: RunCall): SpanStatus {
  if (!c.completed) return { code: SpanStatusCode.ERROR, message: "the run ended before the call completed" };
  const s = c.call.status;
  if (s === undefined || s === "success") return { code: SpanStatusCode.UNSET };
  return { code: SpanStatusCode.ERROR, message: statusNote(c.call) };
}

function subagentAttributes(c: RunCall): Attributes {
  const args = c.call.args ?? {};
  const o: JsonObject = c.completed ? (c.call.outcome ?? {}) : {};
  const a: Attributes = { "gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": PROVIDER, "gen_ai.agent.name": "subagent" };
  const agentId = str(o.agentId) ?? str(args.agentId);
  if (agentId !== undefined) a["gen_ai.agent.id"] = agentId;
  const model = str(args.model);
  if (model !== undefined) a["gen_ai.request.model"] = model;
  if (typeof o.isBackground === "boolean") a["cursor.task.background"] = o.isBackground;
  const d = num(o.durationMs) ?? (typeof o.durationMs === "string" && /^\d{1,15}$/.test(o.durationMs) ? Number(o.durationMs) : undefined);
  if (d !== undefined) a["cursor.task.duration_ms"] = d;
  return a;
}

/** One nanosecond, in ms: the step between calls of a run without times. */
const NS = 1e-6;

/** Milliseconds since the epoch as [seconds, nanoseconds] (times stay in ms: epoch ms times 1e6 would pass 2^53). */
function hr(ms: number): HrTime {
  const s = Math.floor(ms / 1000);
  return [s, Math.round((ms - s * 1000) * 1e6)];
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
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

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
