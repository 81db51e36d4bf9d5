import type { JsonObject } from "../../input/record.js";
import { actionLabel } from "../cursor/action.js";

/**
 * Codex's items in cursorlog's one vocabulary (../shared/AGENTS.md §2.2, §2.3, §4): which items
 * are calls, each call's kind (cursor-agent's short kinds: `shell`, `edit`, `write`, …), its action
 * label in the same words, its target.
 */

export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A non-empty string, else undefined. */
export function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** The item types that are not calls: the agent's text, its reasoning, its plan (source only), the CLI's warnings. */
export const NOT_CALLS: ReadonlySet<string> = new Set(["agent_message", "reasoning", "plan", "error"]);

/** An item is a call unless it is one of NOT_CALLS: a type cursorlog does not know (a newer Codex's tool) is a call of its own kind, "Used tool <type>". */
export function isCall(type: string): boolean {
  return !NOT_CALLS.has(type);
}

/** A file change's `kind` as cursor-agent's kind: add is a file created, update edited, delete deleted (AGENTS §4). */
const CHANGE_KINDS: Record<string, string> = { add: "write", update: "edit", delete: "delete" };

/** The kind of one change of a file_change item (an unknown or missing `kind`: `edit`, the item writes files). */
export function changeKind(kind: unknown): string {
  return typeof kind === "string" && Object.hasOwn(CHANGE_KINDS, kind) ? CHANGE_KINDS[kind]! : "edit";
}

/**
 * A call item's kind (AGENTS §4): command_execution `shell`; mcp_tool_call `mcp`; web_search
 * `webSearch`, or `webFetch` when its action opens a page or finds in one; todo_list `updateTodos`;
 * collab_tool_call `task` (spawn_agent, send_input, wait, close_agent alike: "Ran subagent task").
 * A file_change's kinds are its changes' (changeKind). Any other item type is its own kind.
 */
export function kindOf(item: JsonObject): string {
  switch (item.type) {
    case "command_execution":
      return "shell";
    case "mcp_tool_call":
      return "mcp";
    case "web_search": {
      const t = isPlainObject(item.action) ? item.action.type : undefined;
      return t === "open_page" || t === "find_in_page" ? "webFetch" : "webSearch";
    }
    case "todo_list":
      return "updateTodos";
    case "collab_tool_call":
      return "task";
    case "file_change":
      return "edit";
    default:
      return nonEmpty(item.type) ?? "unknown";
  }
}

/** The tool as Codex names it: a collab call's `tool` (spawn_agent, wait, …), else the item's type. */
export function toolOf(item: JsonObject): string {
  if (item.type === "collab_tool_call") return nonEmpty(item.tool) ?? "collab_tool_call";
  return nonEmpty(item.type) ?? "unknown";
}

/** What `text` prints: cursor-agent's words for the kind ("Ran terminal command", "Created new file", …). */
export function labelOf(kind: string, tool: string): string {
  return actionLabel({ kind, tool });
}

/**
 * `/bin/bash -lc '<command>'`, `/bin/zsh -lc …`, `bash -lc …` (the login shell Codex wraps every
 * command in, AGENTS §2.3): the command inside, one quoting layer taken off (`'\''` is a quote),
 * or a single bare word as it is (`bash -lc ls`); anything else as logged.
 */
export function unwrapCommand(command: string): string {
  const m = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z)?sh -lc (?:'((?:[^']|'\\'')*)'|([\w./=:@%+,-]+))$/.exec(command);
  if (m === null) return command;
  return m[2] ?? m[1]!.replace(/'\\''/g, "'");
}

/**
 * The call's target (AGENTS §2.3): a command (unwrapped), a path (one change of a file_change),
 * `server/tool`, a search's query, a page's URL (`pattern in url` to find in it), a todo count, a
 * collab tool and the threads it names. `path` rewrites a path; a target with a path ends with it.
 */
