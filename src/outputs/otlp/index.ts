import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { Reporter } from "../../diagnostics.js";
import { escapeControls } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { runStage } from "../shared/run-stage.js";
import { OTLP_TIMES, runSpans, type SpanOptions } from "./spans.js";

export { OtlpSender, type SendOptions } from "./send.js";

export interface OtlpOptions {
  allowIncomplete: boolean;
  /** `--include-content`: tool arguments and results, prompt and answer. */
  content: boolean;
  /** The resource's service.name. */
  serviceName: string;
  /** cursorlog's version, for the instrumentation scope. */
  version: string;
  /** stdout is a terminal: C1 controls and bidi characters in the JSON are written as \u escapes too. */
  escape?: boolean;
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
}

function spanOptions(opts: OtlpOptions): SpanOptions {
  return {
    content: opts.content,
    resource: resourceFromAttributes({ "service.name": opts.serviceName }),
    scope: { name: "cursorlog", version: opts.version },
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
  return runStage({ allowIncomplete: opts.allowIncomplete, content: opts.content, messages: false, times: OTLP_TIMES, agent: opts.agent }, reporter, (run) => {
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
  return runStage({ allowIncomplete: opts.allowIncomplete, content: opts.content, messages: false, times: OTLP_TIMES, agent: opts.agent }, reporter, (run) => {
    const spans = runSpans(run, so);
    queue.push(spans);
    return "\n".repeat(spans.length);
  });
}
