// test-run: scaled
// `cursorlog stats` over Gemini CLI logs (issue 28): per run its model, prompt, outcome, duration
// (the result's stats.duration_ms; none on a thrown error's result), tokens from the result's stats
// (input counts cached tokens; no cache write, no cost: not in the stream), calls by kind and
// status (a failing shell reported success is ok), the agent's own status words (error types for
// failures). Text, markdown and JSON. Goldens: test/golden/gemini/stats/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) cases.push({ name: `gemini/stats/${f}`, argv: ["stats", geminiFixture(f)] });
cases.push(
  { name: "gemini/stats/md-models", argv: ["stats", "--format", "markdown", geminiFixture("models")] },
  { name: "gemini/stats/json-models", argv: ["stats", "--format", "json", geminiFixture("models")] },
  { name: "gemini/stats/json-two-runs", argv: ["stats", "--format", "json", geminiFixture("two-runs")] },
  { name: "gemini/stats/all", argv: ["stats", ...GEMINI_FIXTURES.map(geminiFixture)] },
);

goldenTests(cases);
