// test-run: scaled
// `cursorlog json` over every Claude Code fixture (issue 27): per run, Claude Code's own result
// object as written (no key reordered: Claude Code's dialect has no jsonKeyOrder); the exit status
// from the model: is_error true → 1 with the reason on stderr (a `success` result with is_error
// true, error_max_turns with no `result` key: the reason from errors[]), no result → 4, and with
// --allow-incomplete the synthesized object for a run cut off. Goldens: test/golden/claude/json/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CLAUDE_FIXTURES, CLAUDE_NESTED, claudeFixture } from "./helpers/claude-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of CLAUDE_FIXTURES) {
  cases.push({ name: `claude/json/${f}`, argv: ["json", claudeFixture(f)] });
  cases.push({ name: `claude/json/allow-incomplete-${f}`, argv: ["json", "--allow-incomplete", claudeFixture(f)] });
}
cases.push(
  { name: "claude/json/pretty-max-turns", argv: ["json", "--pretty", claudeFixture("max-turns")] },
  { name: "claude/json/H-after-result", argv: ["json", "-H", claudeFixture("after-result")] },
  // Every fixture in one run: each run's object in input order, the status the worst of them (4: a run cut off).
  { name: "claude/json/all", argv: ["json", ...CLAUDE_FIXTURES.map(claudeFixture)] },
  { name: "claude/json/nested", argv: ["json", CLAUDE_NESTED] },
);

goldenTests(cases);
