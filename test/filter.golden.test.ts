// test-run: scaled
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
const FF = "test/fixtures/filter";

/** Every fixture, by the stem its golden files use. */
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
  ["reused-call-ids", `${FF}/reused-call-ids.ndjson`],
  ["byte-exact", `${FF}/byte-exact.ndjson`],
];

const cases: GoldenCase[] = [];
for (const [name, path] of FIXTURES) {
  cases.push(
    { name: `filter-all-${name}`, argv: ["filter", path] },
    { name: `filter-type-tool_call-${name}`, argv: ["filter", "--type", "tool_call", path] },
    { name: `filter-exclude-thinking-${name}`, argv: ["filter", "--exclude-type", "thinking", path] },
  );
}

const LONG = `${F}/2026-long.ndjson`;
const REJ = `${F}/rejected-errored.ndjson`;
const PAR = `${F}/parallel-out-of-order.ndjson`;
const REUSED = `${FF}/reused-call-ids.ndjson`;

cases.push(
  // type / subtype / tool / status
  { name: "filter-type-subtype", argv: ["filter", "--type", "tool_call", "--subtype", "completed", PAR] },
  { name: "filter-type-or", argv: ["filter", "--type", "assistant", "--type", "result", `${F}/partial-output.ndjson`] },
  { name: "filter-exclude-two-types", argv: ["filter", "--exclude-type", "thinking", "--exclude-type", "tool_call", LONG] },
  { name: "filter-tool-shell-failure", argv: ["filter", "--tool", "shell", "--status", "failure", LONG, REJ] },
  { name: "filter-tool-full-keys", argv: ["filter", "--tool", "shellToolCall", "--tool", "readToolCall", "--subtype", "started", REJ] },
  { name: "filter-tool-function-name", argv: ["filter", "--tool", "list_dir", `${F}/2025-shape.ndjson`] },
  { name: "filter-status-refusals", argv: ["filter", "--status", "rejected", "--status", "error", "--status", "readPermissionDenied", REJ] },
  // ids
  { name: "filter-call-id-newline", argv: ["filter", "--call-id", "call-7c1e-1\nfc_7c1e_1", PAR] },
  { name: "filter-call-id-escape-is-not-newline", argv: ["filter", "-e", "--call-id", "call-7c1e-1\\nfc_7c1e_1", PAR] },
  { name: "filter-call-id-decoded-escape", argv: ["filter", "--call-id", "c\n1", `${FF}/byte-exact.ndjson`] },
  { name: "filter-model-call-id", argv: ["filter", "--model-call-id", "b1e2c3d4-0a9b-4c8d-8e7f-123456789abc-3-ab1z", LONG] },
  { name: "filter-session", argv: ["filter", "--session", "8c1d3e2f-0a4b-4c5d-9e6f-7a8b9c0d1e2f", "--exclude-type", "tool_call", REUSED] },
  // --where
  { name: "filter-where-exit-code", argv: ["filter", "--where", "tool_call.shellToolCall.result.failure.exitCode > 0", LONG, REJ] },
  { name: "filter-where-wildcard-exists", argv: ["filter", "--where", "tool_call.*.result.error exists", REJ] },
  { name: "filter-where-regex", argv: ["filter", "--where", "tool_call.shellToolCall.args.command ~ ^npm (test|run)", LONG] },
  { name: "filter-where-regex-ignore-case", argv: ["filter", "--where", 'message.content[0].text ~ "(?i)^all THREE"', PAR] },
  { name: "filter-where-not-equal", argv: ["filter", "--where", "type != thinking", "--where", "type != tool_call", `${F}/thinking-only.ndjson`, PAR] },
  { name: "filter-where-index", argv: ["filter", "--where", 'message.content[-1].text == "4"', `${F}/thinking-only.ndjson`] },
  { name: "filter-where-number-is-not-string", argv: ["filter", "-c", "--where", "message.content[0].text == 4", `${F}/thinking-only.ndjson`] },
  { name: "filter-where-number-spelling", argv: ["filter", "--where", "timestamp_ms == 1767225600000", `${FF}/byte-exact.ndjson`] },
  { name: "filter-where-quoted-keys", argv: ["filter", "--where", '."a.b"."c d"[1] == 2', `${FF}/byte-exact.ndjson`] },
  { name: "filter-where-proto-is-data", argv: ["filter", "--where", "payload.__proto__.polluted == true", `${F}/unknown-events.ndjson`] },
  { name: "filter-where-constructor-not-inherited", argv: ["filter", "-c", "--where", "constructor exists", `${F}/unknown-events.ndjson`] },
  { name: "filter-where-bad-path", argv: ["filter", "--where", "tool_call..shellToolCall exists", LONG] },
  { name: "filter-where-bad-regex", argv: ["filter", "--where", "result ~ (unclosed", LONG] },
  { name: "filter-where-backreference", argv: ["filter", "--where", "result ~ (a)\\1", LONG] },
  { name: "filter-where-bad-operator", argv: ["filter", "--where", "model = Auto", LONG] },
  // --pair
  { name: "filter-pair-completion-brings-start", argv: ["filter", "--pair", "--tool", "shell", "--status", "failure", LONG, REJ] },
  { name: "filter-pair-start-brings-completion", argv: ["filter", "--pair", "--where", "tool_call.*.args.path exists", "--subtype", "started", REJ] },
  { name: "filter-pair-parallel", argv: ["filter", "--pair", "--subtype", "completed", "--where", 'tool_call.shellToolCall.args.command == "sleep 4"', PAR] },
  { name: "filter-pair-reused-ids", argv: ["filter", "--pair", "--status", "error", REUSED] },
  { name: "filter-pair-never-completed", argv: ["filter", "--pair", "--tool", "shell", REUSED] },
  { name: "filter-pair-no-started", argv: ["filter", "--pair", "--tool", "task", REJ] },
  // --since / --until
  { name: "filter-since-until", argv: ["filter", "--since", "2026-01-01T00:00:03Z", "--until", "2026-01-01T00:00:06Z", LONG] },
  { name: "filter-until-keeps-leading-untimed", argv: ["filter", "--until", "2026-01-01T00:00:00.2Z", LONG] },
  { name: "filter-since-takes-trailing-untimed", argv: ["filter", "--since", "1767225610369", LONG] },
  { name: "filter-since-offset-several-files", argv: ["filter", "--since", "2026-01-01T03:00:00+02:00", REUSED, `${F}/2025-shape.ndjson`, LONG] },
  { name: "filter-until-several-files", argv: ["filter", "--until", "2026-01-01T01:00:00.001Z", "--exclude-type", "thinking", `${F}/2025-shape.ndjson`, REUSED] },
  { name: "filter-pair-window", argv: ["filter", "--pair", "--type", "tool_call", "--since", "2026-01-01T00:00:03.2Z", "--until", "2026-01-01T00:00:03.3Z", LONG] },
  { name: "filter-since-after-until", argv: ["filter", "--since", "2026-01-02", "--until", "2026-01-01", LONG] },
  { name: "filter-since-bad", argv: ["filter", "--since", "yesterday", LONG] },
  // -c / -e
  { name: "filter-count-several-files", argv: ["filter", "-c", "--type", "tool_call", LONG, REJ, `${F}/2025-shape.ndjson`] },
  { name: "filter-count-pair", argv: ["filter", "-c", "--pair", "--status", "failure", LONG, REJ] },
  { name: "filter-count-zero", argv: ["filter", "--count", "--type", "no_such_type", LONG] },
  { name: "filter-e-no-match", argv: ["filter", "-e", "--tool", "generateImage", LONG] },
  { name: "filter-e-count-no-match", argv: ["filter", "-e", "-c", "--tool", "generateImage", LONG] },
  { name: "filter-e-match", argv: ["filter", "-e", "--type", "result", LONG] },
  { name: "filter-e-malformed-wins", argv: ["filter", "-e", "--type", "no_such_type", `${F}/truncated-last-line.ndjson`] },
  { name: "filter-e-missing-file-wins", argv: ["filter", "-e", "--type", "no_such_type", `${F}/does-not-exist.ndjson`, LONG] },
  { name: "filter-count-lenient", argv: ["filter", "-c", "--lenient", `${F}/merged-stderr.ndjson`, `${F}/truncated-last-line.ndjson`] },
  // inputs
  { name: "filter-stdin", argv: ["filter", "--type", "tool_call"], stdinFile: PAR },
  { name: "filter-stdin-dash-and-files", argv: ["filter", "--type", "result", `${F}/thinking-only.ndjson`, "-", `${F}/2026-long.ndjson.gz`], stdinFile: `${F}/two-sessions.ndjson` },
  { name: "filter-several-files-missing", argv: ["filter", "--type", "result", `${F}/thinking-only.ndjson`, `${F}/does-not-exist.ndjson`, `${F}/2025-shape.ndjson`] },
);

goldenTests(cases);
