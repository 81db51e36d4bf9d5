import type { JsonObject } from "../../input/record.js";
import type { Call, FileChange, Subagent } from "../../model/call.js";
import type { CallStatus } from "../../model/status.js";
import { PairedCall } from "../paired-call.js";
import type { CallTiming } from "../../model/time.js";
import { isPlainObject, labelOf, nonEmpty, targetOf } from "./items.js";

/** What the reader keeps of a started call item until its item.completed: never the line. */
export interface OpenCodexCall {
  id: string;
  /** Its place in start order within its run, from 1. */
  seq: number;
  line: number;
  tool: string;
  kind: string;
  /** What its target is made of (items.ts argsOf, kept); an item.updated replaces it. */
  args: JsonObject;
}

/** A call's item.completed: the item as logged, with what the reader made of it. */
export interface CodexEnd {
  line: number;
  /** The completed item as logged (for a file_change, the whole item: its changes are the calls). */
  item: JsonObject;
  tool: string;
  kind: string;
  /** The call's arguments as logged (items.ts argsOf). */
  args: JsonObject;
}

/** Items with no `status` of their own (AGENTS §2.2): their item.completed is their success. */
const NO_STATUS = new Set(["web_search", "todo_list"]);

/** No time of any kind: Codex writes none (AGENTS §2.4). */
const NO_TIMING: CallTiming = Object.freeze({}) as CallTiming;

/**
 * A Codex call item as the run model's Call (model/call.ts): an item.started answered by the
 * item.completed of the same `item.id` in its run (AGENTS §2.3); one Call per change of a
 * file_change item.
 *
 * - status (model/status.ts) from the completed item's `status`, the agent's word kept as `arm`:
 *   `completed` ok, `failed` failed, `declined` refused; a web_search or todo_list (no status of
 *   its own) ok once completed; none or `in_progress` at completion no-result; any other word
 *   failed; no completion open.
 * - times: none, ever (AGENTS §2.4: no event carries a time, no item a duration).
 * - exit code: a command's `exit_code` when a number (null while running and when declined).
 * - file change: a change's path and kind only (AGENTS §2.8: no content, no patch).
 */
export class CodexCall extends PairedCall<OpenCodexCall, CodexEnd> implements Call {
  get tool(): string {
    return this.end?.tool ?? this.start?.tool ?? "unknown";
  }

  /** The completion's kind (a web search's action is known at its end), else the start's. */
  get kind(): string {
    return this.end?.kind ?? this.start?.kind ?? "unknown";
  }

  get label(): string {
    return labelOf(this.kind, this.tool);
  }

  get target(): string {
    return targetOf(this.kind, this.args);
  }

  get targetIsPath(): boolean {
    const k = this.kind;
    return (k === "write" || k === "edit" || k === "delete") && this.target !== "";
  }

  targetWith(path: (p: string) => string): string {
    return targetOf(this.kind, this.args, path);
  }

  get status(): CallStatus {
    const e = this.end;
    if (e === undefined) return "open";
    const s = e.item.status;
    if (s === undefined && NO_STATUS.has(String(e.item.type))) return "ok";
    switch (s) {
      case "completed":
        return "ok";
      case "declined":
        return "refused";
      case undefined:
      case null:
      case "in_progress":
        return "no-result";
      default:
        return "failed";
    }
  }

  get arm(): string | undefined {
    return nonEmpty(this.end?.item.status);
  }

  /** `failed, exit 1`, `error: <message>`, `declined`, `failed`, `no result`; "" for ok and open. */
  note(max = 120): string {
    switch (this.status) {
      case "ok":
      case "open":
        return "";
      case "refused":
        return this.arm ?? "refused";
      case "no-result":
        return "no result";
      default: {
        const code = this.exitStatus;
        if (code !== undefined) return `failed, exit ${code}`;
        const msg = this.errorMessage;
        return msg === undefined ? (this.arm === "failed" || this.arm === undefined ? "failed" : this.arm) : `error: ${shorten(msg, max)}`;
      }
    }
  }

  get timing(): CallTiming {
    return NO_TIMING;
  }

  override get exitStatus(): number | undefined {
    if (this.end === undefined || this.kind !== "shell") return undefined;
    const c = this.end.item.exit_code;
    return typeof c === "number" && Number.isInteger(c) ? c : undefined;
  }

  /** A change that succeeded: its path and what it did (`add` created, `update` edited, `delete` deleted); no content. */
  fileChange(): FileChange | undefined {
    if (this.status !== "ok" || !this.writesFiles) return undefined;
    const path = nonEmpty(this.args?.path);
    if (path === undefined) return undefined;
    const k = this.kind;
    return { op: k === "write" ? "create" : k === "delete" ? "delete" : "edit", path };
  }

  get writesFiles(): boolean {
    const k = this.kind;
    return k === "write" || k === "edit" || k === "delete";
  }

  /** A failed command's `aggregated_output` (stdout and stderr interleaved); a failed MCP call's `error.message`. */
  failureText(): { text: string; from: "stderr" | "output" | "error"; inNote?: true } | undefined {
    const e = this.end;
    if (e === undefined || this.status === "ok") return undefined;
    const out = nonBlank(e.item.aggregated_output);
    if (this.kind === "shell" && out !== undefined) return { text: out, from: "output" };
    const msg = this.errorMessage;
    if (msg === undefined) return undefined;
    return msg.includes("\n") ? { text: msg, from: "error" } : { text: msg, from: "error", inNote: true };
  }

  get args(): JsonObject | undefined {
    return this.end?.args ?? this.startInput ?? this.start?.args;
  }

  get argsCut(): boolean {
    return this.end === undefined && this.startInput === undefined && this.start !== undefined;
  }

  /** The completed item as logged. */
  get outcome(): JsonObject | undefined {
    return this.end?.item;
  }

  get mcp(): { server: string | undefined; tool: string | undefined } | undefined {
    if (this.kind !== "mcp") return undefined;
    const a = this.args ?? {};
    return { server: nonEmpty(a.server), tool: nonEmpty(a.tool) };
  }

  /** A collab call's one receiving thread, when it names exactly one; nothing else is logged of the subagent. */
  get subagent(): Subagent | undefined {
    if (this.kind !== "task") return undefined;
    const ids = this.args?.receiver_thread_ids;
    const one = Array.isArray(ids) && ids.length === 1 ? nonEmpty(ids[0]) : undefined;
    return { agentId: one, model: undefined, background: undefined, durationMs: undefined };
  }

  /** An MCP or collab call's `error.message`, when a string. */
  private get errorMessage(): string | undefined {
    const err = this.end?.item.error;
    return isPlainObject(err) ? nonBlank(err.message) : undefined;
  }
}

function nonBlank(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function shorten(s: string, max: number): string {
  const one = s.trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}
