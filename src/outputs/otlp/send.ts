import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { escapeControls } from "../../sanitize.js";
import { hideSecrets, secretsOf } from "./settings.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

/** Plain data (a --jobs worker gets it in a message). */
export interface SendOptions {
  /** The full URL spans are posted to (…/v1/traces). */
  url: string;
  /** The URL as messages show it (redacted: see settings.ts). */
  shownUrl: string;
  protocol: OtlpProtocol;
  /** Every header to send: OTEL_EXPORTER_OTLP_(TRACES_)HEADERS, with --header over them. */
  headers: Record<string, string>;
  /** The deadline of one export, from its first byte to its last answer, retries included. */
  timeoutMillis: number;
  compression: "gzip" | "none";
  /** PEM text for https (OTEL_EXPORTER_OTLP_CERTIFICATE, …). */
  tls: { ca?: string; cert?: string; key?: string };
  userAgent: string;
  /**
   * One Int32 shared by every sender of a run (the runners of --jobs): the first send that fails
   * sets it, and from then on no sender sends anything (their runs are dropped quietly: the
   * failure is the run's one message).
   */
  stop?: SharedArrayBuffer;
}

/** What HTTP answers and network errors OTLP/HTTP says to retry (as the OpenTelemetry exporters do). */
const RETRY_STATUS = new Set([429, 502, 503, 504]);
const RETRY_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "EAI_AGAIN", "ENOTFOUND", "ENETUNREACH", "EHOSTUNREACH"]);
/** Retries after the first attempt, and their backoff (ms): 1 s, then ×1.5 up to 5 s, ±20 %. */
const MAX_RETRIES = 5;
const FIRST_BACKOFF = 1000;
const MAX_BACKOFF = 5000;
/** An answer's body is read up to this (no OTLP answer is near it); past it, the rest is not read. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** One attempt's outcome. */
type Attempt =
  /** A 2xx; `body` undefined when it was longer than MAX_ANSWER_BYTES (or cut off): not read. */
  | { kind: "accepted"; body: Buffer | undefined; contentType: string }
  | { kind: "status"; status: number; statusText: string; body: string; retryAfterMs: number | undefined }
  | { kind: "network"; error: Error }
  /** The deadline came first; `status` when the status line had come. */
  | { kind: "timeout"; status: number | undefined; statusText: string };

/**
 * The sink of another sender's failure: the stream stops quietly (the code is the one the
 * pipeline takes for a reader that went away), the run's message is that failure.
 */
class SendStopped extends Error {
  readonly code = "ERR_STREAM_PREMATURE_CLOSE";
  constructor() {
    super("another sender of this run failed: sending stopped");
  }
}

/**
 * Sends spans over OTLP/HTTP (protobuf or JSON, encoded by the OpenTelemetry SDK's serializers):
 * one POST per batch, retried as OTLP says (a refused or reset connection, 429, 502, 503, 504) with
 * exponential backoff or the answer's Retry-After, all of it within one deadline per batch
 * (`timeoutMillis`): whatever the collector does (no TLS handshake, a status line or a body one
 * byte a second), the batch is done or failed when it passes. A 2xx carrying partial_success with
 * rejected spans is a failure. A failure ends the run with one message (the URL redacted, secrets
 * hidden).
 */
export class OtlpSender {
  /** Spans of the runs that ended, waiting for the sink to send them. */
  readonly queue: ReadableSpan[][] = [];
  runs = 0;
  spans = 0;
  /** Where a collector's warning (partial_success with nothing rejected) goes; once per sender. */
  warn: (message: string) => void = () => undefined;
  private warned = false;
  private readonly agent: HttpAgent;
  private readonly https: boolean;
  private readonly target: URL;
  private readonly secrets: string[];
  private readonly stopFlag: Int32Array | undefined;

  constructor(private readonly opts: SendOptions) {
    this.target = new URL(opts.url);
    this.https = this.target.protocol === "https:";
    this.agent = this.https ? new HttpsAgent({ keepAlive: true, ...opts.tls }) : new HttpAgent({ keepAlive: true });
    this.secrets = secretsOf(opts.url, opts.headers);
    this.stopFlag = opts.stop !== undefined ? new Int32Array(opts.stop) : undefined;
  }

