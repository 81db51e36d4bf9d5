import { Writable } from "node:stream";
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { escapeControls } from "../../sanitize.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface SendOptions {
  /** The full URL spans are posted to (…/v1/traces), or undefined: the exporter takes it from the environment. */
  url: string | undefined;
  /** What the URL is, for messages (the URL the exporter will use). */
  shownUrl: string;
  protocol: OtlpProtocol;
  /** Extra headers (--header), added to those of OTEL_EXPORTER_OTLP_(TRACES_)HEADERS. */
  headers: Record<string, string>;
  /** How long one export may take, retries included (the exporter's timeoutMillis). */
  timeoutMillis: number | undefined;
}

interface Exporter {
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

/**
 * Sends spans over OTLP/HTTP with the OpenTelemetry JavaScript exporter (protobuf or JSON): its
 * transport retries what OTLP calls retryable (a refused or reset connection, 429, 502, 503, 504)
 * with exponential backoff, within timeoutMillis (default 10 s, or OTEL_EXPORTER_OTLP_TIMEOUT), and
 * reads the standard OTEL_EXPORTER_OTLP_* variables. A failed export ends the run with one message.
 */
export class OtlpSender {
  /** Spans of the runs that ended, waiting for the sink to send them. */
  readonly queue: ReadableSpan[][] = [];
  private exporter: Exporter | undefined;
  runs = 0;
  spans = 0;

  constructor(private readonly opts: SendOptions) {}

  /** Loads the exporter (only an export that sends needs its code). */
  async open(): Promise<void> {
    const config = {
      headers: this.opts.headers,
      ...(this.opts.url !== undefined ? { url: this.opts.url } : {}),
      ...(this.opts.timeoutMillis !== undefined ? { timeoutMillis: this.opts.timeoutMillis } : {}),
    };
    if (this.opts.protocol === "http/json") {
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
      this.exporter = new OTLPTraceExporter(config);
    } else {
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
      this.exporter = new OTLPTraceExporter(config);
    }
  }

  /** The end of the stream: each write sends every run queued so far in one request, and waits for it. */
  sink(): Writable {
    const sink = new Writable({
      highWaterMark: 1,
      write: (_chunk, _enc, done) => {
        const sent = this.flush();
        this.inflight = sent.catch(() => undefined);
        sent.then(
          () => done(),
          (err: Error) => {
            this.failure ??= err;
            done(err);
          },
        );
      },
    });
    // The failure is kept and thrown by finish(), also when it comes after the input ended.
    sink.on("error", () => undefined);
    return sink;
  }

  /** After the input: waits for the request in flight, sends what is left, and throws the first failure. */
  async finish(): Promise<void> {
    await this.inflight;
    if (this.failure === undefined) {
      try {
        await this.flush();
      } catch (err) {
        this.failure = err as Error;
      }
    }
    if (this.failure !== undefined) throw this.failure;
  }

  private inflight: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;

  /** Sends what is queued. Rejects with one line saying what went wrong. */
  private flush(): Promise<void> {
    const runs = this.queue.splice(0);
    if (runs.length === 0) return Promise.resolve();
    const spans = runs.flat();
    return new Promise((resolve, reject) => {
      this.exporter!.export(spans, (r) => {
        if (r.code === 0) {
          this.runs += runs.length;
          this.spans += spans.length;
          resolve();
        } else reject(new Error(this.describe(r.error)));
      });
    });
  }

  async close(): Promise<void> {
    await this.exporter?.shutdown();
  }

  private describe(err: unknown): string {
    const where = `cannot send spans to ${this.opts.shownUrl}`;
    if (err === undefined || err === null) return `${where}: the export failed`;
    const e = err as { code?: unknown; data?: unknown; message?: unknown; name?: unknown };
    if (e.name === "OTLPExporterError" && typeof e.code === "number") {
      const body = typeof e.data === "string" ? e.data.trim().slice(0, 200) : "";
      const status = `${e.code}${typeof e.message === "string" && e.message !== "" ? ` ${e.message}` : ""}`;
      return escapeControls(`${where}: the collector answered ${status}${body !== "" ? `: ${body}` : ""}`);
    }
    const message = typeof e.message === "string" && e.message !== "" ? e.message : String(err);
    const retried = typeof e.code === "string" ? " (after retrying until the export timeout)" : "";
    return escapeControls(`${where}: ${message}${retried}`);
  }
}
