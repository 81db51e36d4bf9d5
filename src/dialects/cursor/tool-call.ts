import type { JsonObject } from "../../input/record.js";
import { isPlainObject } from "./types.js";

/** A tool call, whatever envelope it came in, reduced to what every output needs. */
export interface ToolCall {
  /** The raw kind: `shellToolCall`, `readToolCall`, … (for the `function` envelope, its name). */
  tool: string;
  /** Short name: `shell`, `read`, `edit`, … (`tool` without its `ToolCall` suffix). */
  kind: string;
  args?: JsonObject;
  /** Result arm: `success`, `failure`, `rejected`, `error`, `permissionDenied`, … */
  status?: string;
  /** The arm's value, e.g. `{exitCode: 1, stdout, …}` for a shell failure. */
  outcome?: JsonObject;
  /** `startedAtMs` / `completedAtMs` siblings (strings in the log), as numbers. */
  startedAtMs?: number;
  completedAtMs?: number;
}

const SUFFIX = "ToolCall";

/**
 * The tool-kind keys a `tool_call` line names (`shellToolCall`, …: each key of its `tool_call`
 * ending in `ToolCall`), for validate to check against its schemas; undefined for any other line.
 * Where the keys are, as a JSON pointer into the line: KIND_KEYS_PATH.
 */
export function toolKindKeys(ev: JsonObject): string[] | undefined {
  if (ev.type !== "tool_call" || !isPlainObject(ev.tool_call)) return undefined;
  const out: string[] = [];
  for (const key in ev.tool_call) if (key.length > SUFFIX.length && key.endsWith(SUFFIX)) out.push(key);
  return out;
}

/** The JSON pointer of the object whose keys toolKindKeys reads. */
export const KIND_KEYS_PATH = "/tool_call";

/**
 * Normalizes `event.tool_call` across the shapes in FORMAT.md §5.1: the keyed live shape
 * `{<kind>ToolCall: {args, result}, toolCallId, startedAtMs, …}`, the `{function: {name,
 * arguments}}` shape, and the `{tool: {case, value}}` envelope. Metadata siblings are never kinds.
 */
export function toolCallOf(toolCall: JsonObject): ToolCall {
  let tool = "";
  let body: JsonObject | undefined;
  for (const key in toolCall) {
    if (key.length > SUFFIX.length && key.endsWith(SUFFIX) && isPlainObject(toolCall[key])) {
      tool = key;
      body = toolCall[key] as JsonObject;
      break;
    }
  }
  let call: ToolCall;
  if (body !== undefined) {
    call = { tool, kind: tool.slice(0, -SUFFIX.length) };
    fill(call, body.args, body.result);
  } else if (isPlainObject(toolCall.function)) {
    const fn = toolCall.function;
    const name = typeof fn.name === "string" && fn.name !== "" ? fn.name : "function";
    call = { tool: name, kind: name };
    fill(call, parseArguments(fn.arguments), fn.result ?? toolCall.result);
  } else if (isPlainObject(toolCall.tool) && typeof toolCall.tool.case === "string") {
    tool = toolCall.tool.case;
    call = { tool, kind: tool.endsWith(SUFFIX) && tool.length > SUFFIX.length ? tool.slice(0, -SUFFIX.length) : tool };
    const value = isPlainObject(toolCall.tool.value) ? toolCall.tool.value : {};
    fill(call, value.args, value.result);
  } else {
    call = { tool: "unknown", kind: "unknown" };
  }
  const started = msOf(toolCall.startedAtMs);
  const completed = msOf(toolCall.completedAtMs);
  if (started !== undefined) call.startedAtMs = started;
  if (completed !== undefined) call.completedAtMs = completed;
  return call;
}

function fill(call: ToolCall, args: unknown, result: unknown): void {
  if (isPlainObject(args)) call.args = args;
  if (!isPlainObject(result)) return;
  // SDK / protobuf-es form: {result: {case: "success", value: {...}}}
  const inner = result.result;
  if (isPlainObject(inner) && typeof inner.case === "string") {
    call.status = inner.case;
    call.outcome = isPlainObject(inner.value) ? inner.value : {};
    return;
  }
  // The arm is the first key holding an object: siblings such as a background shell's
  // `isBackground: true` and `terminalsFolder` may come before it.
  let first: string | undefined;
  for (const arm in result) {
    first ??= arm;
    const value = result[arm];
    if (!isPlainObject(value)) continue;
    call.status = arm;
    call.outcome = value;
    return;
  }
  if (first !== undefined) {
    call.status = first;
    call.outcome = {};
  }
}

function parseArguments(raw: unknown): JsonObject | undefined {
  if (isPlainObject(raw)) return raw;
  if (typeof raw !== "string") return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return isPlainObject(v) ? v : { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

function msOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\d{1,16}$/.test(v)) return Number(v);
  return undefined;
}
