import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/**
 * A headless chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
 * messages ended by NUL on fds 3 and 4), no library: open a page, evaluate an expression in it
 * (DevTools' own evaluation, outside the page's CSP), close.
 */
export class Cdp {
  private readonly child: ChildProcess;
  private readonly profile: string;
  private next = 1;
  private buf = "";
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(chromium: string) {
    this.profile = mkdtempSync(join(tmpdir(), "cursorlog-cdp-"));
    const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];
    this.child = spawn(chromium, [...flags, `--user-data-dir=${this.profile}`, "--remote-debugging-pipe", "--window-size=800,600", "about:blank"], {
      stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
      // Its own process group: close() ends chromium's helper processes with it.
      detached: true,
    });
    (this.child.stdio[4] as Readable).on("data", (d: Buffer) => {
      this.buf += d.toString("utf8");
      let end: number;
      while ((end = this.buf.indexOf("\0")) !== -1) {
        const msg = JSON.parse(this.buf.slice(0, end)) as { id?: number; result?: unknown; error?: { message: string } };
        this.buf = this.buf.slice(end + 1);
        const w = msg.id !== undefined ? this.waiting.get(msg.id) : undefined;
        if (w === undefined) continue;
        this.waiting.delete(msg.id!);
        if (msg.error) w.reject(new Error(msg.error.message));
        else w.resolve(msg.result);
      }
    });
  }

  send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    const id = this.next++;
    const msg = JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId });
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(msg + "\0");
    });
  }

  /** Opens `url` in a new tab and waits for it to load; returns the session to evaluate in. */
  async open(url: string): Promise<string> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    await this.load(sessionId, url);
    return sessionId;
  }

  /** Navigates the tab to `url` and waits until that document (not the one before it) has loaded. */
  async load(sessionId: string, url: string): Promise<void> {
    await this.send("Page.navigate", { url }, sessionId);
    const check = `location.href === ${JSON.stringify(url)} && document.readyState === "complete"`;
    for (let i = 0; i < 400; i++) {
      if ((await this.evaluate(sessionId, check)) === true) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${url} did not load`);
  }

  async evaluate(sessionId: string, expression: string): Promise<unknown> {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }, sessionId);
    return r.result?.value;
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    try {
      await Promise.race([this.send("Browser.close"), new Promise((r) => setTimeout(r, 5000))]);
    } finally {
      try {
        if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
      } catch {
        // gone already
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      // A helper may write its profile a moment longer: tried again, then left to the system's tmp cleaning.
      for (let i = 0; i < 10; i++) {
        try {
          rmSync(this.profile, { recursive: true, force: true });
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    }
  }
}
