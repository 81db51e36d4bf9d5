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

export type TimelineColumn = (typeof TIMELINE_COLUMNS)[number];

/** One cell: text, a number we computed, or nothing (empty in CSV/TSV, null in NDJSON). */
export type TimelineCell = string | number | undefined;