  /** Kept for the callers' sake: there is nothing to load. */
  async open(): Promise<void> {}

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
            if (!(err instanceof SendStopped)) this.failure ??= err;
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
        if (!(err instanceof SendStopped)) this.failure = err as Error;
      }
    }
    if (this.failure !== undefined) throw this.failure;
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }

  private inflight: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;

  private stopped(): boolean {
    return this.stopFlag !== undefined && Atomics.load(this.stopFlag, 0) !== 0;
  }

  /** Sends what is queued. Rejects with one line saying what went wrong. */
  private async flush(): Promise<void> {
    const runs = this.queue.splice(0);
    if (runs.length === 0) return;
    if (this.stopped()) throw new SendStopped();
    const spans = runs.flat();
    await this.post(spans);
    this.runs += runs.length;
    this.spans += spans.length;
  }

  /** One export: the attempts, their waits, and the deadline over them all. */
  private async post(spans: ReadableSpan[]): Promise<void> {
    const json = this.opts.protocol === "http/json";
    const encoded = json ? JsonTraceSerializer.serializeRequest(spans) : ProtobufTraceSerializer.serializeRequest(spans);
    if (encoded === undefined) throw this.fail("the spans could not be encoded");
    const gzip = this.opts.compression === "gzip";
    const body = gzip ? gzipSync(encoded) : encoded;
    const headers: OutgoingHttpHeaders = {
      "User-Agent": this.opts.userAgent,
      ...this.opts.headers,
      "Content-Type": json ? "application/json" : "application/x-protobuf",
      "Content-Length": body.byteLength,
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    };
    const deadline = Date.now() + this.opts.timeoutMillis;
    let backoff = FIRST_BACKOFF;
    for (let attempts = 1; ; attempts++) {
      if (this.stopped()) throw new SendStopped();
      const a = await this.attempt(body, headers, deadline);
      if (a.kind === "accepted") return this.accepted(a, spans.length);
      const reason = this.reason(a);
      const retryable = a.kind === "status" ? RETRY_STATUS.has(a.status) : a.kind === "network" && RETRY_CODES.has(String((a.error as NodeJS.ErrnoException).code));
      const after = attempts > 1 ? ` (after ${attempts} attempts)` : "";
      if (!retryable || attempts > MAX_RETRIES) throw this.fail(reason + after);
      const retryAfter = a.kind === "status" ? a.retryAfterMs : undefined;
      const wait = retryAfter ?? Math.min(backoff * (0.8 + Math.random() * 0.4), MAX_BACKOFF);
      backoff *= 1.5;
      if (wait >= deadline - Date.now()) {
        const why =
          attempts > 1
            ? " (after retrying until the export timeout)"
            : retryAfter !== undefined
              ? ` (not retried: its Retry-After of ${Math.ceil(retryAfter / 1000)} s is past the export timeout)`
              : " (not retried: no time left before the export timeout)";
        throw this.fail(reason + why);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** A 2xx: the spans are the collector's, unless its answer says it rejected some (partial_success). */
  private accepted(a: Extract<Attempt, { kind: "accepted" }>, count: number): void {
    if (a.body === undefined || a.body.length === 0) return;
    // Read as the answer says it is written (a collector may answer JSON to protobuf); an answer
    // in neither encoding (text/plain "OK") carries no partial_success.
    const type = a.contentType.toLowerCase();
    const json = type.includes("json") || (type === "" && this.opts.protocol === "http/json");
    if (!json && type !== "" && !type.includes("protobuf")) return;
    const partial = partialSuccess(a.body, json);
    if (partial === undefined) return;
    const why = partial.message !== "" ? `: ${partial.message.slice(0, 300)}` : "";
    if (partial.rejected > 0) throw this.fail(`the collector rejected ${partial.rejected} of ${count} span${count === 1 ? "" : "s"}${why}`);
    if (why !== "" && !this.warned) {
      this.warned = true;
      this.warn(this.clean(`the collector at ${this.opts.shownUrl} accepted the spans with a warning${why}`));
    }
  }

  /** One POST, settled by its answer, its error, or the deadline (which ends it wherever it is). */
  private attempt(body: Uint8Array, headers: OutgoingHttpHeaders, deadline: number): Promise<Attempt> {
    return new Promise((resolve) => {
      let settled = false;
      let res: IncomingMessage | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      let req: ClientRequest | undefined;
      let timer: NodeJS.Timeout | undefined;
      const done = (a: Attempt) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        resolve(a);
      };
      const answered = (r: IncomingMessage): Attempt => {
        const status = r.statusCode ?? 0;
        if (status >= 200 && status <= 299) return { kind: "accepted", body: size > MAX_ANSWER_BYTES ? undefined : Buffer.concat(chunks), contentType: String(r.headers["content-type"] ?? "") };
        return { kind: "status", status, statusText: r.statusMessage ?? "", body: Buffer.concat(chunks).toString("utf8"), retryAfterMs: retryAfterMs(r.headers["retry-after"]) };
      };
      timer = setTimeout(
        () => {
          // A failing answer already known is that answer; a 2xx whose body has not ended is not
          // yet an acceptance (its partial_success is unknown).
          const status = res?.statusCode;
          if (res !== undefined && status !== undefined && (status < 200 || status > 299)) done(answered(res));
          else done({ kind: "timeout", status, statusText: res?.statusMessage ?? "" });
          req?.destroy();
        },
        Math.max(0, deadline - Date.now()),
      );
      try {
        req = (this.https ? httpsRequest : httpRequest)(this.target, { method: "POST", headers, agent: this.agent });
      } catch (err) {
        return done({ kind: "network", error: err as Error });
      }
      req.on("error", (error) => done({ kind: "network", error }));
      req.on("response", (r) => {
        res = r;
        r.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) {
            done(answered(r));
            req!.destroy();
            return;
          }
          chunks.push(c);
        });
        r.on("end", () => done(answered(r)));
        // Cut off after its status: a 2xx is taken (the spans were accepted), its body unread.
        const cut = () => {
          if (settled) return;
          size = MAX_ANSWER_BYTES + 1;
          done(answered(r));
        };
        r.on("error", cut);
        r.on("close", cut);
      });
      req.end(body);
    });
  }

  private reason(a: Exclude<Attempt, { kind: "accepted" }>): string {
    const t = this.opts.timeoutMillis;
    switch (a.kind) {
      case "status": {
        const body = a.body.trim().slice(0, 200);
        return `the collector answered ${a.status}${a.statusText !== "" ? ` ${a.statusText}` : ""}${body !== "" ? `: ${body}` : ""}`;
      }
      case "network":
        return a.error.message.trim() !== "" ? a.error.message.trim() : String((a.error as NodeJS.ErrnoException).code ?? a.error);
      case "timeout":
        return a.status === undefined
          ? `no answer within the export timeout (${t} ms)`
          : `the collector answered ${a.status}${a.statusText !== "" ? ` ${a.statusText}` : ""} but its answer did not end within the export timeout (${t} ms)`;
    }
  }

  /** The run's one message; every other sender of the run stops sending. */
  private fail(reason: string): Error {
    if (this.stopFlag !== undefined) Atomics.store(this.stopFlag, 0, 1);
    return new Error(this.clean(`cannot send spans to ${this.opts.shownUrl}: ${reason}`));
  }

  private clean(message: string): string {
    return escapeControls(hideSecrets(message, this.secrets));
  }
}

/** Retry-After in ms: seconds, or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(v: string | string[] | undefined): number | undefined {
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  if (s === undefined || s === "") return undefined;
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** An ExportTraceServiceResponse's partial_success, or undefined when there is none (or it cannot be read). */
function partialSuccess(body: Buffer, json: boolean): { rejected: number; message: string } | undefined {
  try {
    const r = (json ? JsonTraceSerializer : ProtobufTraceSerializer).deserializeResponse(body) as {
      partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } | null;
    };
    const p = r?.partialSuccess;
    if (p === undefined || p === null || typeof p !== "object") return undefined;
    const n = Number(typeof p.rejectedSpans === "bigint" ? p.rejectedSpans : (p.rejectedSpans ?? 0));
    const message = typeof p.errorMessage === "string" ? p.errorMessage.trim() : "";
    return { rejected: Number.isFinite(n) && n > 0 ? n : 0, message };
  } catch {
    return undefined;
  }
}
