// Issue 12 §3: background shells linked to the system/task_notification that ends them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { backgroundTaskOf } from "../src/dialects/cursor/call.js";
import { drive } from "../src/driver/driver.js";
import { TIMELINE_COLUMNS } from "../src/outputs/timeline/columns.js";
import { toTimelineCsv } from "../src/outputs/timeline/index.js";
import { fixtureRecords } from "./helpers/records.js";
import { quietReporter } from "./helpers/reporter.js";

const F = "test/fixtures/background-shells.ndjson";

test("a background shell's task is its shellId as text (a number in the log, a string in the notification)", () => {
  const seen: string[] = [];
  let left: string[] = [];
  const stage = drive(
    {
      callDone(call) {
        if (call.backgroundTask !== undefined) seen.push(`start ${call.backgroundTask} ${call.target} line ${call.endLine}`);
        return undefined;
      },
      backgroundEnd(end) {
        seen.push(`end ${end.taskId} ${end.status} ${end.call === undefined ? "unknown" : end.call.target} ${end.durationMs ?? "-"}`);
        return undefined;
      },
      runEnd(run) {
        left = (run.backgroundRunning?.() ?? []).map((c) => c.backgroundTask!);
        return undefined;
      },
    },
    quietReporter(),
  );
  for (const rec of fixtureRecords(F)) stage.record(rec);
  stage.fileEnd?.(F, 14);
  assert.deepEqual(seen, ["start 7 npm run build:watch line 4", "start b2 npm run dev line 7", "end 7 success npm run build:watch 7441", "end 99 error unknown -"]);
  assert.deepEqual(left, ["b2"]);
  assert.equal(backgroundTaskOf({ tool: "shellToolCall", kind: "shell", status: "failure", outcome: { shellId: 3 } }), undefined, "only a success arm starts a task");
});

test("timeline: a background shell's row, and the rows started after it, wait for its task_notification", () => {
  const reporter = quietReporter();
  const stage = toTimelineCsv({ format: "csv", columns: ["seq", "call_id", "background_ms"], safe: false, header: false, allowIncomplete: false }, reporter);
  const out: Array<[number, string]> = [];
  for (const rec of fixtureRecords(F)) {
    const text = stage.record(rec);
    if (typeof text === "string") out.push([rec.line, text]);
  }
  const end = stage.fileEnd?.(F, 14);
  if (end !== undefined) out.push([0, end]);
  // Shell_0 completes at line 4 but is written with the notification (line 11), Read_1 behind it;
  // Shell_2 ("b2") never ends before the result (line 14): written then, without background columns.
  assert.deepEqual(out, [
    [11, "1,Shell_0,7441\n2,Read_1,\n"],
    [14, "3,Shell_2,\n4,Await_3,\n"],
  ]);
  assert.ok(TIMELINE_COLUMNS.includes("background_end") && TIMELINE_COLUMNS.includes("background_ms"));
});
