// `cursorlog runs` (issue 29): one line per run over fixtures of every agent, in each format
// (tsv, the default in a pipe; csv; ndjson; the table, as on a terminal), --sort, --where,
// --columns, -e's statuses, a folder of several agents' logs (one gzipped), standard input, and
// hostile values (no control character reaches the table raw; CSV/TSV quoting and escaping).
// In-process (runCli). Goldens: test/golden/runs/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CLAUDE_FIXTURES, claudeFixture } from "./helpers/claude-fixtures.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const CURSOR = [
  "2025-shape",
  "2026-long",
  "two-sessions",
  "failed-run",
  "crash-no-result",
  "is-error",
  "background-shells",
  "merged-stderr",
  "partial-output",
  "real-2026",
  "rejected-errored",
  "thinking-only",
  "unknown-events",
  "crlf",
].map((f) => `test/fixtures/${f}.ndjson`);
const MIXED = "test/fixtures/runs/mixed";
const HOSTILE = "test/fixtures/runs/hostile-runs.ndjson";
/** As on a terminal 120 columns wide, without colour. */
const TTY = { stdoutIsTTY: true, env: { TZ: "UTC", NO_COLOR: "1", COLUMNS: "120" } };

const cases: GoldenCase[] = [
  // Every agent, the default format in a pipe (tsv, every default column).
  { name: "runs/cursor", argv: ["runs", ...CURSOR, "test/fixtures/2026-long.ndjson.gz"] },
  { name: "runs/claude", argv: ["runs", ...CLAUDE_FIXTURES.map(claudeFixture)] },
  { name: "runs/codex", argv: ["runs", ...CODEX_FIXTURES.map(codexFixture)] },
  { name: "runs/gemini", argv: ["runs", ...GEMINI_FIXTURES.map(geminiFixture)] },
  // Each format over a folder of every agent's logs (one of them gzipped).
  { name: "runs/mixed-tsv", argv: ["runs", "--format", "tsv", MIXED] },
  { name: "runs/mixed-csv", argv: ["runs", "--format", "csv", MIXED] },
  { name: "runs/mixed-ndjson", argv: ["runs", "--format", "ndjson", MIXED] },
  { name: "runs/mixed-table", argv: ["runs", MIXED], ...TTY },
  { name: "runs/mixed-table-80", argv: ["runs", MIXED], stdoutIsTTY: true, env: { TZ: "UTC", NO_COLOR: "1", COLUMNS: "80" } },
  { name: "runs/mixed-table-width0", argv: ["runs", "--width", "0", MIXED], ...TTY },
  { name: "runs/mixed-table-color", argv: ["runs", "--color", "always", "--format", "table", "-w", "140", MIXED] },
  { name: "runs/mixed-no-header", argv: ["runs", "--no-header", "--columns", "file,line,outcome", MIXED] },
  // Every column, the opt-in ones too.
  {
    name: "runs/mixed-all-columns",
    argv: ["runs", "--format", "ndjson", "--columns", "file,line,last_line,agent,session_id,model,started_at,ended_at,outcome,duration_ms,duration_source,calls,failed_calls,refused_calls,open_calls,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,usage_scope,cost_usd,message,prompt", MIXED],
  },
  // --sort: descending, several keys, --reverse, a table sized to its rows.
  { name: "runs/sort-duration", argv: ["runs", "--sort", "-duration_ms", "--columns", "file,line,duration_ms,duration_source", MIXED, ...CURSOR] },
  { name: "runs/sort-keys", argv: ["runs", "--sort=agent,-calls", "--columns", "agent,calls,file,line", MIXED] },
  { name: "runs/sort-reverse", argv: ["runs", "--sort", "started_at", "--reverse", "--columns", "started_at,file,line", MIXED] },
  { name: "runs/sort-table", argv: ["runs", "--sort", "outcome", MIXED], ...TTY },
  // --where: over any column, repeated (AND), a missing value.
  { name: "runs/where-not-finished", argv: ["runs", "--where", "outcome != finished", "--columns", "file,line,outcome,message", MIXED, ...CURSOR] },
  { name: "runs/where-agent", argv: ["runs", "--format", "ndjson", "--where", "agent == claude", "--columns", "file,agent,outcome,cost_usd", MIXED] },
  { name: "runs/where-and", argv: ["runs", "--where", "calls > 2", "--where", "cost_usd exists", "--columns", "file,calls,cost_usd", ...CLAUDE_FIXTURES.map(claudeFixture)] },
  { name: "runs/where-regex", argv: ["runs", "--where", "model ~ (?i)SONNET", "--columns", "file,line,model", ...CURSOR] },
  // -e: 0 all finished, 1 a failed run, 4 a run without result (4 wins), over the runs written.
  { name: "runs/e-finished", argv: ["runs", "-e", "--columns", "file,outcome", "test/fixtures/two-sessions.ndjson"] },
  { name: "runs/e-failed", argv: ["runs", "-e", "--columns", "file,outcome", "test/fixtures/is-error.ndjson", "test/fixtures/two-sessions.ndjson"] },
  { name: "runs/e-error", argv: ["runs", "-e", "--columns", "file,outcome", "test/fixtures/is-error.ndjson", "test/fixtures/failed-run.ndjson"] },
  { name: "runs/e-cut-off", argv: ["runs", "-e", "--columns", "file,outcome", "test/fixtures/crash-no-result.ndjson"] },
  { name: "runs/e-where", argv: ["runs", "-e", "--where", "outcome == finished", "--columns", "file,outcome", MIXED] },
  { name: "runs/no-e-cut-off", argv: ["runs", "--columns", "file,outcome", "test/fixtures/crash-no-result.ndjson"] },
  // Standard input, as none and as -.
  { name: "runs/stdin", argv: ["runs", "--format", "ndjson"], stdinFile: "test/fixtures/two-sessions.ndjson" },
  { name: "runs/stdin-dash", argv: ["runs", "--columns", "file,line,outcome", "-", "test/fixtures/is-error.ndjson"], stdinFile: "test/fixtures/crash-no-result.ndjson" },
  // Hostile values: escaped in the table and on a terminal; data in a pipe, quoted (csv) or escaped (tsv).
  { name: "runs/hostile-table", argv: ["runs", "--columns", "file,session_id,model,outcome,message,prompt", HOSTILE], ...TTY },
  { name: "runs/hostile-table-color", argv: ["runs", "--color", "always", "--columns", "session_id,model,outcome,message", HOSTILE], ...TTY },
  { name: "runs/hostile-tsv", argv: ["runs", "--format", "tsv", "--columns", "session_id,model,outcome,message,prompt", HOSTILE] },
  { name: "runs/hostile-csv", argv: ["runs", "--format", "csv", "--columns", "session_id,model,outcome,message,prompt", HOSTILE] },
  { name: "runs/hostile-ndjson", argv: ["runs", "--format", "ndjson", "--columns", "session_id,model,outcome,message,prompt", HOSTILE] },
  { name: "runs/hostile-tsv-tty", argv: ["runs", "--format", "tsv", "--columns", "session_id,model,message", HOSTILE], ...TTY },
  { name: "runs/hostile-ndjson-tty", argv: ["runs", "--format", "ndjson", "--columns", "session_id,model,message", HOSTILE], ...TTY },
  { name: "runs/hostile-sorted-table", argv: ["runs", "--sort", "-line", "--columns", "line,model,outcome,message", "-w", "0", HOSTILE], ...TTY },
  // Real captures (test/fixtures/runs/real/README.md): one line per run, the right outcome.
  { name: "runs/real-ndjson", argv: ["runs", "--format", "ndjson", "test/fixtures/runs/real"] },
  { name: "runs/real-e", argv: ["runs", "-e", "--columns", "file,agent,outcome,calls,failed_calls,message", "test/fixtures/runs/real"] },
  // A file that holds no run: the header, and exit 4 as every command.
  { name: "runs/no-run", argv: ["runs", "--columns", "file,outcome", "test/fixtures/no-session/empty.ndjson", "test/fixtures/no-session/stderr-only.ndjson"] },
  // Usage errors: an unknown column (with a suggestion) in --columns, --sort, --where; --reverse alone.
  { name: "runs/bad-columns", argv: ["runs", "--columns", "file,outcme", MIXED] },
  { name: "runs/bad-sort", argv: ["runs", "--sort", "-duraton_ms", MIXED] },
  { name: "runs/bad-where", argv: ["runs", "--where", "agnet == claude", MIXED] },
  { name: "runs/bad-where-op", argv: ["runs", "--where", "calls = 3", MIXED] },
  { name: "runs/reverse-alone", argv: ["runs", "--reverse", MIXED] },
];

goldenTests(cases);
