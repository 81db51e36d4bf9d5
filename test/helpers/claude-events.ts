// Builders for Claude Code stream-json lines (`claude -p --output-format stream-json --verbose`),
// shaped after /work/shared/AGENTS.md §1 (its example lines and event catalogue, §1.2–§1.7). Each
// sets only what it is given, in the order the CLI writes it; values are placeholders, never a
// capture's. A line's `timestamp` (ISO, on assistant and user lines since mid-2026) is given as
// epoch ms and written as ISO; without it the line has none, as in the 2.1.4–2.1.15 era.
import type { JsonObject } from "../../src/input/record.js";

export type Ev = JsonObject;

const UUID = "00000000-0000-4000-8000-000000000000";

function stamp(ms: number | undefined): Ev {
  return ms === undefined ? {} : { timestamp: new Date(ms).toISOString() };
}

/** `system/init`: cwd, session_id, tools[], mcp_servers[], model, permissionMode, claude_code_version, uuid. */
export function init(sessionId: string, fields: { cwd?: string; model?: string; permissionMode?: string; version?: string } = {}): Ev {
  return {
    type: "system",
    subtype: "init",
    cwd: fields.cwd ?? "/work/project",
    session_id: sessionId,
    tools: ["Task", "Bash", "Edit", "Read", "Write", "Glob", "Grep", "WebFetch", "WebSearch"],
    mcp_servers: [],
    model: fields.model ?? "claude-haiku-4-5",
    permissionMode: fields.permissionMode ?? "default",
    apiKeySource: "none",
    claude_code_version: fields.version ?? "2.1.285",
    uuid: UUID,
  };
}

/** `system/hook_started` of a hook (`SessionStart:startup` by default). */
export function hookStarted(sessionId: string, hookName = "SessionStart:startup"): Ev {
  return { type: "system", subtype: "hook_started", hook_id: "<H>", hook_name: hookName, hook_event: hookName.split(":")[0], uuid: UUID, session_id: sessionId };
}

/** `system/hook_response` of that hook. */
export function hookResponse(sessionId: string, hookName = "SessionStart:startup"): Ev {
  return { type: "system", subtype: "hook_response", hook_id: "<H>", hook_name: hookName, hook_event: hookName.split(":")[0], output: "", stdout: "", stderr: "", exit_code: 0, outcome: "success", uuid: UUID, session_id: sessionId };
}

/** `system/commands_changed` (a short one: real ones are 15–21 KB). */
export function commandsChanged(sessionId: string): Ev {
  return { type: "system", subtype: "commands_changed", commands: [{ name: "compact", description: "Free up context", argumentHint: "" }], uuid: UUID, session_id: sessionId };
}

/** A system line of another subtype, with its fields. */
export function system(sessionId: string | undefined, subtype: string, fields: Ev = {}): Ev {
  return { type: "system", subtype, ...fields, ...(sessionId === undefined ? {} : { session_id: sessionId }), uuid: UUID };
}

/** A `tool_use` block. */
export function toolUse(id: string, name: string, input: Ev): Ev {
  return { type: "tool_use", id, name, input, caller: { type: "direct" } };
}

export function text(t: string): Ev {
  return { type: "text", text: t };
}

/** A thinking block: empty text and a signature, as 2.1.28x writes every one, unless given text. */
export function thinking(t = ""): Ev {
  return { type: "thinking", thinking: t, signature: "RXF1aXZhbGVudA==" };
}

/** The usage an assistant line repeats for each block of its message (output_tokens a partial snapshot). */
export const MESSAGE_USAGE: Ev = { input_tokens: 8, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 3, service_tier: "standard" };

export interface LineFields {
  /** epoch ms, written as the ISO `timestamp`. */
  at?: number;
  /** `parent_tool_use_id`: the task call whose subagent wrote the line. */
  parent?: string;
  /** Leave out `uuid` and `parent_tool_use_id` (2.1.15 user lines lack both). */
  early?: boolean;
}

/** An `assistant` line holding `blocks` of message `msgId`. */
export function assistant(sessionId: string, msgId: string, blocks: Ev[], f: LineFields & { model?: string } = {}): Ev {
  return {
    type: "assistant",
    message: { model: f.model ?? "claude-haiku-4-5", id: msgId, type: "message", role: "assistant", content: blocks, stop_reason: null, usage: MESSAGE_USAGE },
    ...(f.early === true ? {} : { parent_tool_use_id: f.parent ?? null }),
    session_id: sessionId,
    uuid: UUID,
    ...stamp(f.at),
  };
}

/** A `tool_result` block. `isError` undefined leaves `is_error` out (most successes). */
export function toolResult(toolUseId: string, content: string | Ev[], isError?: boolean): Ev {
  return { tool_use_id: toolUseId, type: "tool_result", content, ...(isError === undefined ? {} : { is_error: isError }) };
}

