import type { JsonRecord } from "../input/record.js";
import type { Call } from "../model/call.js";
import type { AgentSaid, Outcome } from "../model/run.js";
import type { Stamp } from "../model/time.js";

/** What a run keeps of a call started and not answered yet: its id and its number in the run. */
export interface OpenStart {
  readonly id: string;
  readonly seq: number;
}

/**
 * The part of a Run that is the same for every dialect whose calls are a start and an answer on
 * lines of their own, paired by id (Claude Code's tool_use / tool_result, Codex's item.started /
 * item.completed, Gemini CLI's tool_use / tool_result): the open calls, kept in start order up to
 * ReaderOptions.maxOpen and only counted past it; the run's start and end as the earliest and
 * latest times its lines give (model/run.ts: from `event`); and its outcome: from its result when
 * it has one (`failedResult` says whether the result says it failed), else cut off once its file
 * ended or the next run began without one (`endCut`), else still running.
 * cursor-agent's runs keep theirs in its SessionTracker (cursor/sessions.ts), which predates this.
 */
export abstract class PairedRun<O extends OpenStart> {
  lastLine: number;
  result: JsonRecord | undefined;
  said: AgentSaid | undefined;
  /** Calls started and not answered, in start order (at most ReaderOptions.maxOpen). */
  readonly open = new Map<string, O>();
  /** Calls started and not answered past maxOpen: only counted. */
  untracked = 0;
  /** Calls started in the run: the next one's seq is this plus one. */
  startedCount = 0;
  private cut = false;
  private startMs = NaN;
  private endMs = NaN;

  constructor(
    readonly index: number,
    readonly file: string,
    readonly startLine: number,
  ) {
    this.lastLine = startLine;
  }

  /** Whether the run's result (this.result, set) says the run failed, in the agent's own terms. */
  protected abstract failedResult(result: JsonRecord): boolean;
  /** An open call (what the run kept of its start) as a Call. */
  protected abstract callOf(open: O): Call;

  get start(): Stamp | undefined {
    return this.startMs === this.startMs ? { ms: this.startMs, from: "event" } : undefined;
  }

  get end(): Stamp | undefined {
    return this.endMs === this.endMs ? { ms: this.endMs, from: "event" } : undefined;
  }

  get outcome(): Outcome {
    const r = this.result;
    if (r !== undefined) return this.failedResult(r) ? "failed" : "finished";
    return this.cut ? "cut-off" : "running";
  }

  get openCount(): number {
    return this.open.size + this.untracked;
  }

  openCalls(limit = Infinity): Call[] {
    const out: Call[] = [];
    for (const open of this.open.values()) {
      if (out.length >= limit) break;
      out.push(this.callOf(open));
    }
    return out;
  }

  *eachOpenCall(): Iterable<Call> {
    for (const open of this.open.values()) yield this.callOf(open);
  }

  /** The run ended without a result (a next run began, or its file ended). */
  endCut(): void {
    if (this.result === undefined) this.cut = true;
  }

  /** A time the log gives in this run widens its start and end. */
  time(ms: number | undefined): void {
    if (ms === undefined) return;
    if (!(ms >= this.startMs)) this.startMs = ms;
    if (!(ms <= this.endMs)) this.endMs = ms;
  }

  /**
   * A call begins on this line: the number it takes in the run, and whether the run keeps it
   * (false past maxOpen, where it is only counted: its answer will find no start).
   */
  begin(maxOpen: number): { seq: number; kept: boolean } {
    const seq = ++this.startedCount;
    if (this.untracked > 0 || this.open.size >= maxOpen) {
      this.untracked++;
      return { seq, kept: false };
    }
    return { seq, kept: true };
  }

  /** The answer to call `id`: its start, taken off the open calls (undefined: not kept, or never seen to start). */
  answer(id: string): O | undefined {
    const start = this.open.get(id);
    if (start !== undefined) this.open.delete(id);
    else if (this.untracked > 0) this.untracked--;
    return start;
  }
}
