import type { JsonObject } from "../../input/record.js";
import type { Call, FileChange, FileShown, Replacement, Subagent } from "../../model/call.js";
import type { CallStatus } from "../../model/status.js";
import { PairedCall } from "../paired-call.js";
import { callTiming, type CallTiming } from "../../model/time.js";
import { fileChangeOf, replacementOf, shownOf } from "./file-change.js";
import { idOf, isPlainObject, nonEmpty } from "./lines.js";
import { kindOf, labelOf, mcpOf, targetOf, withCutMarks } from "./tools.js";

/**
 * What the reader keeps of a started call (a `tool_use` block) until its `tool_result` comes: its
 * tool and kind, the members of its input its target is made of (tools.ts keptArgs), the time of
 * its line, the subagent it belongs to, the model response that asked for it. Never the line.
 */
export interface OpenClaudeCall {
  id: string;
  /** Its place in start order within its run, from 1. */
  seq: number;
  line: number;
  /** The block's `name`, as written ("unknown" without one). */
  tool: string;
  /** tools.ts kindOf(tool). */
  kind: string;
  args: JsonObject | undefined;
  /** Its line's `timestamp` as kept (ReaderOptions.acceptTime), ms. */
  ms: number | undefined;
  /** Its line's `parent_tool_use_id`. */
  parentId: string | undefined;
  /** Its line's `message.id` (`msg_…`): the model response that asked for it. */
  modelCallId: string | undefined;
}

/** A refusal told for a call: the agent's word for it, its message, the tool it names. */
export interface Refusal {
  /** `tool_result_meta[].non_execution_kind` (`permission-rule`), else the `system/permission_denied` line's `decision_reason_type` (`rule`), else `permission_denied`; `PreToolUse` for a hook's block told by the result's text alone. */
  word: string;
  /** The `system/permission_denied` line's `message`. */
  message: string | undefined;
  /** The `system/permission_denied` line's `tool_name`. */
  tool: string | undefined;
}

/** A call's `tool_result` block, with what its line tells of it. */
export interface ClaudeEnd {
  line: number;
  /** Its line's `timestamp` as kept, ms. */
  ms: number | undefined;
  /** `is_error: true` (missing means false). */
  isError: boolean;
  /** The block's `content` as text (lines.ts contentText). */
  content: string | undefined;
  /**
   * The line's `tool_use_result` as logged (an object, a string `"Error: …"`, an array), when the
   * line answers this call alone; undefined when it holds several tool_result blocks (which of
   * them it describes is not written).
   */
  result: unknown;
  /** A refusal told for this call (a `system/permission_denied` line before it, its `tool_result_meta`, or a PreToolUse hook's block as its text). */
  refusal: Refusal | undefined;
  /** Its line's `parent_tool_use_id`. */
  parentId: string | undefined;
}

/**
 * A Claude Code tool call as the run model's Call (model/call.ts): a `tool_use` block of an
 * assistant line, answered by the `tool_result` block of a user line with the same id (AGENTS
 * §1.3). Built when the call starts (with its whole input), when it completes, and for an open
 * call at its run's end; facts are computed when asked.
 *
 * - status (model/status.ts): no result yet → open; a refusal told for it → refused; `is_error:
 *   true` → failed; else (is_error false or missing) → ok. Claude Code writes no word for the
 *   outcome: `arm` is the refusal's word, else undefined.
 * - times (model/time.ts callTiming): the `event` clock only, the lines' ISO `timestamp`s (absent
 *   before mid-2026: then no time and no duration). A tool-reported `durationMs` is never a
 *   call's duration.
 * - exit code: a Bash call's, from its result's text `Exit code N` when it failed; 0 when it
 *   succeeded in the foreground (a background one's is not known when it completes); else absent.
 */
export class ClaudeCall extends PairedCall<OpenClaudeCall, ClaudeEnd> implements Call {
  private targetMemo: string | undefined;
  private pathMemo: boolean | undefined;
  private timingMemo: CallTiming | undefined;

  get tool(): string {
    return this.start?.tool ?? this.end?.refusal?.tool ?? "unknown";
  }

  /** tools.ts kindOf; a Write whose result says it created its file is `write`. */
  get kind(): string {
    const kind = this.start?.kind ?? kindOf(this.tool);
    return kind === "edit" && this.tool === "Write" && this.result?.type === "create" ? "write" : kind;
  }

  get label(): string {
    return labelOf(this.kind, this.tool);
  }

  get target(): string {
    if (this.targetMemo === undefined) {
      let path = false;
      this.targetMemo = targetOf(this.kind, this.tool, this.args, (p) => {
        path = true;
        return p;
      });
      this.pathMemo = path;
    }
    return this.targetMemo;
  }

  get targetIsPath(): boolean {
    void this.target;
    return this.pathMemo === true;
  }

  targetWith(path: (p: string) => string): string {
    return targetOf(this.kind, this.tool, this.args, path);
  }

  get status(): CallStatus {
    const e = this.end;
    if (e === undefined) return "open";
    if (e.refusal !== undefined) return "refused";
    return e.isError ? "failed" : "ok";
  }

  get arm(): string | undefined {
    return this.end?.refusal?.word;
  }

