import type { JsonObject } from "../../input/record.js";
import type { Call, FileChange, Subagent } from "../../model/call.js";
import type { CallStatus } from "../../model/status.js";
import { PairedCall } from "../paired-call.js";
import { callTiming, type CallTiming } from "../../model/time.js";
import { kindOf, labelOf, targetEndsWithPath, targetOf } from "./tools.js";

/** The calls asked for in one model turn: their `tool_use` lines came before any of their `tool_result`s (AGENTS §3.3). */
export interface Batch {
  size: number;
}

/**
 * What the reader keeps of a started call (a `tool_use` line) until its `tool_result` comes: its
 * tool and kind, the parameters its target and file change are made of (tools.ts keptArgs), the
 * time of its line, its batch. Never the line.
 */
export interface OpenGeminiCall {
  id: string;
  /** Its place in start order within its run, from 1. */
  seq: number;
  line: number;
  /** The line's `tool_name`, as written ("unknown" without one). */
  tool: string;
  /** tools.ts kindOf(tool). */
  kind: string;
  args: JsonObject | undefined;
  /** Its line's `timestamp` as kept (ReaderOptions.acceptTime), ms. */
  ms: number | undefined;
  batch: Batch;
}

/** A call's `tool_result` line: what it tells. */
export interface GeminiEnd {
  line: number;
  /** Its line's `timestamp` as kept, ms. */
  ms: number | undefined;
  /** `status` as written, when a string (`success`, `error`). */
  status: string | undefined;
  /** `output`, when a string (absent for object displays: write_file, replace, list_directory, …). */
  output: string | undefined;
  /** `error.type` and `error.message`, when strings. */
  errorType: string | undefined;
  errorMessage: string | undefined;
}

/** The error type of a call denied by policy (AGENTS §3.3 Denial). */
const DENIED = "policy_violation";

/**
 * A Gemini CLI tool call as the run model's Call (model/call.ts): a `tool_use` line answered by
 * the `tool_result` line with the same `tool_id` (AGENTS §3.3). Built when the call starts (with
 * its whole parameters), when it completes, and for an open call at its run's end.
 *
 * - status (model/status.ts): no result yet → open; `status: "error"` with `error.type:
 *   "policy_violation"` → refused; `success` → ok (a shell command that exited non-zero is
 *   `success`: Gemini CLI never writes its exit code, §3.9 trap 1, so it is ok here too); any other
 *   word → failed; no `status` → no-result. `arm`: the error's type, else the status word.
 * - times (model/time.ts callTiming): the lines' ISO `timestamp`s; the `tool_result` of a batch of
 *   several calls was stamped when the whole batch ended (§3.4): its source is `batch`.
 * - exit code, signal: never in the stream (§3.3): absent.
 */
export class GeminiCall extends PairedCall<OpenGeminiCall, GeminiEnd> implements Call {
  private timingMemo: CallTiming | undefined;

  get tool(): string {
    return this.start?.tool ?? "unknown";
  }

  get kind(): string {
    return this.start?.kind ?? kindOf(this.tool);
  }

  get label(): string {
    return labelOf(this.kind, this.tool);
  }

  get target(): string {
    return targetOf(this.kind, this.tool, this.args);
  }

  get targetIsPath(): boolean {
    return targetEndsWithPath(this.kind, this.args);
  }

  targetWith(path: (p: string) => string): string {
    return targetOf(this.kind, this.tool, this.args, path);
  }

  get status(): CallStatus {
    const e = this.end;
    if (e === undefined) return "open";
    if (e.status === "success") return "ok";
    if (e.status === undefined) return "no-result";
    return e.status === "error" && e.errorType === DENIED ? "refused" : "failed";
  }

  get arm(): string | undefined {
    return this.end?.errorType ?? this.end?.status;
  }

  /** `permission denied: <message>`, `error: <message>`, `no result`; "" for ok. */
  note(max = 120): string {
    const e = this.end;
    if (e === undefined) return "";
    switch (this.status) {
      case "ok":
        return "";
      case "no-result":
        return "no result";
      case "refused": {
        const why = nonBlank(e.errorMessage);
        return why === undefined ? "permission denied" : `permission denied: ${shorten(why, max)}`;
      }
      default: {
        const msg = nonBlank(e.errorMessage) ?? e.errorType;
        return msg === undefined ? "failed" : `error: ${shorten(msg, max)}`;
      }
    }
  }

  get timing(): CallTiming {
    return (this.timingMemo ??= callTiming({ eventStart: this.start?.ms, eventEnd: this.end?.ms, eventEndBatch: this.batched }));
  }

  /** Its result was stamped when a batch of several calls ended (AGENTS §3.4). */
  private get batched(): boolean {
    return this.end !== undefined && this.start !== undefined && this.start.batch.size > 1;
  }

  /**
   * What a successful write did (AGENTS §3.8): write_file's `content` is the whole file after it,
   * with nothing of the file before (whether it existed is not told: an edit whose before is not in
   * the log); replace's strings have no line numbers and the file around them is not in the log:
   * an edit of its path, no content.
   */
  fileChange(): FileChange | undefined {
    if (this.status !== "ok" || !this.writesFiles) return undefined;
    const a = this.args;
    const path = a !== undefined && typeof a.file_path === "string" && a.file_path !== "" ? a.file_path : undefined;
    if (path === undefined) return undefined;
    const change: FileChange = { op: "edit", path };
    if (this.tool === "write_file" && a !== undefined && typeof a.content === "string") change.after = a.content;
    return change;
  }

  get writesFiles(): boolean {
    return this.kind === "edit";
  }

  /**
   * What it said: the error's message when it did not succeed (quoted by the note when one line);
   * else its `output` (a failing shell command's, reported success).
   */
  failureText(): { text: string; from: "stderr" | "output" | "error"; inNote?: true } | undefined {
    const e = this.end;
    if (e === undefined) return undefined;
    const msg = nonBlank(e.errorMessage);
    if (msg !== undefined && this.status !== "ok") return msg.includes("\n") ? { text: msg, from: "error" } : { text: msg, from: "error", inNote: true };
    const out = nonBlank(e.output);
    return out === undefined ? undefined : { text: out, from: "output" };
  }

  get args(): JsonObject | undefined {
    return this.startInput ?? this.start?.args;
  }

  get argsCut(): boolean {
    return this.startInput === undefined && this.start?.args !== undefined;
  }

  /** The result's `status`, `output`, `error` as logged. */
  get outcome(): JsonObject | undefined {
    const e = this.end;
    if (e === undefined) return undefined;
    const o: JsonObject = {};
    if (e.status !== undefined) o.status = e.status;
    if (e.output !== undefined) o.output = e.output;
    if (e.errorType !== undefined || e.errorMessage !== undefined) {
      const err: JsonObject = {};
      if (e.errorType !== undefined) err.type = e.errorType;
      if (e.errorMessage !== undefined) err.message = e.errorMessage;
      o.error = err;
    }
    return o;
  }

  /** `mcp_<server>_<tool>`: which `_` ends the server's name is not written (AGENTS §3.9 trap 7). */
  get mcp(): { server: string | undefined; tool: string | undefined } | undefined {
    return this.kind === "mcp" ? { server: undefined, tool: undefined } : undefined;
  }

  /** The stream tells nothing of a subagent but the call that ran it. */
  get subagent(): Subagent | undefined {
    return this.kind === "task" ? { agentId: undefined, model: undefined, background: undefined, durationMs: undefined } : undefined;
  }
}

function nonBlank(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function shorten(s: string, max: number): string {
  const one = s.trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}
