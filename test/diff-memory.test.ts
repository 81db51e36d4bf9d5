// (shared: its limits are --max-old-space-size caps, which do not depend on the load)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { scaled } from "./helpers/scale.js";

/**
 * README LIMITATIONS: diff holds, for each file a run changed, the whole file before and after,
 * until the run ends; memory grows with one run's files, not with the log. 48 runs each rewrite a
 * different 1 MiB file (one line changed): held all at once that is 96 MiB of text, far past the
 * 48 MiB heap the CLI gets here; held a run at a time it is 2 MiB.
 *
 * A heap cap does not depend on the load: make test runs this file beside others. Sizes (test/helpers/scale.ts):
 * make test runs 24 runs (48 MiB of text held at once: with Node's own ~12 MiB, still past the
 * heap); make stress runs
 * test/stress/diff-memory.test.ts, this file at full size (48 runs).
 */
const RUNS = scaled(24, 48);
const LINES = 16 * 1024; // 64 bytes a line: 1 MiB

function fileText(run: number, changed: boolean): string {
  let s = "";
  for (let i = 0; i < LINES; i++) {
    const line = changed && i === LINES / 2 ? `run ${run} changed this line` : `run ${run} line ${i}`;
    s += line.padEnd(63, ".") + "\n";
  }
  return s;
}

function writeLog(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (let r = 0; r < RUNS; r++) {
      const sid = `00000000-0000-4000-8000-${String(r).padStart(12, "0")}`;
      const file = `/home/dev/app/src/f${r}.txt`;
      const id = `call_${r}\nfc_${r}`;
      const line = (o: object): void => void writeSync(fd, JSON.stringify(o) + "\n");
      line({ type: "system", subtype: "init", cwd: "/home/dev/app", session_id: sid, model: "Auto" });
      line({ type: "tool_call", subtype: "started", call_id: id, tool_call: { editToolCall: { args: { path: file } } }, session_id: sid });
      line({
        type: "tool_call",
        subtype: "completed",
        call_id: id,
        tool_call: {
          editToolCall: {
            args: { path: file },
            result: { success: { path: file, linesAdded: 1, linesRemoved: 1, beforeFullFileContent: fileText(r, false), afterFullFileContent: fileText(r, true) } },
          },
        },
        session_id: sid,
      });
      line({ type: "result", subtype: "success", is_error: false, duration_ms: 1, result: "done", session_id: sid });
    }
  } finally {
    closeSync(fd);
  }
}

test(`diff over ${RUNS} runs each changing a 1 MiB file stays within a 48 MiB heap`, { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-diff-mem-"));
  try {
    const log = join(dir, "runs.ndjson");
    writeLog(log);
    for (const mode of [[], ["--stat"]]) {
      const r = spawnSync(process.execPath, ["--max-old-space-size=48", "bin/cursorlog.js", "diff", ...mode, log], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      assert.equal(r.stderr, "");
      assert.equal(r.status, 0);
      if (mode.length === 0) {
        assert.equal(r.stdout.match(/^diff --git /gm)?.length, RUNS);
        assert.match(r.stdout, new RegExp(`^\\+run ${RUNS - 1} changed this line\\.+$`, "m"));
      } else {
        assert.equal(r.stdout.match(/\| 2 \+-$/gm)?.length, RUNS, r.stdout);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
