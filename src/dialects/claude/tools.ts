import type { JsonObject } from "../../input/record.js";
import { actionLabel } from "../cursor/action.js";
import { nonEmpty } from "./lines.js";

/**
 * Claude Code's tools in cursorlog's one vocabulary (AGENTS §1.3, §4): a tool's kind (the short
 * kinds of cursor-agent's calls: `shell`, `read`, `edit`, …), its action label in the same words,
 * its target, and what an open call keeps of its input.
 */

/** The kind of each built-in tool cursorlog has a word for (AGENTS §4). */
const KINDS: Record<string, string> = {
  Bash: "shell",
  Read: "read",
  NotebookRead: "read",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  // A Write is `write` (Created new file) when its result says it created the file: ClaudeCall.kind.
  Write: "edit",
  Grep: "grep",
  Glob: "glob",
  LS: "ls",
  WebFetch: "webFetch",
  WebSearch: "webSearch",
  // The subagent tool: `Task` until 2.1.2xx, `Agent` since (init still lists `Task`).
  Agent: "task",
  Task: "task",
  // The todo list: `TodoWrite`, then `TaskCreate`/`TaskUpdate`/`TaskList`/`TaskGet` (AGENTS §4: all "Updated todos").
  TodoWrite: "updateTodos",
  TaskCreate: "updateTodos",
  TaskUpdate: "updateTodos",
  TaskList: "updateTodos",
  TaskGet: "updateTodos",
};

const MCP_PREFIX = "mcp__";

/**
 * A tool's kind as its call starts (a Write's may become `write` when it completes): the mapped
 * kinds above, `mcp` for `mcp__<server>__<tool>`, and for any other tool (`BashOutput`,
 * `KillShell`, `Skill`, `AskUserQuestion`, …) its own name.
 */
export function kindOf(tool: string): string {
  if (Object.hasOwn(KINDS, tool)) return KINDS[tool]!;
  return tool.startsWith(MCP_PREFIX) && tool.length > MCP_PREFIX.length ? "mcp" : tool;
}

/** Kinds that have a label of their own (the others are `Used tool <name>`). */
const LABELLED = new Set([...Object.values(KINDS), "write", "mcp"]);

/** What `text` prints for a call: cursor-agent's words for the same kind ("Ran terminal command", …), else `Used tool <name>`. */
export function labelOf(kind: string, tool: string): string {
  return LABELLED.has(kind) ? actionLabel({ kind, tool }) : `Used tool ${tool}`;
}

/** An MCP tool's server and tool, from its name `mcp__<server>__<tool>` (the server's name is cut at the first `__`). */
export function mcpOf(tool: string): { server: string | undefined; tool: string | undefined } {
  const rest = tool.slice(MCP_PREFIX.length);
  const cut = rest.indexOf("__");
  if (cut < 0) return { server: nonEmpty(rest), tool: undefined };
  return { server: nonEmpty(rest.slice(0, cut)), tool: nonEmpty(rest.slice(cut + 2)) };
}

/**
 * The call's target (AGENTS §1.3): a path (`file_path`, `notebook_path`), a command, a pattern (in
 * a path), a URL, a query, an MCP server/tool, a subagent's description, a todo count; for any
 * other tool the first of its path, command, url, pattern, query, name, description. `path`
 * rewrites each path in it; a target with a path ends with it.
 */
export function targetOf(kind: string, tool: string, args: JsonObject | undefined, path: (p: string) => string = (p) => p): string {
  const a: JsonObject = args ?? {};
  const asPath = (p: string): string => (p === "" ? "" : path(p));
  switch (kind) {
    case "shell":
      return str(a.command);
    case "read":
    case "edit":
    case "write":
      return asPath(str(a.file_path) || str(a.notebook_path));
    case "glob":
      return joinSp(str(a.pattern), asPath(str(a.path)));
    case "grep":
      return joinSp(str(a.pattern), str(a.path) ? asPath(str(a.path)) : str(a.glob));
    case "ls":
      return asPath(str(a.path));
    case "webFetch":
      return str(a.url);
    case "webSearch":
      return str(a.query);
    case "mcp": {
      const m = mcpOf(tool);
      return joinSlash(m.server ?? "", m.tool ?? "");
    }
    case "task":
      return str(a.description) || str(a.subagent_type);
    case "updateTodos":
      if (Array.isArray(a.todos)) return `${a.todos.length} todo${a.todos.length === 1 ? "" : "s"}`;
      return defaultTarget(a, asPath);
    default:
      return defaultTarget(a, asPath);
  }
}

function defaultTarget(a: JsonObject, asPath: (p: string) => string): string {
  const p = str(a.file_path) || str(a.notebook_path) || str(a.path);
  if (p !== "") return asPath(p);
  return str(a.command) || str(a.url) || str(a.pattern) || str(a.query) || str(a.name) || str(a.description);
}

