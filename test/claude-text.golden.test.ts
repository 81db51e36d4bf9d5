// test-run: scaled
// `cursorlog text` over every Claude Code fixture (issue 27): an action line per completed call in
// cursor-agent's words (AGENTS.md §4: Bash "Ran terminal command", Read "Read file", Edit "Edited
// file", Write "Created new file" / "Edited file", Grep "Searched file contents", Glob "Searched for
// files", WebFetch "Fetched web page", WebSearch "Searched the web", Agent "Ran subagent task",
// TodoWrite "Updated todos", mcp__… "Called MCP tool"); -v targets and background ends; failures
// and refusals marked as cursor-agent's are; a subagent's calls marked `[subagent "<task>"]`;
// --final the run's own last message. Goldens: test/golden/claude/text/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CLAUDE_FIXTURES, CLAUDE_NESTED, claudeFixture } from "./helpers/claude-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of CLAUDE_FIXTURES) {
  cases.push({ name: `claude/text/${f}`, argv: ["text", claudeFixture(f)] });
  cases.push({ name: `claude/text/v-${f}`, argv: ["text", "-v", claudeFixture(f)] });
  cases.push({ name: `claude/text/final-${f}`, argv: ["text", "--final", claudeFixture(f)] });
}
cases.push(
  { name: "claude/text/allow-incomplete-cut-off", argv: ["text", "-v", "--allow-incomplete", claudeFixture("cut-off")] },
  { name: "claude/text/final-allow-incomplete-cut-off", argv: ["text", "--final", "--allow-incomplete", claudeFixture("cut-off")] },
  { name: "claude/text/H-subagent", argv: ["text", "-v", "-H", claudeFixture("subagent")] },
  // Colour: the subagent's mark dim, a failure red, a refusal yellow.
  { name: "claude/text/color-tools-denied-subagent", argv: ["text", "-v", "--color", "always", claudeFixture("tools"), claudeFixture("denied"), claudeFixture("subagent")] },
  { name: "claude/text/nested", argv: ["text", CLAUDE_NESTED] },
  { name: "claude/text/v-nested", argv: ["text", "-v", CLAUDE_NESTED] },
  { name: "claude/text/final-nested", argv: ["text", "--final", CLAUDE_NESTED] },
);

goldenTests(cases);
