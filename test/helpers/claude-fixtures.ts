import { readdirSync, readFileSync } from "node:fs";
import { isPlainObject } from "../../src/dialects/claude/lines.js";
import type { JsonObject } from "../../src/input/record.js";

// The Claude Code fixtures (test/fixtures/claude/*.ndjson, written by make-fixtures.mjs) as the
// robustness tests read them, and what those tests need to know of a Claude Code log's shape.

export const CLAUDE_DIR = "test/fixtures/claude";

export interface ClaudeFixture {
  /** Its path, as the command line names it. */
  path: string;
  name: string;
  bytes: Buffer;
  /** Its lines (one JSON object each, no blank line in these fixtures), without their newline. */
  lines: string[];
  events: JsonObject[];
}

/** Every Claude Code fixture, sorted by name (test/fixtures/claude/), then CLAUDE_NESTED. */
export function claudeFixtures(): ClaudeFixture[] {
  const paths = [
    ...readdirSync(CLAUDE_DIR)
      .filter((f) => f.endsWith(".ndjson"))
      .sort()
      .map((name) => `${CLAUDE_DIR}/${name}`),
    CLAUDE_NESTED,
  ];
  return paths.map((path) => {
    const bytes = readFileSync(path);
    const lines = bytes.toString("utf8").split("\n").filter((l) => l !== "");
    return { path, name: path.slice("test/fixtures/".length), bytes, lines, events: lines.map((l) => JSON.parse(l) as JsonObject) };
  });
}

/**
 * A line's shape for the mutation tests: its type and subtype, and for assistant and user lines
 * the types of their content blocks and whether a subagent wrote it (parent_tool_use_id).
 */
export function shapeOf(ev: JsonObject): string {
  const base = `${String(ev.type)}/${String(ev.subtype ?? "")}`;
  if (ev.type !== "assistant" && ev.type !== "user") return base;
  const content = isPlainObject(ev.message) ? ev.message.content : undefined;
  const blocks = Array.isArray(content) ? content.map((b) => (isPlainObject(b) ? String(b.type) : typeof b)).join("+") : typeof content;
  return `${base} ${blocks}${typeof ev.parent_tool_use_id === "string" ? " (subagent)" : ""}`;
}

/** The Claude Code fixtures (test/fixtures/claude/*.ndjson, make-fixtures.mjs): their stems, sorted, and their folder. */
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
