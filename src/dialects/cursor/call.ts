import type { JsonObject, JsonRecord } from "../../input/record.js";
import type { Call, FileChange, Subagent } from "../../model/call.js";
import type { CallStatus } from "../../model/status.js";
import { callTiming, type CallTiming } from "../../model/time.js";
import { actionLabel, actionTarget, statusNote, statusTone } from "./action.js";
import { fileChangeOf, writesFiles } from "./file-change.js";
import type { OpenCall } from "./sessions.js";
import type { ToolCall } from "./tool-call.js";

/**
 * A cursor-agent tool call as the run model's Call (model/call.ts): the rules of the model applied
 * to cursor-agent's fields (FORMAT.md §5). Built when the call starts (from what the tracker kept
 * of its start), and again when it completes or its run ends with it open. Facts are computed when
 * first asked: an output that prints labels only pays for labels.
 */
export class CursorCall implements Call {
  private labelMemo: string | undefined;
  private targetMemo: string | undefined;
  private pathMemo: boolean | undefined;
  private timingMemo: CallTiming | undefined;

  constructor(
    readonly id: string,
    readonly seq: number,
    /** The call as cursor-agent logged it: the completion merged with its start, or the start alone. */
    readonly raw: ToolCall,
    /** What was kept of the started event (undefined: a completion without a start). */
    private readonly start: OpenCall | undefined,
    /** The completed event (undefined: the call is open). */
    private readonly end: JsonRecord | undefined,
    /** `raw.args` are what was kept of the start (Call.argsCut). */
    readonly argsCut = false,
    /** The completed event's time (its `timestamp_ms`, unless the reader refused it: ReaderOptions.acceptTime). */
    private readonly eventEnd: number | undefined = end === undefined ? undefined : lineTime(end),
  ) {}

  get kind(): string {
    return this.raw.kind;
  }

  get tool(): string {
    return this.raw.tool;
  }

  /** A completion's start's tool (the completion's own, `tool`, may name another). */
  get startTool(): string | undefined {
    return this.end === undefined ? undefined : this.start?.tool;
  }

  get label(): string {
    return (this.labelMemo ??= actionLabel(this.raw));
  }

