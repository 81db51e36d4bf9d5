import { KNOWN_KINDS } from "../dialects/cursor/action.js";
import { editDistance } from "../edit-distance.js";

/**
 * The words people type for `filter --type`, `--tool` and `--status`, mapped to what the log holds.
 * A known value is matched case-insensitively; the words cursorlog itself prints (`failed`,
 * `refused`, `denied`, `tool`) and Cursor's own tool names (`Shell`, `Read`, `Write`, `Grep`,
 * `Delete`, `Task`, `StrReplace`, `bash`) stand for the log's values. A value nothing knows is kept
 * as it is (a log from a newer CLI may hold it) and told on stderr with the known ones.
 */
export interface Resolved {
  /** The values to match in the log. */
  values: string[];
  /** For a value no known type, kind or status has: one line for stderr, else undefined. */
  unknown?: string;
}

/**
 * Event types of cursor-agent's stream-json (FORMAT.md §2, the bundled schemas), then those only
 * Claude Code's has (schemas/claude-code/), Codex's (schemas/codex/) and Gemini CLI's
 * (schemas/gemini/).
 */
export const KNOWN_TYPES = [
  "system",
  "user",
  "assistant",
  "thinking",
  "tool_call",
  "result",
  "connection",
  "retry",
  "interaction_query",
  "stream_event",
  "rate_limit_event",
  "tool_progress",
  "thread.started",
  "turn.started",
  "turn.completed",
  "turn.failed",
  "item.started",
  "item.updated",
  "item.completed",
  "error",
  "init",
  "message",
  "tool_use",
  "tool_result",
] as const;

/** Result arms of a completed tool call (FORMAT.md §5.3). */
export const KNOWN_STATUSES = [
  "success",
  "failure",
  "rejected",
  "error",
  "permissionDenied",
  "readPermissionDenied",
  "writePermissionDenied",
  "timeout",
  "spawnError",
] as const;

const PERMISSION = ["permissionDenied", "readPermissionDenied", "writePermissionDenied"];

const TYPE_WORDS: Record<string, string[]> = {
  tool: ["tool_call"],
  tools: ["tool_call"],
  toolcall: ["tool_call"],
  "tool-call": ["tool_call"],
  tool_calls: ["tool_call"],
  think: ["thinking"],
  init: ["system"],
  message: ["user", "assistant"],
};

/** What cursorlog prints for a call (`text`, `stats`: ok, failed, refused, permission denied, timed out, could not start). */
const STATUS_WORDS: Record<string, string[]> = {
  ok: ["success"],
  succeeded: ["success"],
  successful: ["success"],
  failed: ["failure"],
  fail: ["failure"],
  refused: ["rejected", ...PERMISSION],
  denied: PERMISSION,
  "permission denied": PERMISSION,
  "timed out": ["timeout"],
  timedout: ["timeout"],
  "could not start": ["spawnError"],
  errored: ["error"],
  // Codex's status words (AGENTS.md §2.2): a command declined is refused, an item completed succeeded.
  declined: ["rejected"],
  completed: ["success"],
};

/** Cursor's own tool names (its UI, hooks and --allowed-tools) and other agents' common ones (Claude Code's and Codex's: AGENTS.md §4). */
const TOOL_WORDS: Record<string, string[]> = {
  bash: ["shell"],
  terminal: ["shell"],
  run_terminal_cmd: ["shell"],
  write: ["edit", "write"],
  strreplace: ["edit"],
  str_replace: ["edit"],
  multiedit: ["edit"],
  edit_file: ["edit"],
  read_file: ["read"],
  ls: ["ls"],
  list_dir: ["ls"],
  todowrite: ["updateTodos"],
  todo: ["updateTodos"],
  todos: ["updateTodos"],
  codebase_search: ["semSearch"],
  websearch: ["webSearch"],
  webfetch: ["webFetch"],
  subagent: ["task"],
  agent: ["task"],
  notebookedit: ["edit"],
  taskcreate: ["updateTodos"],
  taskupdate: ["updateTodos"],
  tasklist: ["updateTodos"],
  taskget: ["updateTodos"],
  await: ["await"],
  // Codex's call items (AGENTS.md §4); a value is also matched as written, against the call's tool.
  command_execution: ["shell"],
  file_change: ["write", "edit", "delete"],
  mcp_tool_call: ["mcp"],
  web_search: ["webSearch", "webFetch"],
  todo_list: ["updateTodos"],
  collab_tool_call: ["task"],
};

/** `--type`. */
export function resolveTypes(values: readonly string[]): Resolved {
  return resolve("--type", "event type", values, KNOWN_TYPES, TYPE_WORDS);
}

/** `--status`. */
export function resolveStatuses(values: readonly string[]): Resolved {
  return resolve("--status", "result status", values, KNOWN_STATUSES, STATUS_WORDS);
}

/** `--tool`: a short kind (`shell`) or its key (`shellToolCall`) match as before, in any case. */
export function resolveTools(values: readonly string[]): Resolved {
  const r = resolve("--tool", "tool kind", values, KNOWN_KINDS, TOOL_WORDS, (v) => (/.toolcall$/i.test(v) ? v.slice(0, -8) : v));
  // A value given as a key also matches as written (its `tool`, e.g. a kind no list knows).
  for (const v of values) if (v !== "" && !r.values.includes(v)) r.values.push(v);
  return r;
}

function resolve(
  flag: string,
  what: string,
  values: readonly string[],
  known: readonly string[],
  words: Record<string, string[]>,
  norm: (v: string) => string = (v) => v,
): Resolved {
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  const out = new Set<string>();
  const unknown: string[] = [];
  for (const v of values) {
    const lower = norm(v.trim()).toLowerCase();
    const exact = byLower.get(lower);
    const word = Object.hasOwn(words, lower) ? words[lower] : undefined;
    // A word first: Cursor's Write tool writes through editToolCall (writeToolCall is 2025's).
    if (word !== undefined) for (const w of word) out.add(w);
    else if (exact !== undefined) out.add(exact);
    else {
      out.add(v);
      unknown.push(v);
    }
  }
  const r: Resolved = { values: [...out] };
  if (unknown.length > 0) {
    const near = unknown.map((u) => nearest(norm(u), [...known, ...Object.keys(words)])).filter((n): n is string => n !== undefined);
    const mean = near.length > 0 ? ` (did you mean ${near.map((n) => JSON.stringify(n)).join(" or ")}?)` : "";
    const shown = unknown.map((u) => JSON.stringify(u)).join(", ");
    r.unknown = `${flag} ${shown}: no ${what} cursorlog knows, matched as written${mean}; known: ${known.join(", ")}`;
  }
  return r;
}

/** The known word closest to `v` (edit distance at most a third of its length, at least 1; or `v` begins it), if one. */
function nearest(v: string, candidates: readonly string[]): string | undefined {
  const lower = v.toLowerCase();
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(lower.length / 3)) + 1;
  for (const c of candidates) {
    const cl = c.toLowerCase();
    const d = cl.startsWith(lower) && lower.length >= 3 ? 1 : editDistance(lower, cl, 3);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
