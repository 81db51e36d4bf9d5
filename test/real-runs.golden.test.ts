// Issue 12: every command over the fixtures built from real runs (FORMAT.md §5.4, §9):
// real-2026 (every real-capture shape, runs that end well), failed-run (stderr merged, no result,
// the CLI's own message last), runs that tell nothing (no-session/), a result with is_error:true,
// and other agents' logs (other-agents/).
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
const cases: GoldenCase[] = [];

/** Every command that reads logs, over one fixture: golden files real-<cmd>-<stem>. */
function everyCommand(stem: string, path: string): void {
  cases.push(
    { name: `real/json-${stem}`, argv: ["json", path] },
    { name: `real/text-${stem}`, argv: ["text", path] },
    { name: `real/text-v-${stem}`, argv: ["text", "-v", path] },
    { name: `real/timeline-${stem}`, argv: ["timeline", path] },
    { name: `real/timeline-html-${stem}`, argv: ["timeline", "--format", "html", path], wholeOnly: true },
    { name: `real/stats-${stem}`, argv: ["stats", path] },
    { name: `real/stats-md-${stem}`, argv: ["stats", "--format", "markdown", path] },
    { name: `real/stats-json-${stem}`, argv: ["stats", "--format", "json", path] },
    { name: `real/validate-${stem}`, argv: ["validate", path] },
    { name: `real/filter-${stem}`, argv: ["filter", "--type", "tool_call", "--subtype", "completed", path] },
  );
}

everyCommand("real-2026", `${F}/real-2026.ndjson`);
cases.push({ name: "real/validate-strict-real-2026", argv: ["validate", "--strict", `${F}/real-2026.ndjson`] });

// 2. A failed run, stderr merged: the CLI's own message ends it (exit 4, the message quoted whole).
everyCommand("failed-run", `${F}/failed-run.ndjson`);
cases.push(
  { name: "real/json-allow-incomplete-failed-run", argv: ["json", "--allow-incomplete", `${F}/failed-run.ndjson`] },
  { name: "real/text-allow-incomplete-failed-run", argv: ["text", "--allow-incomplete", `${F}/failed-run.ndjson`] },
  { name: "real/timeline-allow-incomplete-failed-run", argv: ["timeline", "--allow-incomplete", `${F}/failed-run.ndjson`] },
);
// 4. Runs that tell nothing: no session at all (exit 4; validate exit 1 unless --allow-empty).
for (const stem of ["empty", "blank-lines", "stderr-only"]) everyCommand(`no-session-${stem}`, `${F}/no-session/${stem}.ndjson`);
cases.push(
  { name: "real/validate-allow-empty-no-session-stderr-only", argv: ["validate", "--allow-empty", `${F}/no-session/stderr-only.ndjson`] },
  { name: "real/json-no-session-and-a-session", argv: ["json", `${F}/no-session/empty.ndjson`, `${F}/real-2026.ndjson`] },
);
// 4. A result with is_error: true: exit 1, one line on stderr naming the session and its text.
everyCommand("is-error", `${F}/is-error.ndjson`);
cases.push({ name: "real/text-final-is-error", argv: ["text", "--final", `${F}/is-error.ndjson`] });

goldenTests(cases);
