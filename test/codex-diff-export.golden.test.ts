// test-run: scaled
// Golden tests of diff and export (OTLP/JSON and Chrome trace) over every Codex fixture (issue 28),
// exit statuses included. diff: a Codex log names each file changed and how, never its content, so
// the patch is refused with one line saying why (exit 2) while --stat (with `?` counts and
// `(created)` / `(deleted)`) and --name-only list the files as logged (no cwd is logged to make
// them relative). export: provider `openai`, agent and service name `codex`; no time in the log, so
// spans sit at the epoch, zero-length, in start order, with cursor.time.unknown (Chrome trace:
// time_unknown), and a warning once per command; usage the thread's (cursor.usage.scope: thread),
// gen_ai.usage.input_tokens as logged (Codex's input already holds its cached tokens).
// Goldens under test/golden/codex/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push(
    { name: `codex/diff-${f}`, argv: ["diff", codexFixture(f)] },
    { name: `codex/diff-stat-${f}`, argv: ["diff", "--stat", codexFixture(f)] },
    { name: `codex/diff-names-${f}`, argv: ["diff", "--name-only", codexFixture(f)] },
    { name: `codex/export-otlp-${f}`, argv: ["export", codexFixture(f)] },
    { name: `codex/export-chrome-${f}`, argv: ["export", "--format", "chrome-trace", codexFixture(f)] },
  );
}
cases.push(
  { name: "codex/diff-stat-tty-file-changes", argv: ["diff", "--stat", codexFixture("file-changes")], env: { TZ: "UTC", COLUMNS: "100" }, stdoutIsTTY: true },
  // Arguments and results (the completed item as logged) only when asked for.
  { name: "codex/export-otlp-content-mcp-web", argv: ["export", "--include-content", codexFixture("mcp-web")] },
  { name: "codex/export-otlp-allow-incomplete", argv: ["export", "--allow-incomplete", codexFixture("interrupted")] },
  { name: "codex/export-otlp-service-name", argv: ["export", "--service-name", "ci-agent", codexFixture("commands")] },
  // Cursor, Claude Code and Codex logs in one run: each run its own agent's names; a Cursor patch
  // written, Codex's refused (exit 2).
  { name: "codex/export-otlp-mixed", argv: ["export", "test/fixtures/2026-long.ndjson", codexFixture("resumed"), "test/fixtures/claude/early-2026.ndjson"] },
  { name: "codex/export-chrome-mixed", argv: ["export", "--format", "chrome-trace", "test/fixtures/2026-long.ndjson", codexFixture("resumed")] },
  { name: "codex/diff-mixed", argv: ["diff", "test/fixtures/diff/combined.ndjson", codexFixture("file-changes"), codexFixture("todo-subagents")] },
  { name: "codex/diff-stat-mixed", argv: ["diff", "--stat", "test/fixtures/diff/combined.ndjson", codexFixture("file-changes"), codexFixture("todo-subagents")] },
  { name: "codex/diff-names-all", argv: ["diff", "--name-only", ...CODEX_FIXTURES.map(codexFixture)] },
);
goldenTests(cases);
