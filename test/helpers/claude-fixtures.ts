import { readdirSync } from "node:fs";

/** The Claude Code fixtures (test/fixtures/claude/*.ndjson, make-fixtures.mjs): their stems, sorted, and their folder. */
export const CLAUDE_DIR = "test/fixtures/claude";
export const CLAUDE_FIXTURES: readonly string[] = readdirSync(CLAUDE_DIR)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => f.slice(0, -".ndjson".length));

/** The path of a Claude Code fixture by its stem. */
export const claudeFixture = (stem: string): string => `${CLAUDE_DIR}/${stem}.ndjson`;

/**
 * test/fixtures/claude-nested/nested.ndjson (its make-fixture.mjs): what the fixtures above leave
 * out, for show, text and stats: a prompt, non-empty thinking, a subagent with its own prompt, a
 * failed call and a subagent of its own, its message streamed as deltas before the whole one.
 */
export const CLAUDE_NESTED = "test/fixtures/claude-nested/nested.ndjson";
