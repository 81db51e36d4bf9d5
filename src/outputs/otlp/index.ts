import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { Resource } from "@opentelemetry/resources";
import type { Reporter } from "../../diagnostics.js";
import { runName } from "../../driver/report.js";
import { ExitCode } from "../../exit-codes.js";
import { escapeControls } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import type { RunRecord } from "../shared/run-record.js";
import { runStage } from "../shared/run-stage.js";
import { genAiOf, isTimed, OTLP_TIMES, runSpans, type SpanOptions } from "./spans.js";

export { OtlpSender, type SendOptions } from "./send.js";

export interface OtlpOptions {
  allowIncomplete: boolean;
  /** `--include-content`: tool arguments and results, prompt and answer. */
  content: boolean;
  /** The resource's service.name (--service-name, OTEL_SERVICE_NAME); undefined: each run's agent's name (cursor-agent, claude-code). */
  serviceName?: string | undefined;
  /** cursorlog's version, for the instrumentation scope. */
  version: string;
  /** stdout is a terminal: C1 controls and bidi characters in the JSON are written as \u escapes too. */
  escape?: boolean;
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
}

function spanOptions(opts: OtlpOptions): SpanOptions {
  // One resource per service name: the spans of one service share it (the exporter groups by it).
  const resources = new Map<string, Resource>();
  const resource = (run: Parameters<SpanOptions["resource"]>[0]): Resource => {
    const name = opts.serviceName ?? genAiOf(run).agent;
    let r = resources.get(name);
    if (r === undefined) resources.set(name, (r = resourceFromAttributes({ "service.name": name })));
    return r;
  };
  return { content: opts.content, resource, scope: { name: "cursorlog", version: opts.version } };
}

/**
 * A run with no time at all is exported at the Unix epoch (runSpans): said on stderr at the first
 * such run, for it and any other (once per stage: a folder of 2025 logs is one warning, one per
 * runner with --jobs), so that nobody looks for them at the time they ran; exit status unchanged.
 * Every span of such a run says it too (cursor.time.unknown), its root's and its calls'.
 */
function untimedTeller(reporter: Reporter): (rec: RunRecord) => void {
  let told = false;
  return (rec) => {
    const run = rec.run;
    if (told || isTimed(run)) return;
    told = true;
    reporter.report({
      severity: "warning",
      file: run.file,
      line: run.startLine,
      message: `${runName(run)} has no time in the log: its spans are placed at the Unix epoch, zero-length, 1 ns apart in start order, with cursor.time.unknown=true (no time is made up), as are those of any other run without times`,
      code: ExitCode.OK,
    });
  };
}

/**
 * `cursorlog export --format otlp-json`: one OTLP/JSON TracesData document per run, one per line,
 * written when the run ends, encoded by the OpenTelemetry JavaScript SDK's own serializer (the body
 * an OTLP/HTTP JSON exporter would send).
 */
export function toOtlpJson(opts: OtlpOptions, reporter: Reporter): Stage {
  const so = spanOptions(opts);
  const decoder = new TextDecoder();
  const tellUntimed = untimedTeller(reporter);
  return runStage({ allowIncomplete: opts.allowIncomplete, content: opts.content, messages: false, times: OTLP_TIMES, agent: opts.agent }, reporter, (run) => {
    tellUntimed(run);
    const line = decoder.decode(JsonTraceSerializer.serializeRequest(runSpans(run, so))) + "\n";
    return opts.escape === true ? escapeControls(line.slice(0, -1)) + "\n" : line;
  });
}

/**
 * `cursorlog export --endpoint URL`: each run's spans go to `sender`'s queue; the stage writes one
 * byte per span, which the sender's sink (the stream's end) takes as its cue to send what is queued.
 * The stream's backpressure thus bounds what waits to be sent.
 */
export function toOtlpQueue(opts: OtlpOptions, reporter: Reporter, queue: ReadableSpan[][]): Stage {
  const so = spanOptions(opts);
  const tellUntimed = untimedTeller(reporter);
  return runStage({ allowIncomplete: opts.allowIncomplete, content: opts.content, messages: false, times: OTLP_TIMES, agent: opts.agent }, reporter, (run) => {
    tellUntimed(run);
    const spans = runSpans(run, so);
    queue.push(spans);
    return "\n".repeat(spans.length);
  });
}
