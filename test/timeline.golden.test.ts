// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
const T = "test/fixtures/timeline";

/** Every fixture of test/fixtures, as CSV with the default columns. */
const SHARED_FIXTURES = [
  "2025-shape.ndjson",
  "2026-long.ndjson",
  "2026-long.ndjson.gz",
  "parallel-out-of-order.ndjson",
  "partial-output.ndjson",
  "thinking-only.ndjson",
  "crash-no-result.ndjson",
  "unknown-events.ndjson",
  "two-sessions.ndjson",
  "crlf.ndjson",
  "truncated-last-line.ndjson",
  "rejected-errored.ndjson",
  "hostile.ndjson",
  "merged-stderr.ndjson",
  "multi-line-values.json",
  "large-results.ndjson",
  "large-results-cut.ndjson",
];

const TIMELINE_FIXTURES = ["parallel-30-reverse", "awkward-values", "no-timestamps-2025", "clocks-and-ends"];

const stem = (f: string) => f.replace(/\.ndjson$|\.json$/, "").replace(/\.ndjson\.gz$/, "-gz").replace(/\./g, "-");

const cases: GoldenCase[] = [];
for (const f of SHARED_FIXTURES) cases.push({ name: `timeline-${stem(f)}`, argv: ["timeline", `${F}/${f}`] });
for (const f of TIMELINE_FIXTURES) cases.push({ name: `timeline-${f}`, argv: ["timeline", `${T}/${f}.ndjson`] });

for (const f of ["2026-long", "rejected-errored", "awkward-values", "large-results"]) {
  const file = f === "awkward-values" ? `${T}/${f}.ndjson` : `${F}/${f}.ndjson`;
  cases.push(
    { name: `timeline-tsv-${f}`, argv: ["timeline", "--format", "tsv", file] },
    { name: `timeline-ndjson-${f}`, argv: ["timeline", "--format", "ndjson", file] },
    { name: `timeline-no-header-${f}`, argv: ["timeline", "--no-header", file] },
    { name: `timeline-columns-${f}`, argv: ["timeline", "--columns", "seq,status,duration_ms,action,target", file] },
    { name: `timeline-safe-csv-${f}`, argv: ["timeline", "--safe-csv", file] },
  );
}

cases.push(
  { name: "timeline-tsv-no-header-columns", argv: ["timeline", "--format=tsv", "--no-header", "--columns=call_id,target", `${T}/awkward-values.ndjson`] },
  { name: "timeline-ndjson-columns", argv: ["timeline", "--format", "ndjson", "--columns", "target,exit_code,started_line", `${T}/awkward-values.ndjson`] },
  // --safe-csv would change NDJSON's values and --no-header has nothing to drop: usage errors.
  { name: "timeline-ndjson-safe-csv-refused", argv: ["timeline", "--format", "ndjson", "--safe-csv", "--no-header", `${T}/awkward-values.ndjson`] },
  { name: "timeline-allow-incomplete-clocks", argv: ["timeline", "--allow-incomplete", `${T}/clocks-and-ends.ndjson`] },
  { name: "timeline-stdin", argv: ["timeline"], stdinFile: `${F}/two-sessions.ndjson` },
  { name: "timeline-empty-stdin", argv: ["timeline"], stdinFile: "/dev/null" },
  { name: "timeline-empty-no-header", argv: ["timeline", "--no-header", "-"], stdinFile: "/dev/null" },
  { name: "timeline-empty-ndjson", argv: ["timeline", "--format", "ndjson"], stdinFile: "/dev/null" },
  {
    name: "timeline-several-files",
    argv: ["timeline", `${F}/2025-shape.ndjson`, `${F}/does-not-exist.ndjson`, `${F}/crash-no-result.ndjson`, `${F}/parallel-out-of-order.ndjson`],
  },
  { name: "timeline-lenient-truncated", argv: ["timeline", "--lenient", `${F}/truncated-last-line.ndjson`] },
  { name: "timeline-unknown-column", argv: ["timeline", "--columns", "seq,durration,status", `${F}/2026-long.ndjson`] },
  { name: "timeline-duplicate-column", argv: ["timeline", "--columns", "seq,seq", `${F}/2026-long.ndjson`] },
  { name: "timeline-bad-format", argv: ["timeline", "--format", "xlsx", `${F}/2026-long.ndjson`] },
);

goldenTests(cases);
