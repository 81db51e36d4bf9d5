// test-run: scaled
// `cursorlog show` over every Codex fixture (issue 28), as text and as Markdown: the transcript
// (agent messages, a line per call in cursor-agent's words, reasoning hidden unless --thinking),
// no times (Codex logs none), the outcome (turn.failed's message; a run with no terminal event cut
// off), the agent CLI's words (error items and events). Goldens: test/golden/codex/show/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

/** A terminal 100 columns wide: colour on (no NO_COLOR), COLUMNS sets the width. */
const TERMINAL = { env: { TZ: "UTC", COLUMNS: "100" }, stdoutIsTTY: true };

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push({ name: `codex/show/${f}`, argv: ["show", codexFixture(f)] });
  cases.push({ name: `codex/show/md-${f}`, argv: ["show", "--format", "markdown", codexFixture(f)] });
}
cases.push(
  { name: "codex/show/tty-commands", argv: ["show", codexFixture("commands")], ...TERMINAL },
  { name: "codex/show/thinking-commands", argv: ["show", "--thinking", codexFixture("commands")] },
  { name: "codex/show/diff-file-changes", argv: ["show", "--diff", codexFixture("file-changes")] },
  { name: "codex/show/e-turn-failed", argv: ["show", "-e", codexFixture("turn-failed")] },
  { name: "codex/show/e-interrupted", argv: ["show", "-e", codexFixture("interrupted")] },
);

goldenTests(cases);
