// test-run: scaled
// `cursorlog json` over every Gemini CLI fixture (issue 28): per run, one object in cursor-agent's
// key set built from the stream (subtype = the result's status, is_error, duration_ms as stated
// but none on a thrown error's result, result = the assistant chunks joined, session_id, usage =
// the result's stats as logged, models kept); no duration_api_ms, no request_id. The exit status
// from the model: a result with status error → 1 with its reason on stderr, no result → 4, and with
// --allow-incomplete the synthesized object for a run cut off. Goldens: test/golden/gemini/json/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) {
  cases.push({ name: `gemini/json/${f}`, argv: ["json", geminiFixture(f)] });
  cases.push({ name: `gemini/json/allow-incomplete-${f}`, argv: ["json", "--allow-incomplete", geminiFixture(f)] });
}
cases.push(
  { name: "gemini/json/pretty-models", argv: ["json", "--pretty", geminiFixture("models")] },
  { name: "gemini/json/H-two-runs", argv: ["json", "-H", geminiFixture("two-runs")] },
  // Every fixture in one run: each run's object in input order, the status the worst of them (4: a run cut off).
  { name: "gemini/json/all", argv: ["json", ...GEMINI_FIXTURES.map(geminiFixture)] },
);

goldenTests(cases);