  get target(): string {
    if (this.targetMemo === undefined) {
      let path = false;
      this.targetMemo = actionTarget(this.raw, (p) => {
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
    return actionTarget(this.raw, path);
  }

  /** Rule (model/status.ts): never completed → open; no result arm → no-result; else by the arm. */
  get status(): CallStatus {
    if (this.end === undefined) return "open";
    if (this.raw.status === undefined) return "no-result";
    return statusTone(this.raw) === "ok" ? "ok" : statusTone(this.raw) === "refused" ? "refused" : "failed";
  }

  get arm(): string | undefined {
    return this.end === undefined ? undefined : this.raw.status;
  }

  note(max?: number): string {
    return this.end === undefined ? "" : statusNote(this.raw, max);
  }

  get timing(): CallTiming {
    if (this.timingMemo === undefined) {
      const c = this.raw;
      this.timingMemo = callTiming({
        callStart: c.startedAtMs,
        callEnd: this.end === undefined ? undefined : c.completedAtMs,
        eventStart: this.start?.timestampMs,
        eventEnd: this.end === undefined ? undefined : this.eventEnd,
      });
    }
    return this.timingMemo;
  }

  get exitStatus(): number | undefined {
    if (this.end === undefined || this.raw.kind !== "shell") return undefined;
    const code = this.raw.outcome?.exitCode;
    return typeof code === "number" && Number.isFinite(code) ? code : undefined;
  }

  get signal(): string | undefined {
    if (this.end === undefined || this.raw.kind !== "shell") return undefined;
    const sig = this.raw.outcome?.signal;
    return typeof sig === "string" && sig !== "" ? sig : undefined;
  }

  get backgroundTask(): string | undefined {
    return this.end === undefined ? undefined : backgroundTaskOf(this.raw);
  }

  get parentId(): string | undefined {
    return undefined;
  }

  get responseId(): string | undefined {
    if (this.start?.modelCallId !== undefined) return this.start.modelCallId;
    const id = this.end?.value.model_call_id;
    return typeof id === "string" && id !== "" ? id : undefined;
  }

  get startLine(): number | undefined {
    return this.start?.line;
  }

  get endLine(): number | undefined {
    return this.end?.line;
  }

  fileChange(): FileChange | undefined {
    return this.end === undefined ? undefined : fileChangeOf(this.raw);
  }

  get writesFiles(): boolean {
    return writesFiles(this.raw);
  }

  failureText(): { text: string; from: "stderr" | "output" | "error"; inNote?: true } | undefined {
    const o = this.raw.outcome ?? {};
    const stderr = nonBlank(o.stderr);
    if (stderr !== undefined) return { text: stderr, from: "stderr" };
    // The note quotes an error or a reason, or names the refusal or time-out; a shell's failure
    // only gives its exit code. (A stderr, even blank, is not what the note says.)
    const inNote = this.raw.status !== "failure" && (o.stderr === undefined || o.stderr === "");
    const output = nonBlank(o.interleavedOutput) ?? nonBlank(o.stdout);
    if (output !== undefined) return inNote ? { text: output, from: "output", inNote } : { text: output, from: "output" };
    const error = nonBlank(o.errorMessage) ?? nonBlank(o.error) ?? nonBlank(o.modelVisibleError) ?? nonBlank(o.reason);
    if (error === undefined) return undefined;
    return inNote ? { text: error, from: "error", inNote } : { text: error, from: "error" };
  }

  get args(): JsonObject | undefined {
    return this.raw.args;
  }

  get outcome(): JsonObject | undefined {
    return this.raw.outcome;
  }

  /** An MCP call's server and tool (FORMAT.md §5: `mcpToolCall` args). */
  get mcp(): { server: string | undefined; tool: string | undefined } | undefined {
    if (this.raw.kind !== "mcp") return undefined;
    const a = this.raw.args ?? {};
    return { server: nonEmpty(a.providerIdentifier) ?? nonEmpty(a.serverIdentifier), tool: nonEmpty(a.toolName) ?? nonEmpty(a.name) };
  }

  /** A task's subagent: its id (the outcome's, else the arguments'), model, background flag and duration as logged. */
  get subagent(): Subagent | undefined {
    if (this.raw.kind !== "task") return undefined;
    const a = this.raw.args ?? {};
    const o: JsonObject = this.end === undefined ? {} : (this.raw.outcome ?? {});
    const d = o.durationMs;
    const durationMs =
      typeof d === "number" && Number.isFinite(d) && (!Number.isInteger(d) || Math.abs(d) <= Number.MAX_SAFE_INTEGER)
        ? d
        : typeof d === "string" && /^\d{1,15}$/.test(d)
          ? Number(d)
          : undefined;
    return {
      agentId: nonEmpty(o.agentId) ?? nonEmpty(a.agentId),
      model: nonEmpty(a.model),
      background: typeof o.isBackground === "boolean" ? o.isBackground : undefined,
      durationMs,
    };
  }
}

/**
 * Members of a tool call that CursorCall's `subagent` and `backgroundTask` read beyond what the
 * action functions read (FIELDS_READ): an output that reads those facts keeps them whole too.
 */
export const SUBAGENT_FIELDS_READ: readonly string[] = ["agentId", "model", "durationMs", "isBackground"];

/**
 * The background task a completed call started (FORMAT.md §5.4, §5.5): a shell whose success
 * carries a `shellId` (only background shells have one; the task_notification's `task_id` is its
 * text), or a subagent task whose success says `isBackground` and names its `agentId`.
 */
export function backgroundTaskOf(call: ToolCall): string | undefined {
  if (call.status !== "success") return undefined;
  const o = call.outcome ?? {};
  if (call.kind === "shell") {
    const id = o.shellId;
    if (typeof id === "number" && Number.isFinite(id)) return String(id);
    return typeof id === "string" && id !== "" ? id : undefined;
  }
  if (call.kind === "task" && (o.isBackground === true || call.args?.isBackground === true)) {
    return typeof o.agentId === "string" && o.agentId !== "" ? o.agentId : undefined;
  }
  return undefined;
}

/** A line's own time: its `timestamp_ms`, when a finite number. */
export function lineTime(rec: JsonRecord): number | undefined {
  const ts = rec.value.timestamp_ms;
  return typeof ts === "number" && Number.isFinite(ts) ? ts : undefined;
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function nonBlank(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}
