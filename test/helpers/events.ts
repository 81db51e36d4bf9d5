// Builders for cursor-agent stream-json events, shaped after real logs (/work/shared/FORMAT.md §2,
// §5). Each sets only the fields it is given, in the order the CLI writes them, so a test that
// compares serialized text gets the line it wrote by hand. A `sessionId` of undefined leaves the
// `session_id` key out (real events always carry one; some tests do without).
import type { JsonObject } from "../../src/input/record.js";

export type Ev = JsonObject;

/** One NDJSON line of `event`, as the CLI writes it: `JSON.stringify(event) + "\n"`. */
export function line(event: Ev): string {
  return JSON.stringify(event) + "\n";
}

function session(sessionId: string | undefined): Ev {
  return sessionId === undefined ? {} : { session_id: sessionId };
}

function clock(timestampMs: number | undefined): Ev {
  return timestampMs === undefined ? {} : { timestamp_ms: timestampMs };
}

/** The optional fields of `system/init`. */
export interface InitFields {
  apiKeySource?: string;
  cwd?: string;
  model?: string;
  permissionMode?: string;
}

/** `system/init`, the first line of a run: `apiKeySource` and `cwd` before `session_id`, `model` and `permissionMode` after. */
export function init(sessionId: string, fields: InitFields = {}): Ev {
  const { apiKeySource, cwd, model, permissionMode } = fields;
  return {
    type: "system",
    subtype: "init",
    ...(apiKeySource === undefined ? {} : { apiKeySource }),
    ...(cwd === undefined ? {} : { cwd }),
    session_id: sessionId,
    ...(model === undefined ? {} : { model }),
    ...(permissionMode === undefined ? {} : { permissionMode }),
  };
}

/** `user`, the prompt echo; without `text` a bare `{type, session_id}` (for checks that read nothing else). */
export function user(sessionId: string, text?: string): Ev {
  if (text === undefined) return { type: "user", session_id: sessionId };
  return { type: "user", message: { role: "user", content: [{ type: "text", text }] }, session_id: sessionId };
}

/** What may follow `message` on an assistant line (FORMAT.md §4): mid-turn and partial lines carry the clock. */
export interface AssistantFields {
  session_id?: string;
  model_call_id?: string;
  timestamp_ms?: number;
}

/** `assistant` with one text part; `message` has no `role` (the readers under test look at `content` only). */
export function assistant(text: string, fields: AssistantFields = {}): Ev {
  return { type: "assistant", message: { content: [{ type: "text", text }] }, ...fields };
}

/** `thinking/delta` at `timestampMs`. */
export function thinkingDelta(sessionId: string | undefined, timestampMs: number, text = "x"): Ev {
  return { type: "thinking", subtype: "delta", text, ...session(sessionId), timestamp_ms: timestampMs };
}

/** `thinking/completed` at `timestampMs` (no text). */
export function thinkingCompleted(sessionId: string | undefined, timestampMs: number): Ev {
  return { type: "thinking", subtype: "completed", ...session(sessionId), timestamp_ms: timestampMs };
}

/** The fields a `result` line may carry besides type, subtype and session_id. */
export interface ResultFields {
  duration_ms?: number;
  duration_api_ms?: number;
  is_error?: boolean;
  result?: string;
  request_id?: string;
  usage?: JsonObject;
}

/**
 * `result/success`: `before` goes between subtype and session_id, `after` follows session_id, each in
 * the caller's order (the stream writes duration_ms, duration_api_ms, is_error, result;
 * `--output-format json` writes is_error first). A key of `after` already in `before` keeps its place.
 */
export function result(sessionId: string, before: ResultFields = {}, after: ResultFields = {}): Ev {
  return { type: "result", subtype: "success", ...before, session_id: sessionId, ...after };
}

/** What a tool kind holds (FORMAT.md §5.1): `args` and, on a completion, `result: {<arm>: …}`. */
export interface ToolBody {
  args?: JsonObject;
  result?: JsonObject;
}

/** A `tool_call` line with `toolCall` as its whole `tool_call` object (the kind key and any metadata siblings). */
export function toolCallEvent(sessionId: string | undefined, subtype: "started" | "completed", callId: string, toolCall: JsonObject, timestampMs?: number): Ev {
  return { type: "tool_call", subtype, call_id: callId, tool_call: toolCall, ...session(sessionId), ...clock(timestampMs) };
}

/** `tool_call/started`: `{<kind>: {args}}`. */
export function started(sessionId: string | undefined, callId: string, kind: string, args: JsonObject = {}, timestampMs?: number): Ev {
  return toolCallEvent(sessionId, "started", callId, { [kind]: { args } }, timestampMs);
}

/** `tool_call/completed`: `{<kind>: body}`; real completions may omit `args` (FORMAT.md §5.3). */
export function completed(sessionId: string | undefined, callId: string, kind: string, body: ToolBody, timestampMs?: number): Ev {
  return toolCallEvent(sessionId, "completed", callId, { [kind]: body }, timestampMs);
}

/**
 * A started/completed pair of the mid-2026 shape: `startedAtMs` (and `completedAtMs`) as strings
 * beside the kind, `timestamp_ms` t0 and t1 on the lines. Without `result` the completion's kind is `{}`.
 */
export function callPair(sessionId: string, callId: string, kind: string, args: JsonObject, result: JsonObject | undefined, t0: number, t1: number): [Ev, Ev] {
  return [
    toolCallEvent(sessionId, "started", callId, { [kind]: { args }, startedAtMs: String(t0) }, t0),
    toolCallEvent(sessionId, "completed", callId, { [kind]: result === undefined ? {} : { result }, startedAtMs: String(t0), completedAtMs: String(t1) }, t1),
  ];
}
