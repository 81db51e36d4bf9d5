// test-run: scaled
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
    { name: `real/timeline-html-${stem}`, argv: ["timeline", "--format", "html", path] },
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
// 6. Filter words people type: cursorlog's own (failed, tool) and Cursor's tool names, any case.
const RE = `${F}/rejected-errored.ndjson`;
cases.push(
  { name: "real/filter-status-failed", argv: ["filter", "--status", "failed", RE] },
  { name: "real/filter-status-refused-count", argv: ["filter", "-c", "--status", "refused", RE] },
  { name: "real/filter-tool-Shell-count", argv: ["filter", "-c", "--tool", "Shell", RE] },
  { name: "real/filter-tool-bash-count", argv: ["filter", "-c", "--tool", "bash", RE] },
  { name: "real/filter-type-tool-count", argv: ["filter", "-c", "--type", "tool", RE] },
  { name: "real/filter-tool-Read-Task-count", argv: ["filter", "-c", "--tool", "Read", "--tool", "TASK", RE] },
  { name: "real/filter-tool-unknown", argv: ["filter", "-c", "--tool", "shel", RE] },
  { name: "real/filter-status-unknown-e", argv: ["filter", "-e", "--status", "crashed", RE] },
);
// 5. Other agents' logs: one line naming the format, exit 2 (filter selects any NDJSON's lines).
for (const stem of ["claude-code", "codex", "gemini"]) everyCommand(`other-${stem}`, `${F}/other-agents/${stem}.ndjson`);
cases.push(
  { name: "real/text-final-other-claude-code", argv: ["text", "--final", `${F}/other-agents/claude-code.ndjson`] },
  { name: "real/json-other-then-cursor", argv: ["json", `${F}/other-agents/codex.ndjson`, `${F}/is-error.ndjson`] },
  { name: "real/validate-other-own-schema", argv: ["validate", "--no-lifecycle", "--schema", "schemas", `${F}/other-agents/gemini.ndjson`] },
);
// 3. Background shells linked to their task_notification (timeline columns, text -v, stats, HTML).
everyCommand("background-shells", `${F}/background-shells.ndjson`);
cases.push(
  { name: "real/timeline-ndjson-background-shells", argv: ["timeline", "--format", "ndjson", `${F}/background-shells.ndjson`] },
  { name: "real/timeline-columns-background-real-2026", argv: ["timeline", "--columns", "seq,kind,target,duration_ms,background_end,background_ms", `${F}/real-2026.ndjson`] },
);

goldenTests(cases);
