// test-run: scaled
// `cursorlog timeline` over Codex logs (issue 28): a row per call item (a file_change a row per
// change), in start order, every time and duration empty and time_source empty (Codex logs no time
// at all); the status column Codex's own word (completed, failed, declined; the model's bin for a
// web search or a todo list, which have none), the exit code; a call never completed `incomplete`;
// two runs appended numbered apart; the HTML page listing calls without a chart.
// Goldens: test/golden/codex/timeline/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

/** Every column, the opt-in ones included. */
const COLUMNS = "seq,call_id,kind,tool,action,target,status,exit_code,started_at,completed_at,duration_ms,time_source,parent_id,background_end,background_ms,started_line,completed_line";

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push(
    { name: `codex/timeline/${f}`, argv: ["timeline", codexFixture(f)] },
    { name: `codex/timeline/columns-${f}`, argv: ["timeline", "--columns", COLUMNS, codexFixture(f)] },
  );
}
cases.push(
  { name: "codex/timeline/ndjson-file-changes", argv: ["timeline", "--format", "ndjson", "--columns", COLUMNS, codexFixture("file-changes")] },
  { name: "codex/timeline/allow-incomplete-interrupted", argv: ["timeline", "--allow-incomplete", "--columns", "seq,status,time_source", codexFixture("interrupted")] },
  { name: "codex/timeline/agent-codex-forced", argv: ["timeline", "--agent", "codex", "--columns", "seq,kind,status", codexFixture("warnings")] },
  { name: "codex/timeline/html-commands", argv: ["timeline", "--format", "html", codexFixture("commands")] },
  // One table for Cursor, Claude Code and Codex logs together: each file's rows as alone, the header once.
  {
    name: "codex/timeline/mixed",
    argv: ["timeline", "--columns", "file,seq,kind,tool,status,duration_ms,time_source", "test/fixtures/two-sessions.ndjson", codexFixture("resumed"), "test/fixtures/claude/early-2026.ndjson", codexFixture("mcp-web")],
  },
);

goldenTests(cases);
