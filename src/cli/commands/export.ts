import { Command, Option } from "commander";
import type { Reporter } from "../../diagnostics.js";
import { ExitCode } from "../../exit-codes.js";
import type { Stage } from "../../stream/stage.js";
import type { CommandContext } from "../command-context.js";
import type { SharedRaw } from "../config.js";
import type { Io } from "../io.js";
import type { SendOptions } from "../../outputs/otlp/send.js";
import { runCommand } from "../run-command.js";
import { withInputOptions, withJobsOption } from "../shared-options.js";
import { checkHeader, checkUrl, envSettings, envUrl, redactUrl, SettingError, tracesUrl } from "../../outputs/otlp/settings.js";
import { lazy } from "../../lazy.js";

const chromeTraceOutput = lazy(() => import("../../outputs/chrome-trace/index.js"));
const otlpOutput = lazy(() => import("../../outputs/otlp/index.js"));

export const EXPORT_EXAMPLES = `Examples:
  $ cursorlog export run.ndjson > run.otlp.jsonl    # OTLP/JSON, a trace per run
  $ cursorlog export --endpoint http://localhost:4318 logs/   # Jaeger, Tempo
  $ OTEL_EXPORTER_OTLP_ENDPOINT=https://otel.example.com \\
      cursorlog export --send run.ndjson
  $ cursorlog export --format chrome-trace run.ndjson > run.json  # perfetto
`;

export const EXPORT_HELP = `
Formats:
  otlp-json     OTLP/JSON TracesData (the OpenTelemetry protocol's JSON encoding, as a collector's
                file exporter writes it), one document per run and line, written as each run ends.
  chrome-trace  Chrome Trace Event JSON for ui.perfetto.dev and chrome://tracing: one process per
                run, one thread per lane of the HTML timeline's Gantt chart, a complete event per
                tool call (target, status, exit code in its args), the agent's messages as instant
                events. One document for all inputs, so no --jobs.

Spans (OpenTelemetry GenAI semantic conventions): one trace per run, its ids a hash of the
session_id, the request_id and each call_id, so exporting a log twice gives the same trace.
  invoke_agent <agent>        the run (cursor-agent, claude-code): gen_ai.operation.name,
                              gen_ai.provider.name (cursor; anthropic for Claude Code; openai
                              for Codex),
                              gen_ai.agent.name, gen_ai.conversation.id (session_id),
                              gen_ai.request.model, gen_ai.usage.* as the result states them
                              (input_tokens counts cached tokens, as the conventions do and the
                              agents' own input counts do not); cursor.cost.usd as the result
                              states it, with cursor.cost.scope=session (Claude Code's
                              total_cost_usd: the session's so far, not to be added up over runs)
                              and cursor.cost.by_model (modelUsage, as JSON); error status and
                              error.type=incomplete for a run without result (the subtype, or
                              "error", for a result with is_error)
  execute_tool <name>         each tool call, a child of the run (a subagent's call, of its
                              invoke_agent subagent span): gen_ai.tool.name, gen_ai.tool.call.id
                              (the call_id exactly), gen_ai.tool.type; error status and error.type
                              (failure, rejected, error, timeout, incomplete, …; for Claude Code,
                              which writes no word, failed or the refusal's) for a call that did
                              not succeed; process.exit.code (shell); mcp.method.name=tools/call
                              (MCP)
  invoke_agent subagent       under each subagent task call
  background_shell            after a background shell's launch, up to its end (a line after the
                              run's result included)
Facts outside the conventions carry a cursor. prefix, for every agent (cursor.request.id,
cursor.cwd, cursor.tool.status, …). Tool arguments and results, the prompt and the answer are left
out unless --include-content (gen_ai.tool.call.arguments, gen_ai.tool.call.result,
gen_ai.input.messages, gen_ai.output.messages).

Times: a call runs from startedAtMs to completedAtMs, else between its events' timestamp_ms (Claude
Code: its lines' timestamp). The run ends at its last logged time and starts at its first, or
earlier when the result's duration_ms says so. A call still open when its run ended runs to the
run's end. A call with no time of its own is a zero-length span at the latest time the log gave up
to its line, with cursor.time.absent=true.
Logs without times (Cursor's 2025 format, Claude Code's before mid-2026, every Codex log) are not
given made-up times: their spans sit at the Unix epoch, zero-length, 1 ns apart in start order,
with cursor.time.unknown=true, and a warning says so (once). A time OTLP cannot hold (before 1970, after
2554-07-21: a negative one, year 9999, 1e308) is taken as absent, with a warning at its line once
per run.

Sending (--endpoint URL, or --send for the endpoint in the environment): OTLP/HTTP, protobuf unless
--protocol http/json; /v1/traces is appended to the URL unless it ends so, as with
OTEL_EXPORTER_OTLP_ENDPOINT. The standard variables apply: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and
OTEL_EXPORTER_OTLP_ENDPOINT (for --send; default http://localhost:4318), OTEL_EXPORTER_OTLP_HEADERS
and _TRACES_HEADERS (with --header added), OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_TIMEOUT
(ms, default 10000: the deadline of one request, retries included, whatever the collector does),
OTEL_EXPORTER_OTLP_COMPRESSION (gzip), OTEL_EXPORTER_OTLP_CERTIFICATE, _CLIENT_CERTIFICATE and
_CLIENT_KEY (PEM files, for https), OTEL_SERVICE_NAME (default: the run's agent, cursor-agent or
claude-code); a value that cannot be used is refused (exit 2). A refused or reset connection, 429,
502, 503 and 504 are retried with backoff until the deadline; what still fails, and a 200 whose
partial_success rejects spans, stops the export with one message (user info and query values of
the URL shown as ***) and exit status 2; with --jobs no runner sends anything after it. The spans
are sent, not written: no -o.

A run without a result (crash, kill, truncated log) is still exported, with an error status; it is
reported on stderr with exit status 4 unless --allow-incomplete. A result with is_error: status 1.
`;

