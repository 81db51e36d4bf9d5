import { readdirSync } from "node:fs";

// The Codex fixtures (test/fixtures/codex/*.ndjson, written by make-fixtures.mjs), for the golden tests.

export const CODEX_DIR = "test/fixtures/codex";

/** The Codex fixtures' stems, sorted. */
export const CODEX_FIXTURES: readonly string[] = readdirSync(CODEX_DIR)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => f.slice(0, -".ndjson".length));

/** The path of a Codex fixture by its stem. */
export const codexFixture = (stem: string): string => `${CODEX_DIR}/${stem}.ndjson`;
