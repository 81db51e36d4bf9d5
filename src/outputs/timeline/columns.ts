/**
 * The timeline's columns, in their default order (the documented header). Index = position in
 * the cell array that `timelineCells` builds.
 */
export const TIMELINE_COLUMNS = [
  "session_id",
  "call_id",
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
  "model_call_id",
  "file",
  "started_line",
  "completed_line",
  "background_end",
  "background_ms",
] as const;

export type TimelineColumn = (typeof TIMELINE_COLUMNS)[number];

/** One cell: text, a number we computed, or nothing (empty in CSV/TSV, null in NDJSON). */
export type TimelineCell = string | number | undefined;
