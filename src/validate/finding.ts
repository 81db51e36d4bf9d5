/** The checks of `cursorlog validate`, as named in its diagnostics. */
export type Rule =
  /** The line is not a JSON object (bad JSON, a bare text line, an array, too long). */
  | "parse"
  /** The line is not valid UTF-8 (it was read with U+FFFD in place of the bad bytes). */
  | "utf8"
  /** A key repeated in one object: the last value is used (JSON.parse's and jq's rule). */
  | "duplicate-key"
  /** A JSON Schema keyword failed; the keyword is given too. */
  | "schema"
  | "unknown-type"
  | "unknown-kind"
  /** --strict: a field no schema names. */
  | "unknown-field"
  /** A line of the agent CLI's own text (stderr merged into the log, `2>&1`): a warning, not a parse error. */
  | "agent-message"
  | LifecycleRule;

/** Checks across events (on by default, --no-lifecycle turns them off). */
export type LifecycleRule =
  | "no-init"
  /** A file with no event at all (empty, blank, only the CLI's text): the agent never started. */
  | "no-session"
  | "no-result"
  | "unfinished-call"
  | "duplicate-start"
  | "double-completion"
  | "kind-mismatch"
  | "session-id-change"
  | "orphan-completion"
  | "timestamp-backwards";

/** One problem found at one line of one input. */
export interface Finding {
  file: string;
  line: number;
  severity: "error" | "warning";
  rule: Rule;
  /** JSON Pointer into the event (`/tool_call/shellToolCall/args/command`); "" for the whole line. */
  path: string;
  /** Plain text; values from the log in it are JSON-quoted (not yet escaped for a terminal). */
  message: string;
  /** The failed JSON Schema keyword (rule "schema"). */
  keyword?: string;
  /** Where in the schema (rule "schema"), as ajv reports it. */
  schemaPath?: string;
  /** Other lines of the same file the finding is about (a call's start, an earlier completion…). */
  related?: number[];
}

/** The counts of a run. Lines are JSON values or unparseable lines; blank lines are not counted. */
export interface Summary {
  files: number;
  lines: number;
  /** Lines without an error of their own (parse, schema, unknown-* in strict mode). */
  valid: number;
  invalid: number;
  /** Error and warning diagnostics, lifecycle findings included. */
  errors: number;
  warnings: number;
  /** Of `errors`, those about a session's lifecycle rather than one line (no-result, unfinished-call, …). */
  sessionErrors?: number;
  /** --max-errors N was reached: N, and nothing after that error was checked. */
  stoppedAfter?: number;
}
