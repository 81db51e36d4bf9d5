import type { JsonObject } from "../input/record.js";

/** What every paired dialect keeps of a call's start (its line, the tool the agent named). */
export interface KeptStart {
  readonly line: number;
  readonly tool: string;
}

/**
 * The part of a Call that is the same for the dialects whose calls are a start and an answer on
 * lines of their own (Claude Code, Codex, Gemini CLI; their PairedRun keeps the starts): the call
 * as built from what its run kept of its start and from its answer's line, either of which may be
 * missing (an answer with no start in the run; a call still open). A subclass says what its
 * agent's lines mean; the members a format never holds (a signal, a background task, a parent
 * call, the model call that made it) are absent unless it says otherwise.
 */
export abstract class PairedCall<S extends KeptStart, E extends { readonly line: number }> {
  constructor(
    readonly id: string,
    readonly seq: number,
    /** What was kept of its start (undefined: an answer with no start in the run). */
    protected readonly start: S | undefined,
    /** Its answer (undefined: the call is open). */
    protected readonly end: E | undefined,
    /** The start's arguments whole, for the Call told at the start itself (the run keeps only what outputs read). */
    protected readonly startInput: JsonObject | undefined = undefined,
  ) {}

  /** The tool its start named, when the call has both a start and an answer (else undefined). */
  get startTool(): string | undefined {
    return this.end === undefined ? undefined : this.start?.tool;
  }

  get startLine(): number | undefined {
    return this.start?.line;
  }

  get endLine(): number | undefined {
    return this.end?.line;
  }

  get exitStatus(): number | undefined {
    return undefined;
  }

  get signal(): string | undefined {
    return undefined;
  }

  get backgroundTask(): string | undefined {
    return undefined;
  }

  get parentId(): string | undefined {
    return undefined;
  }

  get responseId(): string | undefined {
    return undefined;
  }
}
