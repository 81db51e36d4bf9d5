// test-run: scaled
// `cursorlog show --format html` (issue 29) over fixtures of every agent: the page, byte for byte.
// Goldens: test/golden/show-html/<agent>/. The page's safety whatever the log holds is proved by
// test/show-html.test.ts (a strict reading of hostile pages), its rendering in a browser by
// test/show-html-browser.test.ts.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CLAUDE_FIXTURES, CLAUDE_NESTED, claudeFixture } from "./helpers/claude-fixtures.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const F = "test/fixtures";
const html = (...argv: string[]): string[] => ["show", "--format", "html", ...argv];

const cases: GoldenCase[] = [];
// cursor-agent: calls of every kind, failures and refusals, background shells, a run cut off, two
// runs in a file, several files, the agent CLI's text in the log, hostile values, outputs the log cut.
for (const f of ["2026-long", "2025-shape", "background-shells", "crash-no-result", "hostile", "large-results", "merged-stderr", "rejected-errored", "two-sessions"]) {
  cases.push({ name: `show-html/cursor/${f}`, argv: html(`${F}/${f}.ndjson`) });
}
cases.push(
  { name: "show-html/cursor/thinking-2026-long", argv: html("--thinking", `${F}/2026-long.ndjson`) },
  { name: "show-html/cursor/background", argv: html(`${F}/show/background.ndjson`) },
  { name: "show-html/cursor/diff-combined", argv: html(`${F}/diff/combined.ndjson`) },
  { name: "show-html/cursor/several-files", argv: html(`${F}/2025-shape.ndjson`, `${F}/crash-no-result.ndjson`) },
  { name: "show-html/cursor/lenient-large-results-cut", argv: html("--lenient", `${F}/large-results-cut.ndjson`) },
  { name: "show-html/cursor/no-session", argv: html(`${F}/no-session/empty.ndjson`) },
);
for (const f of CLAUDE_FIXTURES) cases.push({ name: `show-html/claude/${f}`, argv: html(claudeFixture(f)) });
cases.push({ name: "show-html/claude/nested", argv: html(CLAUDE_NESTED) }, { name: "show-html/claude/thinking-subagent", argv: html("--thinking", claudeFixture("subagent")) });
for (const f of CODEX_FIXTURES) cases.push({ name: `show-html/codex/${f}`, argv: html(codexFixture(f)) });
for (const f of GEMINI_FIXTURES) cases.push({ name: `show-html/gemini/${f}`, argv: html(geminiFixture(f)) });

goldenTests(cases);
