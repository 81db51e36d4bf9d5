import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { TestContext } from "node:test";
import { promisify } from "node:util";

// Debian's chromium, headless, driven directly (no puppeteer), for the browser tests of the HTML
// outputs (timeline-html-browser, show-html-browser). CHROMIUM=/path/to/chrome picks another.

const run = promisify(execFile);

export const MISSING = "no chromium installed: install Debian's chromium (apt-get install chromium) or set CHROMIUM=/path/to/chrome to run the browser tests";

function findChromium(): string | undefined {
  const candidates = process.env.CHROMIUM ? [process.env.CHROMIUM] : [];
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) candidates.push(join(dir, name));
  }
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not there: next
    }
  }
  return undefined;
}

/** The browser's executable, or undefined when there is none. */
export const CHROMIUM = findChromium();

/** True (the test skipped, saying what to install) when there is no chromium; under CI=true a failure instead. */
export function noChromium(t: TestContext): boolean {
  if (CHROMIUM !== undefined) return false;
  if (process.env.CI === "true") assert.fail(`${MISSING} (CI=true: .ci/run installs it as root; a CI run without it fails rather than skipping)`);
  t.skip(MISSING);
  return true;
}

/** Headless chromium with ARGS, in a profile of its own removed after; its stdout and stderr (its console with --enable-logging). */
export async function chromium(args: string[], limits: { timeoutMs: number; maxBuffer: number }): Promise<{ stdout: string; stderr: string }> {
  const profile = mkdtempSync(join(tmpdir(), "cursorlog-chromium-"));
  try {
    const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"];
    flags.push("--disable-sync", "--no-first-run", "--hide-scrollbars", `--user-data-dir=${profile}`, "--enable-logging=stderr", "--v=0");
    return await run(CHROMIUM!, [...flags, ...args], { timeout: limits.timeoutMs, killSignal: "SIGKILL", maxBuffer: limits.maxBuffer, env: { ...process.env, TZ: "UTC" } });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