/** A `user` line answering tool_use blocks, with its `tool_use_result` and `tool_result_meta` when given. */
export function user(sessionId: string, blocks: Ev[] | string, f: LineFields & { toolUseResult?: unknown; meta?: Ev[]; synthetic?: boolean } = {}): Ev {
  return {
    type: "user",
    message: { role: "user", content: blocks },
    ...(f.early === true ? {} : { parent_tool_use_id: f.parent ?? null }),
    session_id: sessionId,
    ...(f.early === true ? {} : { uuid: UUID }),
    ...stamp(f.at),
    ...(f.toolUseResult === undefined ? {} : { tool_use_result: f.toolUseResult }),
    ...(f.meta === undefined ? {} : { tool_result_meta: f.meta }),
    ...(f.synthetic === undefined ? {} : { isSynthetic: f.synthetic }),
  };
}

/** A Bash call's `tool_use_result` on success (no exit code in it). */
export function bashResult(stdout: string, more: Ev = {}): Ev {
  return { stdout, stderr: "", interrupted: false, isImage: false, noOutputExpected: false, ...more };
}

/** The result's usage: the run's totals (snake_case). */
export const RESULT_USAGE: Ev = { input_tokens: 18, cache_creation_input_tokens: 9721, cache_read_input_tokens: 34862, output_tokens: 176, output_tokens_details: { thinking_tokens: 84 }, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 } };

export interface ResultFields {
  subtype?: string;
  is_error?: boolean;
  /** The final text; `null` leaves the key out (error_max_turns). */
  result?: string | null;
  errors?: string[];
  usage?: Ev;
  total_cost_usd?: number;
  modelUsage?: Ev;
  permission_denials?: Ev[];
  terminal_reason?: string;
  duration_ms?: number;
  duration_api_ms?: number;
  num_turns?: number;
  result_index?: number;
  origin?: Ev;
  api_error_status?: number | null;
}

/** `result`, its keys in 2.1.28x's order (duration_api_ms first, type near the end). */
export function result(sessionId: string, f: ResultFields = {}): Ev {
  const ev: Ev = {
    duration_api_ms: f.duration_api_ms ?? 4300,
    stop_reason: "end_turn",
    session_id: sessionId,
    total_cost_usd: f.total_cost_usd ?? 0.024,
    usage: f.usage ?? RESULT_USAGE,
    modelUsage: f.modelUsage ?? { "claude-haiku-4-5": { inputTokens: 18, outputTokens: 176, costUSD: f.total_cost_usd ?? 0.024 } },
    permission_denials: f.permission_denials ?? [],
  };
  if (f.terminal_reason !== undefined) ev.terminal_reason = f.terminal_reason;
  if (f.origin !== undefined) ev.origin = f.origin;
  if (f.errors !== undefined) ev.errors = f.errors;
  ev.is_error = f.is_error ?? false;
  ev.num_turns = f.num_turns ?? 2;
  ev.subtype = f.subtype ?? "success";
  if (f.api_error_status !== undefined) ev.api_error_status = f.api_error_status;
  if (f.result !== null) ev.result = f.result ?? "DONE";
  ev.type = "result";
  ev.duration_ms = f.duration_ms ?? 4500;
  ev.uuid = UUID;
  if (f.result_index !== undefined) ev.result_index = f.result_index;
  return ev;
}

/** `system/permission_denied` for a call. */
export function permissionDenied(sessionId: string, toolUseId: string, toolName: string, message: string): Ev {
  return system(sessionId, "permission_denied", { tool_name: toolName, tool_use_id: toolUseId, decision_reason_type: "rule", message });
}

/** `system/task_started`. */
export function taskStarted(sessionId: string, taskId: string, toolUseId: string, backgrounded: boolean, taskType = "local_bash"): Ev {
  return system(sessionId, "task_started", { task_id: taskId, tool_use_id: toolUseId, description: "<D>", is_backgrounded: backgrounded, task_type: taskType });
}

/** `system/task_updated` with its patch (`end_time` epoch ms). */
export function taskUpdated(sessionId: string, taskId: string, status: string, endTime: number): Ev {
  return system(sessionId, "task_updated", { task_id: taskId, patch: { status, end_time: endTime } });
}

/** `system/task_notification`. */
export function taskNotification(sessionId: string, taskId: string, toolUseId: string, status: string, summary: string, outputFile = "/tmp/tasks/t.output"): Ev {
  return system(sessionId, "task_notification", { task_id: taskId, tool_use_id: toolUseId, status, output_file: outputFile, summary });
}

/** A `stream_event` text delta (`--include-partial-messages`). */
export function textDelta(sessionId: string, t: string, parent?: string): Ev {
  return { type: "stream_event", event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: t } }, parent_tool_use_id: parent ?? null, session_id: sessionId, uuid: UUID };
}

/** `rate_limit_event`. */
export function rateLimit(sessionId: string): Ev {
  return { type: "rate_limit_event", rate_limit_info: { status: "allowed", resetsAt: 1790867400, rateLimitType: "five_hour" }, uuid: UUID, session_id: sessionId };
}
