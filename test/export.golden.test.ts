// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";

/** Every fixture of the input layer and of the timeline (times, clocks, lanes), by golden stem. */
const FIXTURES: Array<[string, string]> = [
  ["2025-shape", `${F}/2025-shape.ndjson`],
  ["2026-long", `${F}/2026-long.ndjson`],
  ["2026-long-gz", `${F}/2026-long.ndjson.gz`],
  ["parallel-out-of-order", `${F}/parallel-out-of-order.ndjson`],
  ["partial-output", `${F}/partial-output.ndjson`],
  ["thinking-only", `${F}/thinking-only.ndjson`],
  ["crash-no-result", `${F}/crash-no-result.ndjson`],
  ["unknown-events", `${F}/unknown-events.ndjson`],
  ["two-sessions", `${F}/two-sessions.ndjson`],
  ["crlf", `${F}/crlf.ndjson`],
  ["truncated-last-line", `${F}/truncated-last-line.ndjson`],
  ["rejected-errored", `${F}/rejected-errored.ndjson`],
  ["hostile", `${F}/hostile.ndjson`],
  ["merged-stderr", `${F}/merged-stderr.ndjson`],
  ["multi-line-values", `${F}/multi-line-values.json`],
  ["large-results", `${F}/large-results.ndjson`],
  ["large-results-cut", `${F}/large-results-cut.ndjson`],
  ["reused-call-ids", `${F}/filter/reused-call-ids.ndjson`],
  ["byte-exact", `${F}/filter/byte-exact.ndjson`],
  ["no-timestamps-2025", `${F}/timeline/no-timestamps-2025.ndjson`],
  ["clocks-and-ends", `${F}/timeline/clocks-and-ends.ndjson`],
  ["parallel-30-reverse", `${F}/timeline/parallel-30-reverse.ndjson`],
  ["awkward-values", `${F}/timeline/awkward-values.ndjson`],
  ["usage-runs", `${F}/stats/usage-runs.ndjson`],
  ["background-mcp", `${F}/export/background-mcp.ndjson`],
];

const cases: GoldenCase[] = [];
for (const [name, path] of FIXTURES) {
  cases.push(
    { name: `export-otlp-${name}`, argv: ["export", path] },
    { name: `export-chrome-${name}`, argv: ["export", "--format", "chrome-trace", path] },
  );
}
cases.push(
  // Arguments, results, prompt and answer only when asked for.
  { name: "export-otlp-content-2026-long", argv: ["export", "--include-content", `${F}/2026-long.ndjson`] },
  { name: "export-otlp-allow-incomplete", argv: ["export", "--allow-incomplete", `${F}/crash-no-result.ndjson`] },
  // Several files: one OTLP document per run, one Chrome trace document for all.
  { name: "export-otlp-several", argv: ["export", `${F}/2026-long.ndjson`, `${F}/two-sessions.ndjson`] },
  { name: "export-chrome-several", argv: ["export", "--format", "chrome-trace", `${F}/2026-long.ndjson`, `${F}/two-sessions.ndjson`] },
  { name: "export-chrome-empty", argv: ["export", "--format", "chrome-trace"] },
  { name: "export-otlp-service-name", argv: ["export", "--service-name", "ci-agent", `${F}/parallel-out-of-order.ndjson`] },
);
goldenTests(cases);
