// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { scaled } from "./helpers/scale.js";

/**
 * Issue 24, item 10: `cursor-agent … 2>&1 | cursorlog show` in a retry loop writes its own text
 * line after line before the run's first event. `show` shows such lines under the session's header
 * when it comes: it must keep the first and last few, not all of them. 600,000 lines (45 MiB) are
 * ~100 MiB held, past the 40 MiB heap the CLI gets here. What show needs is ~14 MiB of heap
 * whatever the number of lines (measured: 12 MiB fails, 14 MiB passes, for 50,000 lines as for
 * 600,000), so make test runs 120,000 lines in a 24 MiB heap (held, at ~170 bytes a line, they
 * would be ~20 MiB over show's 14: past the 24 by 10), make stress the 600,000 in 40 MiB
 * (CURSORLOG_STRESS=1, test/helpers/scale.ts).
 *
 * A heap limit (--max-old-space-size) does not depend on the machine's load: this file runs beside
 * others (an RSS ceiling would not).
 */
const LINES = scaled(120_000, 600_000);
const HEAP_MIB = scaled(24, 40);
const SID = "00000000-0000-4000-8000-000000000010";

function writeLog(path: string, session: boolean): void {
  const fd = openSync(path, "w");
  try {
    let buf = "";
    for (let i = 1; i <= LINES; i++) {
      buf += `RetriableError: [unavailable] connection refused, retrying (attempt ${i})\n`;
      if (buf.length > 1 << 20) {
        writeSync(fd, buf);
        buf = "";
      }
    }
    if (session) {
      buf += JSON.stringify({ type: "system", subtype: "init", cwd: "/home/dev/app", session_id: SID, model: "Auto" }) + "\n";
      buf += JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 5, result: "done", session_id: SID }) + "\n";
    }
    writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
}

function show(log: string): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, "bin/cursorlog.js", "show", "--width", "0", log], {
    encoding: "utf8",
    env: { ...process.env, TZ: "UTC", NO_COLOR: "1" },
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const said = (i: number, where = ""): string => `✗ ${where}the agent CLI said: RetriableError: [unavailable] connection refused, retrying (attempt ${i})`;

test(`show keeps the first and last 10 of ${LINES.toLocaleString("en-US")} agent CLI lines before a session (${HEAP_MIB} MiB heap)`, { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-show-mem-"));
  try {
    const log = join(dir, "retries.ndjson");
    writeLog(log, true);
    const r = show(log);
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
    const first = Array.from({ length: 10 }, (_, i) => said(i + 1));
    const last = Array.from({ length: 10 }, (_, i) => said(LINES - 9 + i));
    assert.equal(
      r.stdout,
      [
        `━━ Session 1 · ${SID} ━━━`,
        "model Auto · cwd /home/dev/app",
        `log ${log}:${LINES + 1}`,
        "",
        ...first,
        `✗ the agent CLI said ${LINES - 20} more lines here (lines 11–${LINES - 10}), not shown`,
        ...last,
        "",
        "── ✓ finished · 5ms",
        `   the agent CLI's message at line 1 and ${LINES - 1} more · tokens not in log · no tool calls`,
        "",
      ].join("\n"),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`show of ${LINES.toLocaleString("en-US")} agent CLI lines and no session: one error line (${HEAP_MIB} MiB heap)`, { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-show-mem-"));
  try {
    const log = join(dir, "retries.ndjson");
    writeLog(log, false);
    const r = show(log);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      `cursorlog: error (at ${log}:1): no session in the input; the agent CLI said: RetriableError: [unavailable] connection refused, retrying (attempt 1) (and ${LINES - 1} more lines)\n`,
    );
    assert.equal(r.status, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
