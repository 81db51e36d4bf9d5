import { LineError } from "../input/line-error.js";

/** Steps (instructions visited while the DFA builds a state or the NFA runs) allowed per character tested. */
export const STEPS_PER_CHAR = 32;
/** Steps a line may use beyond that: what cheaper strings left unused, up to this much, carries over. */
export const STEP_SLACK = 2 ** 26;

/**
 * The hard bound on a regex's work. A cached DFA transition is free; building a DFA state or an
 * NFA step costs the instructions it visits. Each string tested adds STEPS_PER_CHAR × (length + 1)
 * to the credit, which carries over from string to string up to STEP_SLACK, so the work for a line
 * is at most STEP_SLACK + STEPS_PER_CHAR × (its characters + its strings), whatever the pattern.
 * A test that runs out throws a LineError. One per compiled pattern.
 */
export class RegexBudget {
  private credit = STEP_SLACK;
  private length = 0;

  constructor(
    private readonly source: string,
    private readonly perChar = STEPS_PER_CHAR,
    private readonly slack = STEP_SLACK,
  ) {}

  /** A new string to test. */
  start(length: number): void {
    this.credit = Math.min(this.credit, this.slack) + this.perChar * (length + 1);
    this.length = length;
  }

  spend(steps: number): void {
    this.credit -= steps;
    if (this.credit < 0) {
      this.credit = 0;
      throw new LineError(
        `regular expression /${this.source}/ is too costly on this line: a string of ${this.length} characters needs more than ${this.perChar} steps per character (the pattern has too many states to cache; simplify it)`,
      );
    }
  }
}
