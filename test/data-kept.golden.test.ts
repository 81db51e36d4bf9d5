// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

// Data kept as it was (issue 13): numbers JSON.parse would change, duplicate keys, a call started
// twice, invalid UTF-8, a BOM mid-stream, gzip with trailing garbage. Every command over each, so
// that the one rule each follows (README "Data as it was") shows in their outputs side by side.

const D = "test/fixtures/data-kept";
const EVERY: Array<[string, string[]]> = [
  ["json", ["json"]],
  ["json-incomplete", ["json", "--allow-incomplete"]],
  ["text", ["text", "-v"]],
  ["stats", ["stats"]],
  ["stats-json", ["stats", "--format", "json"]],
  ["timeline", ["timeline"]],
  ["timeline-ndjson", ["timeline", "--format", "ndjson", "--allow-incomplete"]],
  ["filter", ["filter"]],
  ["filter-type-result", ["filter", "--type", "result"]],
  ["filter-type-thinking", ["filter", "--type", "thinking"]],
  ["filter-exclude-thinking", ["filter", "--exclude-type", "thinking"]],
  ["filter-where", ["filter", "--where", "type == result"]],
  ["filter-pair", ["filter", "--pair", "--tool", "shell", "--tool", "read"]],
  ["validate", ["validate"]],
];

const FIXTURES = ["numbers.ndjson", "duplicate-keys.ndjson", "duplicate-started.ndjson", "invalid-utf8.ndjson", "bom-mid-stream.ndjson", "trailing-garbage.ndjson.gz"];

const cases: GoldenCase[] = [];
for (const f of FIXTURES) {
  const stem = f.replace(/\.ndjson(\.gz)?$/, "");
  for (const [name, argv] of EVERY) cases.push({ name: `data-kept/${stem}-${name}`, argv: [...argv, `${D}/${f}`] });
}
cases.push(
  { name: "data-kept/numbers-json-pretty", argv: ["json", "--pretty", `${D}/numbers.ndjson`] },
  { name: "data-kept/duplicate-keys-validate-strict", argv: ["validate", "--strict", `${D}/duplicate-keys.ndjson`] },
  { name: "data-kept/duplicate-keys-validate-json", argv: ["validate", "--format", "json", "--no-lifecycle", `${D}/duplicate-keys.ndjson`] },
  { name: "data-kept/invalid-utf8-validate-json", argv: ["validate", "--format", "json", "--no-lifecycle", `${D}/invalid-utf8.ndjson`] },
);

goldenTests(cases);
