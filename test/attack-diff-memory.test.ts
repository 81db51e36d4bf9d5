// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { scaled } from "./helpers/scale.js";

/**
 * Issue 24, item 9: many edits of one file. `diff` needs the whole file before the first edit and
 * after the last; the edits between must cost nothing once the next one comes. Here one run edits
 * one 32 KiB file 1,200 times (a 77 MiB log): holding each step (its hunks, whose lines were
 * slices keeping both whole texts alive) is ~80 MiB, past the 40 MiB heap the CLI gets here; holding
 * the first before and the last after is 64 KiB.
 *
 * A heap limit (--max-old-space-size) does not depend on the machine's load: this file runs beside
 * others in make test (scripts/run-tests.mjs; an RSS ceiling would not).
 *
 * Sizes (test/helpers/scale.ts): make stress the 1,200 edits, make test 800 (every line changed
 * once; a 51 MiB log): holding each step is then ~53 MiB, still past the 40 MiB heap by more than
 * Node's own ~12 MiB.
 */
const EDITS = scaled(800, 1200);
const LINES = 800; // 41 bytes a line: ~32 KiB
const CWD = "/home/dev/app";
const FILE = `${CWD}/src/big.txt`;
const SID = "00000000-0000-4000-8000-000000000009";

/** The last edit that changed line `i` (edit e changes line e % LINES). */
const lastEdit = (i: number): number => (i === 0 ? LINES * Math.floor(EDITS / LINES) : i + LINES * Math.floor((EDITS - i) / LINES));

/** Line `i` of the file, last changed by edit `by` (0: the version before the run). */
function text(i: number, by: number): string {
  return `line ${String(i).padStart(4, "0")} edit ${String(by).padStart(5, "0")}`.padEnd(40, ".");
}

function writeLog(path: string): void {
  const fd = openSync(path, "w");
  const line = (o: object): void => void writeSync(fd, JSON.stringify(o) + "\n");
  try {
    line({ type: "system", subtype: "init", cwd: CWD, session_id: SID, model: "Auto" });
    // Edit e changes line e % LINES: after 1,200 edits every line has changed, 400 of them twice.
    const lines = Array.from({ length: LINES }, (_, i) => text(i, 0));
    let before = lines.join("\n") + "\n";
    for (let e = 1; e <= EDITS; e++) {
      lines[e % LINES] = text(e % LINES, e);
      const after = lines.join("\n") + "\n";
      const id = `call_${e}\nfc_${e}`;
      line({ type: "tool_call", subtype: "started", call_id: id, tool_call: { editToolCall: { args: { path: FILE } } }, session_id: SID });
      line({
        type: "tool_call",
        subtype: "completed",
        call_id: id,
        tool_call: { editToolCall: { args: { path: FILE }, result: { success: { path: FILE, linesAdded: 1, linesRemoved: 1, beforeFullFileContent: before, afterFullFileContent: after } } } },
        session_id: SID,
      });
      before = after;
    }
    line({ type: "result", subtype: "success", is_error: false, duration_ms: 1, result: "done", session_id: SID });
  } finally {
    closeSync(fd);
  }
}

test(`diff of one file edited ${EDITS} times holds its first and last content only (40 MiB heap)`, { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-diff-mem-"));
  try {
    const log = join(dir, "edits.ndjson");
    writeLog(log);
    for (const mode of [[], ["--stat"]]) {
      const r = spawnSync(process.execPath, ["--max-old-space-size=40", "bin/cursorlog.js", "diff", ...mode, log], { encoding: "utf8", env: { ...process.env, COLUMNS: "80" }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
      assert.equal(r.stderr, "");
      assert.equal(r.status, 0);
      if (mode.length === 0) {
        assert.equal(r.stdout.match(/^diff --git /gm)?.length, 1);
        assert.equal(r.stdout.match(/^@@ /gm)?.length, 1);
        assert.equal(r.stdout.match(/^-line \d{4} edit 00000\.+$/gm)?.length, LINES);
        for (const i of [0, 400, 401]) assert.ok(r.stdout.includes(`\n+${text(i, lastEdit(i))}\n`), `line ${i}: edit ${lastEdit(i)}`);
        assert.equal(r.stdout.match(/^\+line/gm)?.length, LINES);
      } else {
        assert.equal(r.stdout, ` src/big.txt | ${2 * LINES} ${"+".repeat(30)}${"-".repeat(30)}\n 1 file changed, ${LINES} insertions(+), ${LINES} deletions(-)\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
