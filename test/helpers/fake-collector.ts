import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { TestContext } from "node:test";
import { gunzipSync } from "node:zlib";
import { decodeTraceRequest, traceResponseBody, type DecodedSpan } from "./otlp-proto.js";

// A fake OTLP/HTTP collector on loopback (127.0.0.1, a port of its own): it records every request
// (method, path, headers, body), decodes trace requests (test/helpers/otlp-proto.ts), and answers
// as scripted, a reply per request in turn: a status, a body, headers, a delay, or a dropped
// connection. Once the script runs out it answers 200 with an empty ExportTraceServiceResponse.
//
//   const rx = await fakeCollector(t, { replies: [503, 200] });
//   ... send to rx.url ...
//   await rx.waitFor(2);
//   rx.requests[0].answer === 503

/** One scripted answer. A bare number is `{ status }`. */
export interface Reply {
  /** The status (default 200). */
  status?: number;
  /**
   * The body. Default: for 200, an empty ExportTraceServiceResponse in the request's encoding
   * (no bytes for protobuf, `{}` for JSON); otherwise `collector says no` (text/plain).
   */
  body?: string | Uint8Array;
  /** Its Content-Type (default: the request's for 200, text/plain otherwise). */
  contentType?: string;
  /** More response headers (Retry-After, …). */
  headers?: Record<string, string>;
  /** Wait this long after the request's body before answering. */
  delayMs?: number;
  /** Drop the connection instead of answering (after the delay, if any). */
  destroy?: boolean;
}

/** A reply with partial_success, in the encoding the request used (see traceResponseBody). */
export function partialSuccess(rejectedSpans: number, errorMessage: string, protocol: "protobuf" | "json" = "protobuf"): Reply {
  return {
    status: 200,
    body: traceResponseBody(protocol, { rejectedSpans, errorMessage }),
    contentType: protocol === "json" ? "application/json" : "application/x-protobuf",
  };
}

export interface Received {
  method: string;
  /** The request target (path and query), as sent. */
  path: string;
  /** The request's Content-Type ("" when none). */
  contentType: string;
  /** Request headers, names in lower case (Node's: repeated ones joined). */
  headers: IncomingHttpHeaders;
  /** The body as received, gunzipped when Content-Encoding is gzip. */
  body: Buffer;
  /** The status answered; 0 when the connection was dropped instead. */
  answer: number;
  /** A POST to a path ending in /v1/traces or /traces: its spans, decoded strictly… */
  spans?: DecodedSpan[];
  /** …or why they could not be (also a body that could not be gunzipped). */
  error?: string;
}

export interface CollectorOptions {
  /** The answers, in turn; or a function of the request and its index (0-based). */
  replies?: Array<number | Reply> | ((req: Received, index: number) => number | Reply);
  /** The bound of waitFor (default 20 s). */
  waitMs?: number;
  /** Decode every POST body as a trace request, whatever its path (default: only trace paths). */
  decodeAll?: boolean;
}

export interface FakeCollector {
  port: number;
  /** http://127.0.0.1:PORT (no path). */
  url: string;
  /** Every request so far, in the order they were read; recorded before it is answered. */
  requests: Received[];
  /** Resolves once `n` requests have been recorded; rejects after the bound. */
  waitFor(n: number): Promise<void>;
  /** Stops listening, drops open connections and pending answers (idempotent). */
  close(): Promise<void>;
}

const isTracePath = (p: string) => /\/traces(?:\?|$)/.test(p);

/** Starts a collector; with a TestContext it is closed after the test. */
export async function fakeCollector(t: TestContext | undefined, opts: CollectorOptions = {}): Promise<FakeCollector> {
  const waitMs = opts.waitMs ?? 20_000;
  const script = opts.replies ?? [];
  const requests: Received[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let waiters: Array<() => void> = [];
  let index = 0;

  const replyFor = (rec: Received, i: number): Reply => {
    const r = typeof script === "function" ? script(rec, i) : (script[i] ?? 200);
    return typeof r === "number" ? { status: r } : r;
  };

  const answer = (res: ServerResponse, rec: Received, reply: Reply) => {
    if (reply.destroy) {
      res.socket?.destroy();
      return;
    }
    const status = reply.status ?? 200;
    const json = !rec.contentType.startsWith("application/x-protobuf");
    const body = reply.body ?? (status === 200 ? traceResponseBody(json ? "json" : "protobuf") : "collector says no");
    const type = reply.contentType ?? (status === 200 ? rec.contentType || "application/x-protobuf" : "text/plain");
    const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    res.writeHead(status, { "Content-Type": type, "Content-Length": String(bytes.length), ...reply.headers });
    res.end(bytes);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const i = index++;
      const rec: Received = {
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        answer: 0,
      };
      try {
        if (String(req.headers["content-encoding"] ?? "").toLowerCase() === "gzip") rec.body = gunzipSync(rec.body);
        if (req.method === "POST" && (opts.decodeAll || isTracePath(rec.path))) rec.spans = decodeTraceRequest(rec.body, rec.contentType);
      } catch (e) {
        rec.error = (e as Error).message;
      }
      const reply = replyFor(rec, i);
      rec.answer = reply.destroy ? 0 : (reply.status ?? 200);
      requests.push(rec);
      const w = waiters;
      waiters = [];
      w.forEach((f) => f());
      if (reply.delayMs !== undefined && reply.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer(res, rec, reply);
        }, reply.delayMs);
        timers.add(timer);
      } else answer(res, rec, reply);
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }));
  t?.after(close);

  const waitFor = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== check);
        reject(new Error(`waited ${waitMs} ms for ${n} request(s) to the fake collector; got ${requests.length}`));
      }, waitMs);
      const check = () => {
        if (requests.length >= n) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });

  return { port, url: `http://127.0.0.1:${port}`, requests, waitFor, close };
}
