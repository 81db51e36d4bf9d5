/**
 * The columns of `cursorlog runs`, one row per run, in their default order. Every value comes from
 * the run model (Run) and stats' summary of the run (SessionStats): runRow builds them.
 */
export const RUNS_COLUMNS = [
  "file",
  "line",
  "agent",
  "session_id",
  "model",
  "started_at",
  "outcome",
  "duration_ms",
  "duration_source",
  "calls",
  "failed_calls",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "usage_scope",
  "cost_usd",
  "message",
] as const;

/** Columns written only when --columns names them (after the default ones in the row object). */
export const OPT_IN_RUNS_COLUMNS = ["last_line", "ended_at", "refused_calls", "open_calls", "prompt"] as const;

/** Every column --columns, --sort and --where accept. */
export const ALL_RUNS_COLUMNS = [...RUNS_COLUMNS, ...OPT_IN_RUNS_COLUMNS] as const;

export type RunsColumn = (typeof ALL_RUNS_COLUMNS)[number];

/**
 * The table's columns when --columns is not given: those that fit a terminal, the message last
 * (it takes the room left). TSV, CSV and NDJSON write RUNS_COLUMNS.
 */
export const TABLE_COLUMNS: readonly RunsColumn[] = [
  "file",
  "line",
  "agent",
  "model",
  "started_at",
  "outcome",
  "duration_ms",
  "calls",
  "failed_calls",
  "input_tokens",
  "output_tokens",
  "cost_usd",
  "message",
];

/** How a run ended: finished, failed (its result says so), error (no result, the agent CLI said why), cut_off (no result, nothing said). */
export type RunsOutcome = "finished" | "failed" | "error" | "cut_off";

/** One cell: text or a number as the log gives it; undefined when the log does not hold it (empty cell, null). */
export type RunsCell = string | number | undefined;

/** One run's row, keyed by column name: plain data, as `runs --format ndjson` writes it (undefined: null). */
export type RunRow = { [C in RunsColumn]: RunsCell } & { outcome: RunsOutcome; file: string; line: number; agent: string };
