import type { AgentSaid, Run } from "../model/run.js";

/** A run as RunSlot keeps it: what the agent CLI's text joins, and how a file's end cuts it off. */
export interface SlotRun extends Run {
  said: AgentSaid | undefined;
  lastLine: number;
  /** The file ended (or the next run began) before its result: it is cut off. */
  endCut(): void;
}

/**
 * The part of a DialectReader that is the same for every dialect whose run ends with its result
 * (Codex's, Gemini CLI's): the run in progress, the agent CLI's text (DialectReader.said) joining
 * it or, with none in progress in that file, waiting for the next, and a file's end cutting off a
 * run without its result. A reader extends it and sets `run` as its lines begin and end runs.
 */
export abstract class RunSlot<R extends SlotRun> {
  protected run: R | undefined;
  /** The CLI's text that no run took yet: the first line of it, and how many more. */
  protected pending: AgentSaid | undefined;

  said(file: string, line: number, text: string): Run | undefined {
    const r = this.run;
    if (r !== undefined && r.result === undefined && r.file === file) {
      if (r.said === undefined) r.said = { line, text, more: 0 };
      else r.said.more++;
      r.lastLine = Math.max(r.lastLine, line);
      return r;
    }
    if (this.pending === undefined) this.pending = { line, text, more: 0 };
    else this.pending.more++;
    return undefined;
  }

  endFile(lastLine: number): Run | undefined {
    const run = this.run;
    this.run = undefined;
    if (run === undefined) return undefined;
    if (run.result === undefined) {
      run.lastLine = Math.max(run.lastLine, lastLine);
      run.endCut();
    }
    return run;
  }

  unclaimed(): AgentSaid | undefined {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }
}