  /** `permission denied: <message>`, `failed, exit 1`, `error: <message>`; "" for ok. */
  note(max = 120): string {
    const e = this.end;
    if (e === undefined) return "";
    switch (this.status) {
      case "ok":
        return "";
      case "refused": {
        const why = nonBlank(e.refusal?.message) ?? nonBlank(this.errorText);
        return why === undefined ? "permission denied" : `permission denied: ${shorten(why, max)}`;
      }
      default: {
        const code = this.exitStatus;
        if (code !== undefined) return `failed, exit ${code}`;
        const msg = nonBlank(this.errorText);
        return msg === undefined ? "failed" : `error: ${shorten(msg, max)}`;
      }
    }
  }

  get timing(): CallTiming {
    return (this.timingMemo ??= callTiming({ eventStart: this.start?.ms, eventEnd: this.end?.ms }));
  }

  override get exitStatus(): number | undefined {
    if (this.end === undefined || this.kind !== "shell") return undefined;
    const status = this.status;
    if (status === "ok") return this.backgroundTask === undefined && this.result?.interrupted !== true ? 0 : undefined;
    if (status !== "failed") return undefined;
    const m = /^Exit code (\d{1,9})(?:\r?\n|$)/.exec(this.end.content ?? "");
    return m === null ? undefined : Number(m[1]);
  }

  /** A background shell's `backgroundTaskId`, or an async subagent's `agentId` (`isAsync: true`), on success. */
  override get backgroundTask(): string | undefined {
    const r = this.result;
    if (r === undefined || this.status !== "ok") return undefined;
    if (this.kind === "shell") return idOf(r.backgroundTaskId);
    if (this.kind === "task" && r.isAsync === true) return idOf(r.agentId);
    return undefined;
  }

  override get parentId(): string | undefined {
    return this.start?.parentId ?? this.end?.parentId;
  }

  override get responseId(): string | undefined {
    return this.start?.modelCallId;
  }

  fileChange(): FileChange | undefined {
    const r = this.result;
    if (r === undefined || this.status !== "ok" || !this.writesFiles) return undefined;
    const a = this.args;
    const argPath = a === undefined ? undefined : nonEmpty(a.file_path) ?? nonEmpty(a.notebook_path);
    return fileChangeOf(this.tool, r, argPath);
  }

  /** A successful Read's file (file-change.ts shownOf): from its `tool_use_result.file`, else its numbered text. */
  fileShown(): FileShown | undefined {
    if (this.tool !== "Read" || this.status !== "ok") return undefined;
    const a = this.args;
    return shownOf(this.result, this.end?.content, a, a === undefined ? undefined : nonEmpty(a.file_path));
  }

  /** An Edit's strings, for the Call told at its start (its input whole: file-change.ts replacementOf). */
  replacement(): Replacement | undefined {
    const input = this.startInput;
    if (this.tool !== "Edit" || input === undefined) return undefined;
    return replacementOf(input, nonEmpty(input.file_path));
  }

  get writesFiles(): boolean {
    const k = this.kind;
    return k === "edit" || k === "write";
  }

  /**
   * What it said: its result's `stderr` when not blank; else its content (a failed shell's output,
   * `Exit code N` first; another failure's or a refusal's message, which the note quotes when it
   * is one line); else its `stdout`.
   */
  failureText(): { text: string; from: "stderr" | "output" | "error"; inNote?: true } | undefined {
    if (this.end === undefined) return undefined;
    const r = this.result ?? {};
    const stderr = nonBlank(r.stderr);
    if (stderr !== undefined) return { text: stderr, from: "stderr" };
    const text = nonBlank(this.errorText);
    const status = this.status;
    if (text !== undefined) {
      if (status === "ok" || (status === "failed" && this.exitStatus !== undefined)) return { text, from: "output" };
      return text.includes("\n") ? { text, from: "error" } : { text, from: "error", inNote: true };
    }
    const stdout = nonBlank(r.stdout);
    return stdout === undefined ? undefined : { text: stdout, from: "output" };
  }

  /** The input as logged, for the Call told at its start; what an open call kept of it otherwise (argsCut). */
  get args(): JsonObject | undefined {
    if (this.startInput !== undefined) return this.startInput;
    const kept = this.start?.args;
    return kept === undefined ? undefined : withCutMarks(kept);
  }

  get argsCut(): boolean {
    return this.startInput === undefined && this.start?.args !== undefined;
  }

  get outcome(): JsonObject | undefined {
    return this.result;
  }

  get mcp(): { server: string | undefined; tool: string | undefined } | undefined {
    return this.kind === "mcp" ? mcpOf(this.tool) : undefined;
  }

  /** A subagent's id (an async one's `agentId`), the model its input asked for, whether it runs in background (`isAsync`, else the input's `run_in_background`). */
  get subagent(): Subagent | undefined {
    if (this.kind !== "task") return undefined;
    const a = this.args ?? {};
    const r = this.end === undefined ? {} : (this.result ?? {});
    const background = typeof r.isAsync === "boolean" ? r.isAsync : typeof a.run_in_background === "boolean" ? a.run_in_background : undefined;
    return { agentId: nonEmpty(r.agentId), model: nonEmpty(a.model), background, durationMs: undefined };
  }

  /** The result's `tool_use_result` when an object. */
  private get result(): JsonObject | undefined {
    const r = this.end?.result;
    return isPlainObject(r) ? r : undefined;
  }

  /** The content as text, a `<tool_use_error>…</tool_use_error>` wrapper taken off. */
  private get errorText(): string | undefined {
    const c = this.end?.content;
    if (c === undefined) return undefined;
    const m = /^<tool_use_error>([\s\S]*)<\/tool_use_error>$/.exec(c);
    return m === null ? c : m[1];
  }
}

function nonBlank(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function shorten(s: string, max: number): string {
  const one = s.trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}