/** The string members of a tool's input that targetOf and ClaudeCall read, by kind; kinds not named read DEFAULT_ARGS. */
const TARGET_ARGS: Record<string, readonly string[]> = {
  shell: ["command"],
  read: ["file_path", "notebook_path"],
  edit: ["file_path", "notebook_path"],
  glob: ["pattern", "path"],
  grep: ["pattern", "path", "glob"],
  ls: ["path"],
  webFetch: ["url"],
  webSearch: ["query"],
  mcp: [],
  task: ["description", "subagent_type", "model"],
};
const DEFAULT_ARGS: readonly string[] = ["file_path", "notebook_path", "path", "command", "url", "pattern", "query", "name", "description"];

/**
 * A string an open call keeps is cut past this many characters (the last one `…`). Targets are
 * kept whole below it (a command, a path), so that a completion, which names no input of its own,
 * prints the target its start did; what is cut is the rest of the input (a Write's content, an
 * Edit's strings, a subagent's prompt), which only the start's Call holds.
 */
export const KEPT_TARGET_MAX = 4096;

/**
 * What an open call keeps of its input: the members its target and facts are made of (strings up
 * to KEPT_TARGET_MAX characters; a task's `run_in_background` as written; a todo list as its
 * length; a read's `offset` and `limit`, a number as written, else `true`), copied, so that nothing else of the line stays reachable. Undefined without an input.
 */
export function keptArgs(kind: string, input: JsonObject | undefined): JsonObject | undefined {
  if (input === undefined) return undefined;
  const keys = Object.hasOwn(TARGET_ARGS, kind) ? TARGET_ARGS[kind]! : DEFAULT_ARGS;
  const out: JsonObject = {};
  let cut: string[] | undefined;
  for (const k of keys) {
    const v = input[k];
    if (typeof v !== "string") continue;
    out[k] = kept(v);
    if (v.length > KEPT_TARGET_MAX) (cut ??= []).push(k);
  }
  if (cut !== undefined) Object.defineProperty(out, CUT, { value: cut, enumerable: false });
  if (kind === "task" && typeof input.run_in_background === "boolean") out.run_in_background = input.run_in_background;
  // A read's part (ClaudeCall.fileShown): whether it asked for one is read at its completion.
  if (kind === "read") for (const k of ["offset", "limit"]) if (input[k] !== undefined && input[k] !== null) out[k] = typeof input[k] === "number" ? input[k] : true;
  if (kind === "updateTodos" && Array.isArray(input.todos)) {
    // Only its length is read: an empty array of that length.
    const todos: null[] = [];
    todos.length = input.todos.length;
    out.todos = todos;
  }
  return out;
}

/** The members keptArgs cut (a hidden property of what it returns): withCutMarks shows them cut. */
const CUT = Symbol("cut");

/**
 * `s` whole up to KEPT_TARGET_MAX characters, else its start, as a string of its own (never a view
 * of the line). The `…` that says it was cut is added only when the arguments are read
 * (withCutMarks), to a string made then: kept with it, an ASCII command would be held in two bytes
 * a character (V8 keeps a string whose characters are all Latin-1 in one byte each, and `…` is
 * not), and an open call's target read at the run's end (timeline's rows) would make it so.
 */
function kept(s: string): string {
  if (s.length <= KEPT_TARGET_MAX) return s;
  let end = KEPT_TARGET_MAX - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  return JSON.parse(JSON.stringify(s.slice(0, end))) as string;
}

/** What keptArgs kept, each member it cut ending in `…`: a new object each time, never stored. */
export function withCutMarks(args: JsonObject): JsonObject {
  const cut = (args as { [CUT]?: string[] })[CUT];
  if (cut === undefined) return args;
  const out: JsonObject = { ...args };
  for (const k of cut) out[k] = `${args[k] as string}…`;
  return out;
}

/**
 * The members of a tool's input and of its `tool_use_result` that ClaudeCall reads in full, besides
 * its fileChange and failureText: the target members, a task's flags, a background task's id.
 * (The input layer's shortening of long strings, input/raw-skip.ts shortenToolCalls, applies to
 * cursor-agent's `tool_call` lines only: no Claude Code line is shortened.)
 */
export const FIELDS_READ: ReadonlySet<string> = new Set([
  ...Object.values(TARGET_ARGS).flat(),
  ...DEFAULT_ARGS,
  "run_in_background",
  "offset",
  "limit",
  "todos",
  "backgroundTaskId",
  "agentId",
  "isAsync",
  "interrupted",
  "type",
  "content",
  "text",
  "is_error",
]);

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function joinSp(a: string, b: string): string {
  return a && b ? `${a} in ${b}` : a || b;
}

function joinSlash(a: string, b: string): string {
  return a && b ? `${a}/${b}` : a || b;
}
