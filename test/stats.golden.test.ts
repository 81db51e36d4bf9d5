// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
const S = "test/fixtures/stats";

/** The shared fixtures, each in the three formats: test/golden/stats-<f>, stats-md-<f>, stats-json-<f>. */
const SHARED = [
  "2026-long",
  "2025-shape",
  "parallel-out-of-order",
  "rejected-errored",
  "crash-no-result",
  "two-sessions",
  "partial-output",
  "thinking-only",
  "hostile",
  "unknown-events",
  "crlf",
  "large-results",
];

/** Ours (test/fixtures/stats), the same way. */
const OURS = ["usage-runs", "many-calls", "markdown-hostile", "no-clock-cut"];

const FORMATS: Array<[prefix: string, argv: string[]]> = [
  ["stats", []],
  ["stats-md", ["--format", "markdown"]],
  ["stats-json", ["--format", "json"]],
];

const cases: GoldenCase[] = [];
for (const [prefix, flags] of FORMATS) {
  for (const f of SHARED) cases.push({ name: `${prefix}-${f}`, argv: ["stats", ...flags, `${F}/${f}.ndjson`] });
  for (const f of OURS) cases.push({ name: `${prefix}-${f}`, argv: ["stats", ...flags, `${S}/${f}.ndjson`] });
  cases.push(
    // Several files: a block per session, then the total.
    {
      name: `${prefix}-several-files`,
      argv: ["stats", ...flags, `${F}/2025-shape.ndjson`, `${F}/crash-no-result.ndjson`, `${F}/two-sessions.ndjson`, `${F}/rejected-errored.ndjson`, `${S}/usage-runs.ndjson`],
    },
    // The same log twice: its requests' usage is added to the total once.
    { name: `${prefix}-same-log-twice`, argv: ["stats", ...flags, `${S}/usage-runs.ndjson`, `${S}/usage-runs.ndjson`] },
    // Small caps: "first N shown", "+N more".
    { name: `${prefix}-caps`, argv: ["stats", ...flags, "--slowest", "3", "--max-list", "4", "--max-files", "5", `${S}/many-calls.ndjson`] },
    { name: `${prefix}-stdin`, argv: ["stats", ...flags], stdinFile: `${F}/two-sessions.ndjson` },
    { name: `${prefix}-empty-stdin`, argv: ["stats", ...flags, "-"], stdinFile: "/dev/null" },
  );
}

cases.push(
  { name: "stats-gzip", argv: ["stats", `${F}/2026-long.ndjson.gz`] },
  { name: "stats-no-slowest", argv: ["stats", "--slowest", "0", `${F}/2026-long.ndjson`] },
  { name: "stats-color-always", argv: ["stats", "--color", "always", `${F}/rejected-errored.ndjson`, `${F}/crash-no-result.ndjson`] },
  // Exit status: 0 without -e whatever the outcomes; with -e 1 for is_error, 4 for cut off (the worse wins).
  { name: "stats-e-finished", argv: ["stats", "-e", `${F}/2026-long.ndjson`] },
  { name: "stats-e-error", argv: ["stats", "-e", "--format", "json", `${S}/usage-runs.ndjson`] },
  { name: "stats-e-cut-off", argv: ["stats", "--exit-status", `${S}/usage-runs.ndjson`, `${F}/crash-no-result.ndjson`] },
  // Input problems keep their usual status and messages.
  { name: "stats-missing-file", argv: ["stats", `${F}/thinking-only.ndjson`, `${F}/does-not-exist.ndjson`, `${F}/2025-shape.ndjson`] },
  { name: "stats-merged-stderr", argv: ["stats", `${F}/merged-stderr.ndjson`] },
  { name: "stats-lenient-merged-stderr", argv: ["stats", "--lenient", `${F}/merged-stderr.ndjson`] },
  { name: "stats-lenient-truncated", argv: ["stats", "--lenient", "--format", "json", `${F}/truncated-last-line.ndjson`] },
  { name: "stats-bad-format", argv: ["stats", "--format", "html", `${F}/2026-long.ndjson`] },
  { name: "stats-bad-count", argv: ["stats", "--slowest", "-1", `${F}/2026-long.ndjson`] },
);

goldenTests(cases);
