import type { JsonObject } from "../../input/record.js";
import type { ToolCall } from "./tool-call.js";

/** Action labels in the vendor doc's voice ("Read file", "Edited file", …), by short kind. */
const LABELS: Record<string, string> = {
  shell: "Ran terminal command",
  writeShellStdin: "Wrote to terminal input",
  read: "Read file",
  edit: "Edited file",
  write: "Created new file",
  delete: "Deleted file",
  applyAgentDiff: "Applied diff",
  ls: "Listed directory",
  glob: "Searched for files",
  grep: "Searched file contents",
  semSearch: "Searched codebase",
  updateTodos: "Updated todos",
  readTodos: "Read todos",
  mcp: "Called MCP tool",
  getMcpTools: "Looked up MCP tool",
  listMcpResources: "Listed MCP resources",
  readMcpResource: "Read MCP resource",
  webFetch: "Fetched web page",
  fetch: "Fetched web page",
  webSearch: "Searched the web",
  task: "Ran subagent task",
  await: "Waited for background task",
  readLints: "Read lints",
  createPlan: "Created plan",
  askQuestion: "Asked a question",
  switchMode: "Switched mode",
  generateImage: "Generated image",
  recordScreen: "Recorded screen",
  computerUse: "Used computer",
  reflect: "Reflected",
  setupVmEnvironment: "Set up VM environment",
  truncated: "Ran truncated tool call",
};

/** Every short tool kind cursorlog has a label for (`filter --tool` knows these). */
export const KNOWN_KINDS: readonly string[] = Object.keys(LABELS);

/** What `cursorlog text` prints for a call, and the `action` column of the timeline. */
export function actionLabel(call: ToolCall): string {
  if (call.kind === "edit" && isCreate(call)) return "Created new file";
  // Own keys only: a log's tool named `constructorToolCall` or `__proto__ToolCall` is just unknown.
  return Object.hasOwn(LABELS, call.kind) ? LABELS[call.kind]! : `Used tool ${call.tool}`;
}

/** An edit that created its file: no `beforeFullFileContent`, a diff from /dev/null, or "Wrote contents to". */
function isCreate(call: ToolCall): boolean {
  const o = call.outcome;
  if (call.status !== "success" || o === undefined) return false;
  if (typeof o.message === "string" && o.message.startsWith("Wrote contents to")) return true;
  if (typeof o.diffString === "string" && /^--- \/dev\/null(\r?\n|$)/.test(o.diffString)) return true;
  return !("beforeFullFileContent" in o) && "afterFullFileContent" in o;
}

/**
 * The call's target: path, command, pattern, URL, query… (empty when the args are unknown). `path`,
 * when given, rewrites each file or folder path in it (show makes them relative to the run's
 * folder); a target with a path ends with it (`pattern in src`), so a caller that sees `path`
 * called can cut the target in its middle and keep the file name.
 */
export function actionTarget(call: ToolCall, path: (p: string) => string = (p) => p): string {
  const a: JsonObject = call.args ?? {};
  const o: JsonObject = call.outcome ?? {};
  const asPath = (p: string): string => (p === "" ? "" : path(p));
  switch (call.kind) {
    case "shell":
      return str(a.command) || str(o.command);
    case "glob":
      return joinSp(str(a.globPattern) || str(a.pattern), asPath(str(a.targetDirectory) || str(a.path)));
    case "grep":
      return joinSp(str(a.pattern), str(a.path) ? asPath(str(a.path)) : str(a.glob));
    case "semSearch":
      return str(a.query);
    case "mcp":
      return str(a.name) || joinSlash(str(a.providerIdentifier) || str(a.serverIdentifier), str(a.toolName));
    case "getMcpTools":
      // Search mode (2026): args {pattern, toolCallId} only; the target is the pattern.
      return joinSlash(str(a.server), str(a.toolName)) || str(a.pattern);
    case "webFetch":
    case "fetch":
      return str(a.url) || str(o.url);
    case "webSearch":
      return str(a.searchTerm) || str(a.query);
    case "task":
      return str(a.description);
    case "await": {
      // taskId is "" when the agent waits on whatever finishes first: its result names the task.
      const complete = o.complete;
      const done = typeof complete === "object" && complete !== null && !Array.isArray(complete) ? (complete as JsonObject).taskId : undefined;
      return str(a.taskId) || str(done) || (typeof done === "number" ? String(done) : "");
    }
    case "readLints":
      return Array.isArray(a.paths) ? a.paths.filter((p) => typeof p === "string").map(asPath).join(" ") : "";
    case "updateTodos":
      return Array.isArray(a.todos) ? `${a.todos.length} todo${a.todos.length === 1 ? "" : "s"}` : "";
    default: {
      const p = str(a.path) || str(o.path);
      return p !== "" ? asPath(p) : str(a.command) || str(a.url) || str(a.pattern) || str(a.query) || str(a.name) || "";
    }
  }
}

