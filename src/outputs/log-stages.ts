/**
 * The stages of the commands that read logs, as one module that a command loads when it runs:
 * one module to fetch and link at start-up rather than a dozen small ones (the bundle splits at
 * each dynamic import). The HTML timeline, validate and the shell-completion and man-page
 * generators are loaded apart: they are bigger and seldom run.
 */
export { compilePredicate } from "../query/predicate.js";
export { toActionsText } from "./text/index.js";
export { toFilteredEvents } from "./filter/index.js";
export { rawSkipFor } from "./filter/skip.js";
export { toResultJson } from "./json/index.js";
export { toStatsJson } from "./stats/json.js";
export { toStatsMarkdown } from "./stats/markdown.js";
export { toStats } from "./stats/index.js";
export { toStatsText } from "./stats/text.js";
export { toTimelineCsv } from "./timeline/index.js";
export { toRuns } from "./runs/index.js";
export { toDiff } from "./diff/index.js";
export { toShow } from "./show/index.js";
