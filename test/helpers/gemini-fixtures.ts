import { readdirSync } from "node:fs";

// The Gemini CLI fixtures (test/fixtures/gemini/*.ndjson, written by make-fixtures.mjs).

export const GEMINI_DIR = "test/fixtures/gemini";

/** The stems of every Gemini CLI fixture, sorted. */
export const GEMINI_FIXTURES: readonly string[] = readdirSync(GEMINI_DIR)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => f.slice(0, -".ndjson".length));

export const geminiFixture = (stem: string): string => `${GEMINI_DIR}/${stem}.ndjson`;
