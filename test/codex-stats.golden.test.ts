// test-run: scaled
// `cursorlog stats` over every Codex fixture (issue 28), in its three formats: usage as the last
// turn.completed states it (the thread's so far: the total counts a thread once, at its run with
// the most tokens, never summing resumed runs), no duration (Codex logs no time), no model, no
// cost; calls by kind and by Codex's own status words (completed, failed, declined), shell exits,
// files created, edited, deleted from file_change items. Goldens: test/golden/codex/stats/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

const FORMATS: Array<[string, string[]]> = [
  ["", []],
  ["md-", ["--format", "markdown"]],
  ["json-", ["--format", "json"]],
];

const cases: GoldenCase[] = [];
for (const [prefix, flags] of FORMATS) {
  for (const f of CODEX_FIXTURES) cases.push({ name: `codex/stats/${prefix}${f}`, argv: ["stats", ...flags, codexFixture(f)] });
  cases.push({ name: `codex/stats/${prefix}all`, argv: ["stats", ...flags, ...CODEX_FIXTURES.map(codexFixture)] });
}
cases.push(
  // -e: 1 for turn.failed, 4 for a run with no terminal event.
  { name: "codex/stats/e-turn-failed", argv: ["stats", "-e", codexFixture("turn-failed")] },
  { name: "codex/stats/e-interrupted", argv: ["stats", "-e", codexFixture("interrupted")] },
);

goldenTests(cases);
