import type { JsonObject } from "../../input/record.js";
import { actionLabel } from "../cursor/action.js";

/**
 * Gemini CLI's tools in cursorlog's one vocabulary (AGENTS §3.3, §4): a tool's kind (the short
 * kinds of cursor-agent's calls: `shell`, `read`, `edit`, …), its action label in the same words,
 * its target, and what an open call keeps of its parameters.
 */

/** The kind of each built-in tool cursorlog has a word for (AGENTS §4). */
const KINDS: Record<string, string> = {
  read_file: "read",
  read_many_files: "read",
  // Create vs overwrite cannot be told from the stream (AGENTS §3.8): "Edited file".
  write_file: "edit",
  replace: "edit",
  run_shell_command: "shell",
  list_directory: "ls",
  glob: "glob",
  grep_search: "grep",
  // The legacy name of grep_search (AGENTS §3.3).
  search_file_content: "grep",
  web_fetch: "webFetch",
  google_web_search: "webSearch",
  write_todos: "updateTodos",
  invoke_agent: "task",
  delegate_to_agent: "task",
};

const MCP_PREFIX = "mcp_";

/**
 * A tool's kind: the mapped kinds above, `mcp` for `mcp_<server>_<tool>`, and for any other tool
 * (`ask_user`, `activate_skill`, the plan-mode tools, `read_mcp_resource`, …) its own name
 * (AGENTS §4: other).
 */
export function kindOf(tool: string): string {
  if (Object.hasOwn(KINDS, tool)) return KINDS[tool]!;
  return tool.startsWith(MCP_PREFIX) && tool.length > MCP_PREFIX.length ? "mcp" : tool;
}

/** Kinds that have a label of their own (the others are `Used tool <name>`). */
const LABELLED = new Set([...Object.values(KINDS), "mcp"]);

/** What `text` prints for a call: cursor-agent's words for the same kind ("Ran terminal command", …), else `Used tool <name>`. */
export function labelOf(kind: string, tool: string): string {
  return LABELLED.has(kind) ? actionLabel({ kind, tool }) : `Used tool ${tool}`;
}

/**
 * The call's target (AGENTS §3.3, parameters in bold there): a path (`file_path`, `dir_path`), the
 * `include` patterns of read_many_files, a command, a pattern (in a folder), web_fetch's `prompt`
 * (its URLs are inside it), a query, an MCP tool's name after `mcp_` (server and tool cannot be
 * told apart when the server's name holds `_`: §3.9 trap 7), a subagent's name, a todo count; for
 * any other tool the first of its path, command, url, pattern, query, name, description. `path`
 * rewrites each path in it; a target with a path ends with it.
 */
export function targetOf(kind: string, tool: string, args: JsonObject | undefined, path: (p: string) => string = (p) => p): string {
  const a: JsonObject = args ?? {};
  const asPath = (p: string): string => (p === "" ? "" : path(p));
  switch (kind) {
    case "shell":
      return str(a.command);
    case "read":
      if (Array.isArray(a.include)) return a.include.filter((p): p is string => typeof p === "string").join(" ");
      return asPath(str(a.file_path));
    case "edit":
      return asPath(str(a.file_path));
    case "ls":
      return asPath(str(a.dir_path));
    case "glob":
    case "grep":
      return joinIn(str(a.pattern), asPath(str(a.dir_path)));
    case "webFetch":
      return str(a.prompt) || str(a.url);
    case "webSearch":
      return str(a.query);
    case "mcp":
      return tool.slice(MCP_PREFIX.length);
    case "task":
      return str(a.agent_name) || defaultTarget(a, asPath);
    case "updateTodos":
      if (Array.isArray(a.todos)) return `${a.todos.length} todo${a.todos.length === 1 ? "" : "s"}`;
      return defaultTarget(a, asPath);
    default:
      return defaultTarget(a, asPath);
  }
}

function defaultTarget(a: JsonObject, asPath: (p: string) => string): string {
  const p = str(a.file_path) || str(a.dir_path) || str(a.path);
  if (p !== "") return asPath(p);
  return str(a.command) || str(a.url) || str(a.pattern) || str(a.query) || str(a.name) || str(a.description);
}

