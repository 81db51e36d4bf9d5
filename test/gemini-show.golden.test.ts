// test-run: scaled
// `cursorlog show` over every Gemini CLI fixture (issue 28): the prompt, the agent's text, each
// call with its status and duration (a batch's calls: the batch's time so far), the warnings of
// the CLI's error events (not the end), the run's outcome and tokens. Text and markdown.
// Goldens: test/golden/gemini/show/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) cases.push({ name: `gemini/show/${f}`, argv: ["show", geminiFixture(f)] });
cases.push(
  { name: "gemini/show/md-denied", argv: ["show", "--format", "markdown", geminiFixture("denied")] },
  { name: "gemini/show/allow-incomplete-cut-off", argv: ["show", "--allow-incomplete", geminiFixture("cut-off")] },
);

goldenTests(cases);
