// test-run: scaled
// `cursorlog validate` over Gemini CLI logs (issue 28): each file against its own dialect's bundled
// schemas (schemas/gemini: one per event type, init, message, tool_use, tool_result, error,
// result), --strict flagging fields no Gemini CLI schema names, the lifecycle checks that apply (a
// call never answered, a run without its result); every fixture clean but the one cut off; a
// broken line (not JSON, a wrong type, a missing member, an unknown value) reported at file:line;
// `cursorlog schema --agent gemini`. Goldens: test/golden/gemini/validate/.
import assert from "node:assert/strict";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_DIR, GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";
import { runCli } from "./helpers/run-cli.js";

const BROKEN = `${GEMINI_DIR}/validate/broken.ndjson`;
/** The fixtures meant to be incomplete: their lifecycle findings. */
const INCOMPLETE = new Set(["cut-off"]);

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) {
  cases.push({ name: `gemini/validate/${f}`, argv: ["validate", geminiFixture(f)] }, { name: `gemini/validate/strict-${f}`, argv: ["validate", "--strict", geminiFixture(f)] });
}
cases.push(
  { name: "gemini/validate/broken", argv: ["validate", BROKEN] },
  { name: "gemini/validate/strict-broken", argv: ["validate", "--strict", BROKEN] },
  { name: "gemini/validate/json-broken", argv: ["validate", "--format", "json", BROKEN] },
  { name: "gemini/validate/github-cut-off", argv: ["validate", "--format", "github", geminiFixture("cut-off")] },
  { name: "gemini/validate/schema-dir-batch", argv: ["validate", "--schema", "schemas/gemini", geminiFixture("batch"), BROKEN] },
  { name: "gemini/validate/schema-list-gemini", argv: ["schema", "--agent", "gemini", "--list"] },
  { name: "gemini/validate/schema-tool_result-gemini", argv: ["schema", "--agent", "gemini", "tool_result"] },
);
goldenTests(cases);

test("validate: every line of every Gemini CLI fixture is valid, --strict too; exit 0 but for the run cut off (exit 1, lifecycle findings only)", async () => {
  for (const f of GEMINI_FIXTURES) {
    for (const strict of [[], ["--strict"]]) {
      const r = await runCli(["validate", "--format", "json", ...strict, geminiFixture(f)]);
      const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { invalid?: number });
      assert.equal(lines.at(-1)!.invalid, 0, `${f} ${strict.join("")}: ${r.stdout}`);
      assert.equal(r.code, INCOMPLETE.has(f) ? 1 : 0, `${f} ${strict.join("")}: ${r.stdout}${r.stderr}`);
    }
  }
});
