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

/** Every Claude Code fixture, sorted by name. */
export function claudeFixtures(): ClaudeFixture[] {
  return readdirSync(CLAUDE_DIR)
    .filter((f) => f.endsWith(".ndjson"))
    .sort()
    .map((name) => {
      const path = `${CLAUDE_DIR}/${name}`;
      const bytes = readFileSync(path);
      const lines = bytes.toString("utf8").split("\n").filter((l) => l !== "");
      return { path, name, bytes, lines, events: lines.map((l) => JSON.parse(l) as JsonObject) };
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

/**
 * Whether a line after a result (a background task's end, a subagent's line, a rate-limit line)
 * still belongs to that result's run: Claude Code's runs go on after their result until a line
 * that begins the next one (an init, a SessionStart hook, another result, the run's own assistant
 * or user line). Lines are given as parsed values (undefined for a line that is not JSON).
 */
export function goesOnAfterResult(values: ReadonlyArray<unknown>): boolean {
  let afterResult = false;
  for (const v of values) {
    if (!isPlainObject(v)) continue;
    if (afterResult) {
      const begins =
        v.type === "result" ||
        (v.type === "system" && (v.subtype === "init" || (v.subtype === "hook_started" && typeof v.hook_name === "string" && v.hook_name.startsWith("SessionStart")))) ||
        ((v.type === "assistant" || v.type === "user") && typeof v.parent_tool_use_id !== "string");
      if (!begins) return true;
    }
    afterResult = v.type === "result";
  }
  return false;
}

/** The parsed values of a log's lines (undefined where a line is not JSON), for goesOnAfterResult. */
export function valuesOf(bytes: Buffer): unknown[] {
  return bytes
    .toString("utf8")
    .split("\n")
    .map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return undefined;
      }
    });
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