/** Kinds whose target is a path, or ends with one (glob and grep: when they name a folder). */
export function targetEndsWithPath(kind: string, args: JsonObject | undefined): boolean {
  const a: JsonObject = args ?? {};
  switch (kind) {
    case "read":
      return !Array.isArray(a.include) && str(a.file_path) !== "";
    case "edit":
      return str(a.file_path) !== "";
    case "ls":
    case "glob":
    case "grep":
      return str(a.dir_path) !== "";
    case "shell":
    case "webFetch":
    case "webSearch":
    case "mcp":
    case "updateTodos":
      return false;
    case "task":
      return str(a.agent_name) === "" && (str(a.file_path) || str(a.dir_path) || str(a.path)) !== "";
    default:
      return (str(a.file_path) || str(a.dir_path) || str(a.path)) !== "";
  }
}

/** The string members of a tool's parameters targetOf reads, by kind; kinds not named read DEFAULT_ARGS. */
const TARGET_ARGS: Record<string, readonly string[]> = {
  shell: ["command"],
  read: ["file_path"],
  edit: ["file_path"],
  ls: ["dir_path"],
  glob: ["pattern", "dir_path"],
  grep: ["pattern", "dir_path"],
  webFetch: ["prompt", "url"],
  webSearch: ["query"],
  mcp: [],
  task: ["agent_name", "file_path", "dir_path", "path", "command", "url", "pattern", "query", "name", "description"],
};
const DEFAULT_ARGS: readonly string[] = ["file_path", "dir_path", "path", "command", "url", "pattern", "query", "name", "description"];

/**
 * A string an open call keeps is cut past this many characters (the last one `…`), but for the
 * whole file a write_file writes (its `content`: GeminiCall.fileChange reads it when the call
 * completes, the stream holding it nowhere else).
 */
export const KEPT_TARGET_MAX = 4096;

/**
 * What an open call keeps of its parameters: the members its target is made of (strings up to
 * KEPT_TARGET_MAX characters; read_many_files' `include` as its strings; a todo list as its
 * length), write_file's `content` whole; copied, so that nothing else of the line stays reachable.
 */
export function keptArgs(kind: string, tool: string, input: JsonObject | undefined): JsonObject | undefined {
  if (input === undefined) return undefined;
  const keys = Object.hasOwn(TARGET_ARGS, kind) ? TARGET_ARGS[kind]! : DEFAULT_ARGS;
  const out: JsonObject = {};
  for (const k of keys) {
    const v = input[k];
    if (typeof v === "string") out[k] = kept(v);
  }
  if (kind === "read" && Array.isArray(input.include)) out.include = input.include.filter((p): p is string => typeof p === "string").map(kept);
  if (tool === "write_file" && typeof input.content === "string") out.content = input.content;
  if (kind === "updateTodos" && Array.isArray(input.todos)) {
    // Only its length is read: an empty array of that length.
    const todos: null[] = [];
    todos.length = input.todos.length;
    out.todos = todos;
  }
  return out;
}

/** `s` whole up to KEPT_TARGET_MAX characters, else its start and `…`. */
function kept(s: string): string {
  if (s.length <= KEPT_TARGET_MAX) return s;
  let end = KEPT_TARGET_MAX - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  return JSON.parse(JSON.stringify(s.slice(0, end) + "…")) as string;
}

/** The members of a call's parameters and result that GeminiCall reads in full, besides its fileChange. */
export const FIELDS_READ: ReadonlySet<string> = new Set([...Object.values(TARGET_ARGS).flat(), ...DEFAULT_ARGS, "include", "todos", "status", "output", "error", "type", "message"]);

/** The members GeminiCall.fileChange reads in full: write_file's path and content. */
export const FILE_FIELDS_READ: ReadonlySet<string> = new Set(["file_path", "content"]);

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function joinIn(a: string, b: string): string {
  return a && b ? `${a} in ${b}` : a || b;
}
