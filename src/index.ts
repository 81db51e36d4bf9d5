/**
 * cursorlog as a library: the conversions as Node Transforms, and the event model under them
 * (README.md, "Library"). Input may be gzip; colours are off unless `colors: true`.
 *
 *   import { ndjsonTransform, toActionsText } from "cursorlog";
 *   process.stdin.pipe(ndjsonTransform((r) => toActionsText({ verbose: true }, r))).pipe(process.stdout);
 */
export { ndjsonTransform, type NdjsonTransformOptions } from "./stream/ndjson-transform.js";
export { toTransform } from "./stream/to-transform.js";
export { runStage } from "./stream/run-stage.js";
export type { Stage } from "./stream/stage.js";

export { toResultJson, toJsonResult, type ResultJsonOptions } from "./outputs/json/index.js";
export { toActionsText, formatAction, type ActionsTextOptions } from "./outputs/text/index.js";
export { toFilteredEvents, type FilterOptions } from "./outputs/filter/index.js";
export { toTimelineCsv, type TimelineOptions } from "./outputs/timeline/index.js";
export { toStats, type StatsOptions } from "./outputs/stats/index.js";
export { toRuns, runRow, runsWriter, RUNS_COLUMNS, ALL_RUNS_COLUMNS, type RunsOptions, type RunRow, type RunsColumn } from "./outputs/runs/index.js";
export { toShow, type ShowOptions } from "./outputs/show/index.js";
export { toDiff, type DiffOptions } from "./outputs/diff/index.js";
export type { ColorsOption } from "./outputs/shared/colors.js";

// The run model, the driver that hands it to an output, and the dialect that reads a log's format
// (docs/ARCHITECTURE.md): an output of your own is a RunSink given to drive().
export { drive, type RunSink, type DriverOptions, type Out } from "./driver/driver.js";
export { cursorDialect } from "./dialects/cursor/reader.js";
export type { Dialect, DialectReader, ReaderOptions } from "./dialects/dialect.js";
export type { Run, Outcome, Usage, AgentId, AgentSaid, Step as RunStep } from "./model/run.js";
export type { Call, BackgroundEnd, FileChange } from "./model/call.js";
export { CALL_STATUSES, type CallStatus } from "./model/status.js";
export { callTiming, type Stamp, type CallTiming, type TimeSource } from "./model/time.js";
export { RunText } from "./model/text.js";

export { readInputs, STDIN_NAME, type InputBatch, type InputOptions } from "./input/read-inputs.js";
export type { JsonObject, JsonRecord, Problem, InputItem } from "./input/record.js";
export { SessionTracker, type Session, type Step, type OpenCall, type CompletedCall } from "./dialects/cursor/sessions.js";
export { toolCallOf, type ToolCall } from "./dialects/cursor/tool-call.js";
export { actionLabel, actionTarget, statusNote } from "./dialects/cursor/action.js";
export { AssistantText } from "./dialects/cursor/assistant-text.js";
export * from "./dialects/cursor/types.js";

export { Reporter, formatDiagnostic, type Diagnostic } from "./diagnostics.js";
export { ExitCode } from "./exit-codes.js";
export { escapeControls } from "./sanitize.js";
export { main, VERSION, type Io } from "./cli/main.js";
