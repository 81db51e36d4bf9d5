// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
const FIXTURES = [
  "2025-shape",
  "2026-long",
  "parallel-out-of-order",
  "partial-output",
  "thinking-only",
  "crash-no-result",
  "unknown-events",
  "two-sessions",
  "crlf",
  "truncated-last-line",
  "rejected-errored",
  "hostile",
  "merged-stderr",
  "large-results",
  "large-results-cut",
];

const cases: GoldenCase[] = [];
for (const f of FIXTURES) {
  cases.push({ name: `json-${f}`, argv: ["json", `${F}/${f}.ndjson`] });
  cases.push({ name: `text-${f}`, argv: ["text", `${F}/${f}.ndjson`] });
  cases.push({ name: `text-v-${f}`, argv: ["text", "-v", `${F}/${f}.ndjson`] });
}
cases.push(
  { name: "json-pretty-2026-long", argv: ["json", "--pretty", `${F}/2026-long.ndjson`] },
  { name: "json-allow-incomplete-crash", argv: ["json", "--allow-incomplete", `${F}/crash-no-result.ndjson`] },
  { name: "json-allow-incomplete-partial", argv: ["json", "--allow-incomplete", `${F}/partial-output.ndjson`] },
  { name: "json-gzip", argv: ["json", `${F}/2026-long.ndjson.gz`] },
  { name: "text-gzip", argv: ["text", "-v", `${F}/2026-long.ndjson.gz`] },
  { name: "json-stdin", argv: ["json"], stdinFile: `${F}/two-sessions.ndjson` },
  { name: "text-stdin-dash", argv: ["text", "-v", "-"], stdinFile: `${F}/2026-long.ndjson` },
  { name: "json-several-files", argv: ["json", `${F}/2025-shape.ndjson`, `${F}/crash-no-result.ndjson`, `${F}/thinking-only.ndjson`] },
  { name: "text-several-files-missing", argv: ["text", `${F}/thinking-only.ndjson`, `${F}/does-not-exist.ndjson`, `${F}/2025-shape.ndjson`] },
  { name: "json-multi-line-values", argv: ["json", `${F}/multi-line-values.json`] },
  { name: "json-lenient-merged-stderr", argv: ["json", "--lenient", `${F}/merged-stderr.ndjson`] },
  { name: "text-lenient-truncated", argv: ["text", "--lenient", `${F}/truncated-last-line.ndjson`] },
  { name: "text-final-2026-long", argv: ["text", "--final", `${F}/2026-long.ndjson`] },
  { name: "text-final-partial", argv: ["text", "--final", `${F}/partial-output.ndjson`] },
  { name: "text-final-hostile", argv: ["text", "--final", `${F}/hostile.ndjson`] },
  { name: "text-final-two-sessions", argv: ["text", "--final", `${F}/two-sessions.ndjson`] },
  { name: "text-final-crash-allow", argv: ["text", "--final", "--allow-incomplete", `${F}/crash-no-result.ndjson`] },
);

goldenTests(cases);
