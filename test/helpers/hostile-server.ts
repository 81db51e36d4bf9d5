import { spawn } from "node:child_process";
import { createServer, type Socket } from "node:net";
import type { TestContext } from "node:test";

// Hostile collectors for `export --endpoint` (test/attack-export*.test.ts): a TCP server on loopback
// that hands each connection to a function (say nothing, answer a byte at a time, hang up), and
// the built executable run to its exit, bounded. What a test measures in time is measured on the
// server's side (from its first connection to the process's exit), so node's start-up does not
// count.

export const BIN = "bin/cursorlog.js";
const BASE_ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Date.now() when the process exited. */
  exitAt: number;
}

/** Runs the built cursorlog to its exit; killed after `boundMs` (the promise then rejects). */
export function runBuilt(args: string[], env: Record<string, string> = {}, boundMs = 20_000): Promise<Ran> {
  const child = spawn("node", [BIN, ...args], { env: { ...BASE_ENV, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`cursorlog ${args.join(" ")} did not end within ${boundMs} ms; stderr: ${stderr}`));
    }, boundMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, exitAt: Date.now() });
    });
  });
}

export interface Hostile {
  port: number;
  /** Date.now() of the first connection (0 before). */
  firstAt: number;
  connections: number;
}

/** A TCP server on 127.0.0.1 (a port of its own) that hands each connection to `serve`; closed after the test. */
export async function hostileServer(t: TestContext, serve: (s: Socket) => void): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const h: Hostile = { port: 0, firstAt: 0, connections: 0 };
  const server = createServer((s) => {
    sockets.add(s);
    h.connections++;
    if (h.firstAt === 0) h.firstAt = Date.now();
    s.on("close", () => sockets.delete(s));
    s.on("error", () => undefined);
    serve(s);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  h.port = (server.address() as { port: number }).port;
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return h;
}

/** Once the request's first bytes have come: writes `head`, then `text` a byte every `everyMs`, until done or closed. */
export function drip(s: Socket, head: string, text: string, everyMs = 300): void {
  let started = false;
  s.on("data", () => {
    if (started) return;
    started = true;
    if (head !== "") s.write(head);
    let i = 0;
    const timer = setInterval(() => {
      if (i >= text.length || s.destroyed) return clearInterval(timer);
      s.write(text[i++]!);
    }, everyMs);
    s.on("close", () => clearInterval(timer));
  });
}

/** A status line and headers that take a minute to arrive at a byte every 300 ms. */
export const SLOW_HEAD = `HTTP/1.1 200 OK\r\nX-Pad: ${"a".repeat(200)}\r\nContent-Length: 0\r\n\r\n`;
