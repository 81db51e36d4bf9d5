// test-run: scaled
// `cursorlog show` over every Claude Code fixture (issue 27), as text and as Markdown: the
// transcript (the prompt where the log has one, messages, a line per call), a subagent's lines
// nested under a header naming its task, thinking hidden (--thinking shows what is not empty), the
// outcome with terminal_reason (and errors[] when the result has no text), a run's lines after its
// result (background ends, a background subagent's call) before its footer.
// Goldens: test/golden/claude/show/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CLAUDE_FIXTURES, CLAUDE_NESTED, claudeFixture } from "./helpers/claude-fixtures.js";

/** A terminal 100 columns wide: colour on (no NO_COLOR), COLUMNS sets the width. */
const TERMINAL = { env: { TZ: "UTC", COLUMNS: "100" }, stdoutIsTTY: true };

const cases: GoldenCase[] = [];
for (const f of CLAUDE_FIXTURES) {
  cases.push({ name: `claude/show/${f}`, argv: ["show", claudeFixture(f)] });
  cases.push({ name: `claude/show/md-${f}`, argv: ["show", "--format", "markdown", claudeFixture(f)] });
}
cases.push(
  { name: "claude/show/tty-subagent", argv: ["show", claudeFixture("subagent")], ...TERMINAL },
  { name: "claude/show/tty-after-result", argv: ["show", claudeFixture("after-result")], ...TERMINAL },
  { name: "claude/show/thinking-subagent", argv: ["show", "--thinking", claudeFixture("subagent")] },
  { name: "claude/show/diff-tools", argv: ["show", "--diff", claudeFixture("tools")] },
  { name: "claude/show/md-diff-tools", argv: ["show", "--format", "markdown", "--diff", claudeFixture("tools")] },
  { name: "claude/show/width-40-subagent", argv: ["show", "--width", "40", claudeFixture("subagent")] },
  // -e: the exit status says how the runs ended.
  { name: "claude/show/e-auth-failure", argv: ["show", "-e", claudeFixture("auth-failure")] },
  { name: "claude/show/e-cut-off", argv: ["show", "-e", claudeFixture("cut-off")] },
  { name: "claude/show/nested", argv: ["show", CLAUDE_NESTED] },
  { name: "claude/show/md-nested", argv: ["show", "--format", "markdown", CLAUDE_NESTED] },
  { name: "claude/show/thinking-nested", argv: ["show", "--thinking", CLAUDE_NESTED] },
  { name: "claude/show/md-thinking-nested", argv: ["show", "--format", "markdown", "--thinking", CLAUDE_NESTED] },
  { name: "claude/show/tty-nested", argv: ["show", CLAUDE_NESTED], ...TERMINAL },
  { name: "claude/show/width-40-nested", argv: ["show", "--width", "40", CLAUDE_NESTED] },
);

goldenTests(cases);
