// test-run: scaled
// `cursorlog stats` over every Claude Code fixture (issue 27), in its three formats: usage and
// cost as the result states them (usage, total_cost_usd, modelUsage: never the assistant lines'),
// the total counting each session_id's cost once (after-result: two results of one session),
// calls by kind and status (the model's bin where Claude Code writes no word), calls by subagents,
// terminal_reason, a run's lines after its result (a background end, a subagent's call) counted
// with it. Goldens: test/golden/claude/stats/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CLAUDE_FIXTURES, CLAUDE_NESTED, claudeFixture } from "./helpers/claude-fixtures.js";

const FORMATS: Array<[string, string[]]> = [
  ["", []],
  ["md-", ["--format", "markdown"]],
  ["json-", ["--format", "json"]],
];

const cases: GoldenCase[] = [];
for (const [prefix, flags] of FORMATS) {
  for (const f of CLAUDE_FIXTURES) cases.push({ name: `claude/stats/${prefix}${f}`, argv: ["stats", ...flags, claudeFixture(f)] });
  // Every fixture in one run: the total (cost: each session_id once, at its highest figure).
  cases.push({ name: `claude/stats/${prefix}all`, argv: ["stats", ...flags, ...CLAUDE_FIXTURES.map(claudeFixture)] });
}
cases.push(
  // -e: 1 for a result with is_error true (a `success` one too), 4 for a run cut off.
  { name: "claude/stats/e-auth-failure", argv: ["stats", "-e", claudeFixture("auth-failure")] },
  { name: "claude/stats/e-max-turns-cut-off", argv: ["stats", "-e", claudeFixture("max-turns"), claudeFixture("cut-off")] },
  { name: "claude/stats/color-after-result", argv: ["stats", "--color", "always", claudeFixture("after-result"), claudeFixture("background")] },
  { name: "claude/stats/nested", argv: ["stats", CLAUDE_NESTED] },
  { name: "claude/stats/json-nested", argv: ["stats", "--format", "json", CLAUDE_NESTED] },
  // The same log passed twice: its result's usage is added once (a Claude Code result has no
  // request_id: it is known by its line's uuid), its cost counted once.
  { name: "claude/stats/json-twice", argv: ["stats", "--format", "json", claudeFixture("denied"), claudeFixture("denied")] },
);

goldenTests(cases);
