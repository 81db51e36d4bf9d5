/**
 * The stages of the commands that read logs, as one module that a command loads when it runs:
 * one module to fetch and link at start-up rather than a dozen small ones (the bundle splits at
 * each dynamic import). The HTML timeline, validate and the shell-completion and man-page
 * generators are loaded apart: they are bigger and seldom run.
 */
export { compilePredicate } from "../events/predicate.js";
export { toActionsText } from "./actions-text.js";
export { toFilteredEvents } from "./filter-events.js";
export { rawSkipFor } from "./filter-skip.js";
export { toResultJson } from "./result-json.js";
export { toStatsJson } from "./stats-json.js";
export { toStatsMarkdown } from "./stats-markdown.js";
export { toStats } from "./stats-stage.js";
export { toStatsText } from "./stats-text.js";
export { toTimelineCsv } from "./timeline-csv.js";
