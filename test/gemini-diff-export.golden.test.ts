// test-run: scaled
// Golden tests of diff and export (OTLP/JSON and Chrome trace) over every Gemini CLI fixture
// (test/fixtures/gemini/, AGENTS.md §3's shapes), exit statuses included. diff: the stream names
// no working directory and its paths are absolute, so each change is named and left out of the
// patch with that reason; failed and refused writes listed. export: provider gcp.gen_ai (the
// stream does not say whether the Gemini API or Vertex AI served it), agent and service name
// gemini-cli, the calls of a batch ending at the batch's end. Goldens under test/golden/gemini/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) {
  const path = geminiFixture(f);
  cases.push(
    { name: `gemini/diff-${f}`, argv: ["diff", path] },
    { name: `gemini/diff-stat-${f}`, argv: ["diff", "--stat", path] },
    { name: `gemini/diff-names-${f}`, argv: ["diff", "--name-only", path] },
    { name: `gemini/export-otlp-${f}`, argv: ["export", path] },
    { name: `gemini/export-chrome-${f}`, argv: ["export", "--format", "chrome-trace", path] },
  );
}
cases.push(
  // Arguments, results, prompt and answer only when asked for.
  { name: "gemini/export-otlp-content-denied", argv: ["export", "--include-content", geminiFixture("denied")] },
  { name: "gemini/export-otlp-allow-incomplete", argv: ["export", "--allow-incomplete", geminiFixture("cut-off")] },
  { name: "gemini/export-otlp-service-name", argv: ["export", "--service-name", "ci-agent", geminiFixture("batch")] },
  // Cursor, Claude Code and Gemini CLI logs in one run: each run its own agent's names, runs numbered across files.
  { name: "gemini/export-otlp-with-others", argv: ["export", "test/fixtures/2026-long.ndjson", "test/fixtures/claude/denied.ndjson", geminiFixture("shell-fails")] },
  { name: "gemini/export-chrome-with-others", argv: ["export", "--format", "chrome-trace", "test/fixtures/2026-long.ndjson", "test/fixtures/claude/denied.ndjson", geminiFixture("shell-fails")] },
);
goldenTests(cases);