type ExportFormat = "otlp-json" | "chrome-trace";
type Protocol = "http/protobuf" | "http/json";

interface ExportRaw extends SharedRaw {
  format?: ExportFormat;
  endpoint?: string;
  send?: boolean;
  protocol?: Protocol;
  header?: string[];
  serviceName?: string;
  includeContent?: boolean;
  allowIncomplete?: boolean;
}

/** `--header NAME=VALUE`, collected as given: checked in the action, whose messages never quote a value. */
function collectHeader(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The --header options as headers (the last of a name wins); a message names the header, never its value. */
function parseHeaders(given: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of given) {
    const at = h.indexOf("=");
    if (at <= 0 || h.slice(0, at).trim() === "") throw new SettingError("--header: expected NAME=VALUE, e.g. Authorization=Bearer abc");
    const name = h.slice(0, at).trim();
    const value = h.slice(at + 1).trim();
    checkHeader("--header", name, value);
    out[name] = value;
  }
  return out;
}

function envProtocol(env: Io["env"]): string {
  return (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim();
}

export function exportCommand(ctx: CommandContext): Command {
  const cmd = new Command("export")
    .description("export runs as OpenTelemetry traces (OTLP, to a file or a collector) or as a Perfetto / Chrome trace")
    .addHelpText("before", EXPORT_EXAMPLES)
    .addHelpText("after", EXPORT_HELP)
    .addOption(new Option("--format <format>", "otlp-json or chrome-trace").choices(["otlp-json", "chrome-trace"]).default("otlp-json"))
    .addOption(new Option("--endpoint <url>", "send the spans over OTLP/HTTP to this collector instead of writing them"))
    .option("--send", "send the spans to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318)")
    .addOption(new Option("--protocol <protocol>", "how to send: http/protobuf (default, or OTEL_EXPORTER_OTLP_PROTOCOL) or http/json").choices(["http/protobuf", "http/json"]))
    .addOption(new Option("--header <name=value>", "an HTTP header to send (repeatable), beside OTEL_EXPORTER_OTLP_HEADERS").argParser(collectHeader))
    .option("--service-name <name>", "the resource's service.name (default: OTEL_SERVICE_NAME, else the run's agent: cursor-agent, claude-code)")
    .option("--include-content", "add tool arguments and results, the prompt and the answer to the spans (they may hold secrets)")
    .option("--allow-incomplete", "a run without a result is not an error (exit 0); it is exported either way");
  withJobsOption(withInputOptions(cmd)).action((files: string[], raw: ExportRaw) => {
    const format = raw.format ?? "otlp-json";
    const sending = raw.endpoint !== undefined || raw.send === true;
    const fail = (msg: string) => cmd.error(`error: ${msg}`, { exitCode: ExitCode.USAGE_OR_IO });
    if (format === "chrome-trace") {
      const bad = [raw.endpoint !== undefined && "--endpoint", raw.send && "--send", raw.protocol && "--protocol", raw.header && "--header", raw.serviceName !== undefined && "--service-name", raw.includeContent && "--include-content", (raw.jobs ?? 1) > 1 && "--jobs"].filter(Boolean);
      if (bad.length > 0) fail(`${bad.join(", ")} cannot be used with --format chrome-trace`);
    } else if (!sending && (raw.protocol !== undefined || raw.header !== undefined)) {
      fail(`${raw.protocol !== undefined ? "--protocol" : "--header"} needs --endpoint or --send`);
    }
    if (raw.endpoint !== undefined && raw.send === true) fail("--endpoint and --send cannot be used together (--send takes the endpoint from the environment)");
    // The spans go to the collector: -o would only empty its file.
    const output = (raw as { output?: string }).output;
    if (sending && output !== undefined && output !== "-") fail(`-o cannot be used with ${raw.send === true ? "--send" : "--endpoint"}: the spans are sent, nothing is written`);
    let send: SendOptions | undefined;
    if (sending) {
      const p = raw.protocol ?? envProtocol(ctx.io.env);
      if (p === "grpc") fail("OTLP over gRPC is not supported: use http/protobuf (a collector's port 4318)");
      if (p !== "http/protobuf" && p !== "http/json") fail(`unknown OTLP protocol ${JSON.stringify(p)}: use http/protobuf or http/json`);
      try {
        const url = raw.endpoint !== undefined ? tracesUrl(checkUrl("--endpoint", raw.endpoint)) : envUrl(ctx.io.env);
        const env = envSettings(ctx.io.env);
        send = {
          url,
          shownUrl: redactUrl(url),
          protocol: p as Protocol,
          headers: { ...env.headers, ...parseHeaders(raw.header ?? []) },
          timeoutMillis: env.timeoutMillis,
          compression: env.compression,
          tls: env.tls,
          userAgent: `cursorlog/${cmd.parent?.version() ?? "0"}`,
          // The runners of --jobs share it: the first failure stops them all (see OtlpSender).
          stop: new SharedArrayBuffer(4),
        };
      } catch (err) {
        if (err instanceof SettingError) fail(err.message);
        throw err;
      }
    }
    const version = cmd.parent?.version() ?? "0";
    ctx.setRun(async () => {
      const allowIncomplete = raw.allowIncomplete === true;
      if (format === "chrome-trace") {
        const { toChromeTrace } = await chromeTraceOutput();
        const opts = { allowIncomplete, escape: ctx.io.stdoutIsTTY, agent: raw.agent };
        return runCommand(ctx.io, files, raw, (reporter) => toChromeTrace(opts, reporter), "export");
      }
      const otlp = await otlpOutput();
      const opts = {
        allowIncomplete,
        content: raw.includeContent === true,
        // Neither given: each run's agent's name (cursor-agent, claude-code).
        serviceName: raw.serviceName ?? (ctx.io.env.OTEL_SERVICE_NAME?.trim() || undefined),
        version,
        escape: ctx.io.stdoutIsTTY,
        agent: raw.agent,
      };
      // Described as data, so that --jobs can build it in its worker threads (src/jobs/stages.ts).
      if (send === undefined) return runCommand(ctx.io, files, raw, { command: "export", options: opts }, "export");
      const sender = new otlp.OtlpSender(send);
      await sender.open();
      const io: Io = { ...ctx.io, stdout: sender.sink(), stdoutIsTTY: false };
      try {
        // In one thread the runs go to this sender; with --jobs each runner sends its own files' runs.
        const makeStage = (reporter: Reporter): Stage => {
          sender.warn = (message) => reporter.report({ severity: "warning", message, code: ExitCode.OK });
          return otlp.toOtlpQueue(opts, reporter, sender.queue);
        };
        let code: ExitCode;
        try {
          code = await runCommand(io, files, raw, makeStage, "export", { command: "export", options: { ...opts, escape: false, send } });
        } finally {
          await sender.finish(); // a failed send is the error to report, whatever else happened
        }
        return code;
      } finally {
        await sender.close();
      }
    });
  });
  return cmd;
}
