/**
 * The timeline's columns, in their default order (the documented header). Index = position in
 * the cell array that `timelineCells` builds. Three are named after the log's own fields, as the
 * documented header has always named them.
 */
export const TIMELINE_COLUMNS = [
  "session_id", // as written: a documented column named after the log's field
  "call_id", // as written: a documented column named after the log's field
  "seq",
  "kind",
  "tool",
  "action",
  "target",
  "started_at",
  "completed_at",
  "duration_ms",
  "status",
  "exit_code",
  "model_call_id", // as written: a documented column named after the log's field
  "file",
  "started_line",
  "completed_line",
  "background_end",
  "background_ms",
] as const;

/**
 * Columns written only when --columns names them (their cells follow the default ones'): the
 * default header stays the documented one, one header for every input whatever its agent (a
 * folder of several agents' logs is one table).
 */
export const OPT_IN_TIMELINE_COLUMNS = ["time_source", "parent_id"] as const;

/** Every column --columns accepts, indexed like the cell array. */
export const ALL_TIMELINE_COLUMNS = [...TIMELINE_COLUMNS, ...OPT_IN_TIMELINE_COLUMNS] as const;

export type TimelineColumn = (typeof ALL_TIMELINE_COLUMNS)[number];

/** One cell: text, a number we computed, or nothing (empty in CSV/TSV, null in NDJSON). */
export type TimelineCell = string | number | undefined;
