// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

// Golden diagnostics of `cursorlog validate`, whole input and in 1, 3 and 7-byte chunks.
// The broken variants are made by test/fixtures/validate/make-validate-fixtures.mjs; the comment
// above each one there lists its breaks and their lines.

const F = "test/fixtures";
const V = `${F}/validate`;

/** Every shared fixture: real shapes validate with a summary only (warnings where the shape is new). */
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
];

const cases: GoldenCase[] = FIXTURES.map((f) => ({ name: `validate-${f}`, argv: ["validate", `${F}/${f}.ndjson`] }));

cases.push(
  { name: "validate-gzip", argv: ["validate", `${F}/2026-long.ndjson.gz`] },
  { name: "validate-multi-line-values", argv: ["validate", `${F}/multi-line-values.json`] },
  { name: "validate-stdin", argv: ["validate"], stdinFile: `${F}/two-sessions.ndjson` },
  { name: "validate-empty-stdin", argv: ["validate", "-"], stdinFile: `${V}/empty.ndjson` },
  { name: "validate-several-files-missing", argv: ["validate", `${F}/thinking-only.ndjson`, `${F}/does-not-exist.ndjson`, `${V}/lifecycle-warnings.ndjson`] },
  // a directory: every *.ndjson, *.jsonl, *.log (and .gz) below it, sorted, depth first, each named by its path;
  // the summary counts the files read (not the directory, not one that cannot be read)
  { name: "validate-dir", argv: ["validate", `${V}/logs/`] },
  { name: "validate-json-dir-missing", argv: ["validate", "--format", "json", `${V}/logs`, `${F}/does-not-exist.ndjson`] },

  // hand-broken variants
  { name: "validate-wrong-types", argv: ["validate", `${V}/wrong-types.ndjson`] },
  { name: "validate-missing-required", argv: ["validate", `${V}/missing-required.ndjson`] },
  { name: "validate-bad-json", argv: ["validate", `${V}/bad-json.ndjson`] },
  { name: "validate-unknown", argv: ["validate", `${V}/unknown.ndjson`] },
  { name: "validate-unknown-strict", argv: ["validate", "--strict", `${V}/unknown.ndjson`] },
  { name: "validate-strict-2026-long", argv: ["validate", "--strict", `${F}/2026-long.ndjson`] },
  { name: "validate-lifecycle-errors", argv: ["validate", `${V}/lifecycle-errors.ndjson`] },
  { name: "validate-lifecycle-warnings", argv: ["validate", `${V}/lifecycle-warnings.ndjson`] },
  { name: "validate-no-lifecycle", argv: ["validate", "--no-lifecycle", `${V}/lifecycle-errors.ndjson`, `${F}/crash-no-result.ndjson`] },
  { name: "validate-hostile-strict", argv: ["validate", "--strict", `${V}/hostile.ndjson`] },

  // formats
  { name: "validate-json-wrong-types", argv: ["validate", "--format", "json", `${V}/wrong-types.ndjson`] },
  { name: "validate-json-lifecycle", argv: ["validate", "--format", "json", `${V}/lifecycle-errors.ndjson`, `${V}/lifecycle-warnings.ndjson`] },
  { name: "validate-json-hostile", argv: ["validate", "--format", "json", "--strict", `${V}/hostile.ndjson`] },
  { name: "validate-github-lifecycle", argv: ["validate", "--format", "github", `${V}/lifecycle-errors.ndjson`, `${V}/lifecycle-warnings.ndjson`] },
  { name: "validate-github-bad-json-stdin", argv: ["validate", "--format", "github"], stdinFile: `${V}/bad-json.ndjson` },
  { name: "validate-github-hostile", argv: ["validate", "--format", "github", "--strict", `${V}/hostile.ndjson`] },
  { name: "validate-bad-format", argv: ["validate", "--format", "xml", `${F}/2025-shape.ndjson`] },

  // --max-errors: the summary says where it stopped; the second file is never read
  { name: "validate-max-errors", argv: ["validate", "--max-errors", "3", `${V}/wrong-types.ndjson`, `${F}/2025-shape.ndjson`] },
  { name: "validate-max-errors-0", argv: ["validate", "--max-errors", "0", `${V}/wrong-types.ndjson`] },

  // --schema
  { name: "validate-schema-dir", argv: ["validate", "--schema", `${V}/user-schemas`, `${V}/for-user-schemas.ndjson`] },
  { name: "validate-schema-file", argv: ["validate", "--schema", `${V}/user-schema.json`, `${V}/for-user-schemas.ndjson`, `${V}/unknown.ndjson`] },
  { name: "validate-schema-strict", argv: ["validate", "--strict", "--schema", `${V}/user-schemas`, `${V}/for-user-schemas.ndjson`] },
  // a schema that does not compile: exit 3 before any input is opened (the missing file is never reported)
  { name: "validate-schema-broken", argv: ["validate", "--schema", `${V}/broken-schemas`, `${F}/does-not-exist.ndjson`] },
  { name: "validate-schema-broken-ref", argv: ["validate", "--schema", `${V}/broken-ref.schema.json`, `${F}/does-not-exist.ndjson`] },
  { name: "validate-schema-missing", argv: ["validate", "--schema", `${V}/no-such-schemas`, `${F}/2025-shape.ndjson`] },
  { name: "validate-schema-no-entry", argv: ["validate", "--schema", `${V}`, `${F}/2025-shape.ndjson`] },

  // cursorlog schema TYPE with an unknown type: a usage error that lists the types
  { name: "validate-schema-command-unknown-type", argv: ["schema", "hologram"] },
);

goldenTests(cases);
