// JsonRecords as the input layer hands them to a stage, for tests that drive a stage or checker
// directly (no streams, no CLI).
import { readdirSync, readFileSync } from "node:fs";
import type { JsonObject, JsonRecord } from "../../src/input/record.js";

/**
 * The events of a one-object-per-line fixture: one record per non-blank line, `line` the physical
 * line number, `text` the line as read. For plain fixtures only: a BOM, a multi-line value or a
 * damaged line is not handled here (drive the real reader for those).
 */
export function fixtureRecords(path: string): JsonRecord[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((text, i) => ({ file: path, line: i + 1, text, value: text.trim() === "" ? null : JSON.parse(text) }))
    .filter((r): r is JsonRecord => r.value !== null);
}

/** Records of `events` as lines 1, 2, … of `file`; `text` is the event's JSON unless `text` makes another. */
export function recordsOf(events: readonly JsonObject[], file = "t.ndjson", text: (value: JsonObject, i: number) => string = (value) => JSON.stringify(value)): JsonRecord[] {
  return events.map((value, i) => ({ file, line: i + 1, text: text(value, i), value }));
}

/** Every log fixture, sorted: test/fixtures/*.ndjson and *.json, and test/fixtures/timeline/*.ndjson. */
export function logFixtures(): string[] {
  const T = "test/fixtures/timeline";
  return [
    ...readdirSync("test/fixtures")
      .filter((f) => /\.(ndjson|json)$/.test(f))
      .map((f) => `test/fixtures/${f}`),
    ...readdirSync(T)
      .filter((f) => f.endsWith(".ndjson"))
      .map((f) => `${T}/${f}`),
  ].sort();
}
