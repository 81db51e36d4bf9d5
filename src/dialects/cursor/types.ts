import type { JsonObject } from "../../input/record.js";

/**
 * The events of cursor-agent's stream-json, as a discriminated union on `type` (and `subtype`).
 * Every event keeps all its fields: the CLI keeps adding new ones, and nothing is dropped.
 * Field presence follows ../shared/FORMAT.md: optional where an era lacks it.
 */
interface Base extends JsonObject {
  session_id?: string;
  timestamp_ms?: number;
}

export interface SystemEvent extends Base {
  type: "system";
  subtype?: string; // "init", "task_notification", "background_shell_timeout", …
  model?: string;
  cwd?: string;
}

export interface TextPart {
  type: string;
  text?: string;
}

export interface UserEvent extends Base {
  type: "user";
  message?: { role?: string; content?: TextPart[] };
}

export interface ThinkingEvent extends Base {
  type: "thinking";
  subtype?: "delta" | "completed" | string;
  text?: string;
}

export interface AssistantEvent extends Base {
  type: "assistant";
  message?: { role?: string; content?: TextPart[] };
  model_call_id?: string;
}

export interface ToolCallEvent extends Base {
  type: "tool_call";
  subtype: "started" | "completed" | string;
  call_id: string;
  tool_call: JsonObject;
  model_call_id?: string;
}

export interface ResultEvent extends Base {
  type: "result";
  subtype?: string;
  is_error?: boolean;
  duration_ms?: number;
  duration_api_ms?: number;
  result?: string;
  request_id?: string;
  usage?: JsonObject;
}

/** Any event whose `type` is none of the above, or is missing: carried, never dropped. */
export interface OtherEvent extends Base {
  type: string;
}

export type CursorEvent =
  | SystemEvent
  | UserEvent
  | ThinkingEvent
  | AssistantEvent
  | ToolCallEvent
  | ResultEvent;

export function isInit(ev: JsonObject): ev is SystemEvent {
  return ev.type === "system" && ev.subtype === "init";
}

export function isToolCall(ev: JsonObject): ev is ToolCallEvent {
  return ev.type === "tool_call" && typeof ev.call_id === "string" && isPlainObject(ev.tool_call);
}

export function isResult(ev: JsonObject): ev is ResultEvent {
  return ev.type === "result";
}

export function isAssistant(ev: JsonObject): ev is AssistantEvent {
  return ev.type === "assistant";
}

export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The text of an assistant or user message: its text parts joined (captures always have one). */
export function messageText(ev: AssistantEvent | UserEvent): string {
  const content = isPlainObject(ev.message) ? ev.message.content : undefined;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const part of content) {
    if (isPlainObject(part) && typeof part.text === "string") out += part.text;
  }
  return out;
}