/** Result arm in words for a call that did not succeed, e.g. `failed, exit 1`; "" for success. */
export function statusNote(call: ToolCall, max = 120): string {
  const o: JsonObject = call.outcome ?? {};
  switch (call.status) {
    case "success":
      return "";
    case undefined:
      return "no result";
    case "failure": {
      const code = o.exitCode;
      const sig = str(o.signal);
      if (typeof code === "number") return `failed, exit ${code}`;
      return sig ? `failed, signal ${sig}` : "failed";
    }
    case "rejected": {
      const reason = str(o.reason);
      return reason ? `rejected: ${shorten(reason, max)}` : "rejected";
    }
    case "error": {
      const msg = str(o.errorMessage) || str(o.error) || str(o.modelVisibleError);
      return msg ? `error: ${shorten(msg, max)}` : "error";
    }
    case "permissionDenied":
    case "readPermissionDenied":
    case "writePermissionDenied":
      return "permission denied";
    case "timeout":
      return "timed out";
    case "spawnError":
      return "could not start";
    default:
      return call.status;
  }
}

/** How a status is shown in colour: fine, refused, or failed. */
export function statusTone(call: ToolCall): "ok" | "refused" | "failed" {
  switch (call.status) {
    case "success":
      return "ok";
    case "rejected":
    case "permissionDenied":
    case "readPermissionDenied":
    case "writePermissionDenied":
      return "refused";
    default:
      return "failed";
  }
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function joinSp(a: string, b: string): string {
  return a && b ? `${a} in ${b}` : a || b;
}

function joinSlash(a: string, b: string): string {
  return a && b ? `${a}/${b}` : a || b;
}

function shorten(s: string, max = 120): string {
  const one = s.trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}

/** A string kept from a call's start (OpenCall) is cut to this many characters, the last one `…`. */
export const KEPT_ARG_MAX = 100;

/** The string arguments actionTarget reads, by kind; kinds not named read DEFAULT_TARGET_ARGS. */
const TARGET_ARGS: Record<string, readonly string[]> = {
  shell: ["command"],
  glob: ["globPattern", "pattern", "targetDirectory", "path"],
  grep: ["pattern", "path", "glob"],
  semSearch: ["query"],
  mcp: ["name", "providerIdentifier", "serverIdentifier", "toolName"],
  getMcpTools: ["server", "toolName", "pattern"],
  webFetch: ["url"],
  fetch: ["url"],
  webSearch: ["searchTerm", "query"],
  task: ["description"],
  await: ["taskId"],
  readLints: ["paths"],
  updateTodos: ["todos"],
};
/** An object of one string member, by its name, written as a literal (see targetArgs). */
const ONE_MEMBER: Record<string, (v: string) => JsonObject> = {
  command: (v) => ({ command: v }),
  path: (v) => ({ path: v }),
  url: (v) => ({ url: v }),
  pattern: (v) => ({ pattern: v }),
  globPattern: (v) => ({ globPattern: v }),
  query: (v) => ({ query: v }),
  searchTerm: (v) => ({ searchTerm: v }),
  description: (v) => ({ description: v }),
  taskId: (v) => ({ taskId: v }),
  name: (v) => ({ name: v }),
};

/** The default case of actionTarget; `path` is also what stats' file lists read. */
const DEFAULT_TARGET_ARGS = ["path", "command", "url", "pattern", "query", "name"];

/**
 * The members of a call's result read here and by CursorCall: targets (a shell's `command`, a
 * fetch's `url`, a `path`, an await's `taskId`), statusNote's words, a shell's exit, a background
 * task's id and flag (call.ts backgroundTaskOf).
 */
const RESULT_FIELDS = ["command", "url", "path", "taskId", "exitCode", "signal", "reason", "errorMessage", "error", "modelVisibleError", "shellId", "agentId", "isBackground"];

/**
 * The members of a call's arguments and result whose text the dialect reads in full, made from the
 * lists above (each kind's target arguments, the default ones, the result's): a function here that
 * starts reading another member adds it to one of them, and it is kept (test/cursor-fields.test.ts).
 * The input layer may shorten every other long string of a tool call to its beginning before
 * parsing it (input/shorten-strings.ts): `message` and `diffString` are only tested for how they start.
 */
export const FIELDS_READ: ReadonlySet<string> = new Set([...Object.values(TARGET_ARGS).flat(), ...DEFAULT_TARGET_ARGS, ...RESULT_FIELDS]);

/**
 * Of a started call's arguments, what its completion may need when it comes without arguments
 * (FORMAT.md §5.3): the members actionTarget (and stats' pathOf) read, strings cut to
 * KEPT_ARG_MAX characters (a path in its middle: keptPath), copied so that nothing of the event
 * stays reachable. `paths` (readLints)
 * is kept joined, `todos` (updateTodos) as its length. Undefined when the call has no arguments.
 */
export function targetArgs(call: ToolCall): JsonObject | undefined {
  const a = call.args;
  if (a === undefined) return undefined;
  const keys = Object.hasOwn(TARGET_ARGS, call.kind) ? TARGET_ARGS[call.kind]! : DEFAULT_TARGET_ARGS;
  // The usual case, one string member (a shell call's command, a read's path): an object literal
  // of that one member, 32 bytes, where an object grown from {} takes 56 (room for four).
  let first: string | undefined;
  let count = 0;
  for (const k of keys) {
    if (typeof a[k] === "string") {
      first ??= k;
      count++;
    }
  }
  const one = count === 1 && call.kind !== "readLints" && call.kind !== "updateTodos" ? ONE_MEMBER[first!] : undefined;
  if (one !== undefined) return one(kept(first!, a[first!] as string));
  const out: JsonObject = {};
  for (const k of keys) {
    const v = a[k];
    if (typeof v === "string") out[k] = kept(k, v);
  }
  if (call.kind === "readLints" && Array.isArray(a.paths)) out.paths = [keptPath(a.paths.filter((p) => typeof p === "string").join(" "))];
  if (call.kind === "updateTodos" && Array.isArray(a.todos)) {
    // Only its length is read: an empty array of that length (sparse past a small size).
    const todos: null[] = [];
    todos.length = a.todos.length;
    out.todos = todos;
  }
  return out;
}

/** A kept argument: a path (`path`, `targetDirectory`) keeps its end, the file name; any other string its start. */
function kept(key: string, v: string): string {
  return key === "path" || key === "targetDirectory" ? keptPath(v) : keptString(v);
}

/**
 * A path cut to KEPT_ARG_MAX characters in its middle (its first 30, `…`, its end), so that its
 * file name stays (show and the HTML timeline cut paths in the middle for the same reason); a
 * string of its own, as keptString.
 */
export function keptPath(s: string): string {
  if (s.length <= KEPT_ARG_MAX) return s;
  let head = 30;
  if (isHighSurrogate(s.charCodeAt(head - 1))) head--;
  let tail = s.length - (KEPT_ARG_MAX - 1 - head);
  if (isLowSurrogate(s.charCodeAt(tail))) tail++;
  return JSON.parse(JSON.stringify(s.slice(0, head) + "…" + s.slice(tail))) as string;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * `s`, cut to KEPT_ARG_MAX characters (the last one `…`), as a string of its own: V8 makes a
 * substring of 13 or more characters a view that keeps the whole original alive.
 */
export function keptString(s: string): string {
  if (s.length <= KEPT_ARG_MAX) return s;
  let end = KEPT_ARG_MAX - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  return JSON.parse(JSON.stringify(s.slice(0, end) + "…")) as string;
}
