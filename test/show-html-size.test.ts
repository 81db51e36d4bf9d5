// test-run: scaled
// `show --format html` over a log of many calls and 10 MB outputs (issue 29): a page bounded in
// size (each call's block bounded, the page's budget shrinking once it is large), written by a
// converter in a bounded heap (each call's block is written when it completes, nothing kept).
// make test: 1,000 calls; make stress: 10,000 (test/helpers/scale.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ContentBudget } from "../src/outputs/show/html/content.js";
import { scaled } from "./helpers/scale.js";
import { checkPage } from "./helpers/show-html-check.js";

const CALLS = scaled(1_000, 10_000);
/** Calls whose stdout is 10 MB. */
const HUGE = 3;
const HEAP_MIB = 48;
const SID = "00000000-0000-4000-8000-0000000000bb";

function writeLog(path: string): void {
  const fd = openSync(path, "w");
  const line = (o: unknown): void => void writeSync(fd, JSON.stringify(o) + "\n");
  try {
    line({ type: "system", subtype: "init", cwd: "/w", session_id: SID, model: "m" });
    line({ type: "user", message: { role: "user", content: [{ type: "text", text: "go" }] }, session_id: SID });
    const huge = "0123456789abcdef\n".repeat((10 * 1024 * 1024) / 17);
    for (let i = 1; i <= CALLS; i++) {
      const args = { command: `step ${i} <script>x</script>`, workingDirectory: "/w" };
      const stdout = i % Math.floor(CALLS / HUGE) === 0 ? huge : `out ${i}\n`.repeat(200);
      const id = `call_${i}`;
      line({ type: "tool_call", subtype: "started", call_id: id, tool_call: { shellToolCall: { args } }, session_id: SID, timestamp_ms: 1767225600000 + i });
      line({
        type: "tool_call",
        subtype: "completed",
        call_id: id,
        tool_call: { shellToolCall: { args, result: { success: { command: args.command, exitCode: 0, stdout, stderr: "" } } } },
        session_id: SID,
        timestamp_ms: 1767225600000 + i + 1,
      });
    }
    line({ type: "result", subtype: "success", is_error: false, duration_ms: 5, result: "done", session_id: SID });
  } finally {
    closeSync(fd);
  }
}

test(`show --format html: ${CALLS.toLocaleString("en-US")} calls, ${HUGE} of 10 MB output: a bounded page from a ${HEAP_MIB} MiB heap`, { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-size-"));
  try {
    const log = join(dir, "big.ndjson");
    writeLog(log);
    const out = join(dir, "page.html");
    const fd = openSync(out, "w");
    let r;
    try {
      r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, "bin/cursorlog.js", "show", "--format", "html", log], {
        stdio: ["ignore", fd, "pipe"],
        encoding: "utf8",
        env: { ...process.env, TZ: "UTC", NO_COLOR: "1" },
        timeout: 240_000,
      });
    } finally {
      closeSync(fd);
    }
    assert.equal(r.status, 0, r.stderr);
    const size = statSync(out).size;
    const logSize = statSync(log).size;
    // Each call: its line, its arguments and output within the budget, the cut note.
    const perCall = ContentBudget.ARGS_MAX + ContentBudget.OUTPUT_MAX + 2048;
    assert.ok(size < CALLS * perCall * 1.3 + 64 * 1024, `page ${size} bytes for ${CALLS} calls`);
    assert.ok(size < logSize, `the page (${size}) is smaller than the log (${logSize})`);
    const page = readFileSync(out, "utf8");
    const facts = checkPage(page, "big page");
    assert.equal(facts.ids.filter((id) => id.startsWith("r1-c")).length, CALLS, "an anchor per call");
    const cuts = [...page.matchAll(/… ([\d,]+) more characters not shown/g)].map((m) => Number(m[1]!.replace(/,/g, "")));
    assert.ok(cuts.filter((n) => n > 10_000_000 - ContentBudget.OUTPUT_MAX * 2).length === HUGE, `each 10 MB output cut, said (${cuts.length} cuts)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
