// test-run: scaled
// `cursorlog timeline` over Gemini CLI logs (issue 28): a row per call, its times from the lines'
// ISO timestamps; a batch of several calls has its results stamped when the whole batch ended:
// time_source event/batch (the duration is the batch's so far, not the call's own); a batch of one,
// event. The status column the agent's word (success, or the error's type: policy_violation,
// file_not_found, …); exit_code always empty (never in the stream). Goldens: test/golden/gemini/timeline/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

/** Every column, the opt-in ones included. */
const COLUMNS = "seq,call_id,kind,tool,action,target,status,exit_code,started_at,completed_at,duration_ms,time_source,parent_id,background_end,background_ms,started_line,completed_line";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) {
  cases.push(
    { name: `gemini/timeline/${f}`, argv: ["timeline", geminiFixture(f)] },
    { name: `gemini/timeline/columns-${f}`, argv: ["timeline", "--columns", COLUMNS, geminiFixture(f)] },
  );
}
cases.push(
  { name: "gemini/timeline/ndjson-batch", argv: ["timeline", "--format", "ndjson", "--columns", COLUMNS, geminiFixture("batch")] },
  { name: "gemini/timeline/allow-incomplete-cut-off", argv: ["timeline", "--allow-incomplete", "--columns", "seq,status,time_source", geminiFixture("cut-off")] },
  { name: "gemini/timeline/html-batch", argv: ["timeline", "--format", "html", geminiFixture("batch")] },
);
goldenTests(cases);
