// test-run: scaled
// Golden tests of diff and export (OTLP/JSON and Chrome trace) over Claude Code logs: every
// fixture of test/fixtures/claude/ (AGENTS.md §1's shapes) and of test/fixtures/claude/edge/ (the
// cases those do not hold: a call without a time of its own, chains of edits), exit statuses
// included. Goldens under test/golden/claude/.
import { readdirSync } from "node:fs";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures/claude";
const logs = (dir: string, prefix = "") =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".ndjson"))
    .sort()
    .map((f) => [`${prefix}${f.slice(0, -".ndjson".length)}`, `${dir}/${f}`] as const);
const FIXTURES = [...logs(F), ...logs(`${F}/edge`, "edge-")];

const cases: GoldenCase[] = [];
for (const [name, path] of FIXTURES) {
  cases.push(
    { name: `claude/diff-${name}`, argv: ["diff", path] },
    { name: `claude/diff-stat-${name}`, argv: ["diff", "--stat", path] },
    { name: `claude/diff-names-${name}`, argv: ["diff", "--name-only", path] },
    { name: `claude/export-otlp-${name}`, argv: ["export", path] },
    { name: `claude/export-chrome-${name}`, argv: ["export", "--format", "chrome-trace", path] },
  );
}
cases.push(
  // To a terminal: coloured, control characters escaped.
  { name: "claude/diff-tty-tools", argv: ["diff", `${F}/tools.ndjson`], env: { TZ: "UTC", COLUMNS: "100" }, stdoutIsTTY: true },
  // Arguments (whole, from the call's start), results, prompt and answer only when asked for.
  { name: "claude/export-otlp-content-tools", argv: ["export", "--include-content", `${F}/tools.ndjson`] },
  { name: "claude/export-otlp-content-subagent", argv: ["export", "--include-content", `${F}/subagent.ndjson`] },
  { name: "claude/export-otlp-allow-incomplete", argv: ["export", "--allow-incomplete", `${F}/cut-off.ndjson`] },
  // service.name: given, from the environment, else each run's agent's name.
  { name: "claude/export-otlp-service-name", argv: ["export", "--service-name", "ci-agent", `${F}/denied.ndjson`] },
  { name: "claude/export-otlp-otel-service-name", argv: ["export", `${F}/denied.ndjson`], env: { TZ: "UTC", NO_COLOR: "1", OTEL_SERVICE_NAME: "nightly" } },
  // Cursor and Claude Code logs in one run: each run its own agent's names, runs numbered across files.
  { name: "claude/export-otlp-with-cursor", argv: ["export", "test/fixtures/2026-long.ndjson", `${F}/background.ndjson`] },
  { name: "claude/export-chrome-with-cursor", argv: ["export", "--format", "chrome-trace", "test/fixtures/2026-long.ndjson", `${F}/background.ndjson`] },
  { name: "claude/diff-with-cursor", argv: ["diff", "test/fixtures/diff/combined.ndjson", `${F}/tools.ndjson`, `${F}/early-2026.ndjson`] },
  { name: "claude/diff-stat-with-cursor", argv: ["diff", "--stat", "test/fixtures/diff/combined.ndjson", `${F}/tools.ndjson`, `${F}/early-2026.ndjson`] },
  // --agent claude forces the reading; --agent cursor reads a Claude Code log as cursor-agent's (what it finds).
  { name: "claude/export-otlp-agent-claude", argv: ["export", "--agent", "claude", `${F}/hooks-first.ndjson`] },
);
goldenTests(cases);