export function targetOf(kind: string, args: JsonObject | undefined, path: (p: string) => string = (p) => p): string {
  const a: JsonObject = args ?? {};
  switch (kind) {
    case "shell":
      return unwrapCommand(str(a.command));
    case "write":
    case "edit":
    case "delete": {
      const p = str(a.path);
      return p === "" ? "" : path(p);
    }
    case "mcp":
      return joinSlash(str(a.server), str(a.tool));
    case "webSearch": {
      const act = isPlainObject(a.action) ? a.action : {};
      if (str(act.query) !== "") return str(act.query);
      if (Array.isArray(act.queries)) return act.queries.filter((q): q is string => typeof q === "string").join(" | ") || str(a.query);
      return str(a.query);
    }
    case "webFetch": {
      const act = isPlainObject(a.action) ? a.action : {};
      const url = str(act.url);
      const pattern = str(act.pattern);
      return pattern !== "" && url !== "" ? `${pattern} in ${url}` : url || pattern;
    }
    case "updateTodos":
      return Array.isArray(a.items) ? `${a.items.length} todo${a.items.length === 1 ? "" : "s"}` : "";
    case "task": {
      const ids = Array.isArray(a.receiver_thread_ids) ? a.receiver_thread_ids.filter((t): t is string => typeof t === "string") : [];
      return [str(a.tool), ids.join(", ")].filter((s) => s !== "").join(" ");
    }
    default:
      return "";
  }
}

function joinSlash(a: string, b: string): string {
  return a && b ? `${a}/${b}` : a || b;
}

/** A string a call keeps past its start is cut past this many characters (a command, a path, a query: kept whole below it). */
export const KEPT_MAX = 4096;

function kept(s: string): string {
  if (s.length <= KEPT_MAX) return s;
  let end = KEPT_MAX - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return JSON.parse(JSON.stringify(s.slice(0, end) + "…")) as string;
}

/**
 * The call's arguments as logged, by kind: a command's `command`; a change's `{path, kind}`; an MCP
 * call's `arguments` (the tool's own); a web search's `query` and `action`; a todo list's `items`;
 * a collab call's `tool`, `receiver_thread_ids`, `prompt`. `keep`: only what the target is made of
 * (strings up to KEPT_MAX, a todo list as its length, copied), for a call the reader holds open.
 */
export function argsOf(item: JsonObject, kind: string, change: JsonObject | undefined, keep: boolean): JsonObject {
  const out: JsonObject = {};
  const put = (k: string, v: unknown) => {
    if (v === undefined) return;
    out[k] = keep && typeof v === "string" ? kept(v) : v;
  };
  switch (kind) {
    case "shell":
      put("command", item.command);
      break;
    case "write":
    case "edit":
    case "delete":
      if (change !== undefined) {
        put("path", change.path);
        put("kind", change.kind);
      }
      break;
    case "mcp":
      put("server", item.server);
      put("tool", item.tool);
      if (!keep) put("arguments", item.arguments);
      break;
    case "webSearch":
    case "webFetch":
      put("query", item.query);
      if (isPlainObject(item.action)) {
        const act: JsonObject = {};
        for (const k of ["type", "query", "url", "pattern"]) if (typeof item.action[k] === "string") act[k] = keep ? kept(item.action[k] as string) : item.action[k];
        if (Array.isArray(item.action.queries)) act.queries = keep ? item.action.queries.filter((q) => typeof q === "string").map((q) => kept(q as string)) : item.action.queries;
        out.action = keep ? act : item.action;
      }
      break;
    case "updateTodos":
      if (Array.isArray(item.items)) {
        if (keep) {
          const items: null[] = [];
          items.length = item.items.length;
          out.items = items;
        } else out.items = item.items;
      }
      break;
    case "task":
      put("tool", item.tool);
      if (Array.isArray(item.receiver_thread_ids)) out.receiver_thread_ids = keep ? item.receiver_thread_ids.filter((t) => typeof t === "string").map((t) => kept(t as string)) : item.receiver_thread_ids;
      if (!keep) put("prompt", item.prompt);
      break;
  }
  return out;
}

/**
 * The members of an item the dialect's Calls read in full (Dialect.fieldsRead). No Codex line is
 * shortened by the input layer (it shortens cursor-agent's `tool_call` lines only).
 */
export const FIELDS_READ: ReadonlySet<string> = new Set([
  "id",
  "type",
  "status",
  "command",
  "aggregated_output",
  "exit_code",
  "changes",
  "path",
  "kind",
  "server",
  "tool",
  "arguments",
  "result",
  "error",
  "message",
  "query",
  "action",
  "url",
  "pattern",
  "queries",
  "items",
  "receiver_thread_ids",
  "prompt",
  "agents_states",
  "text",
]);
