// test-run: scaled
import { readdirSync } from "node:fs";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
/** Every shared fixture log, and diff's own (test/fixtures/diff). */
// Read from the folder, so a fixture added later is covered at once (the .gz twin is the same log).
const FIXTURES = readdirSync(F)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => [f.slice(0, -".ndjson".length), `${F}/${f}`] as const);
const OURS = readdirSync(`${F}/diff`)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => [`diff-${f.slice(0, -".ndjson".length)}`, `${F}/diff/${f}`] as const);

const TERMINAL = { env: { TZ: "UTC", COLUMNS: "100" }, stdoutIsTTY: true };

const cases: GoldenCase[] = [];
for (const [name, path] of [...FIXTURES, ...OURS]) {
  cases.push({ name: `diff-${name}`, argv: ["diff", path] });
  cases.push({ name: `diff-stat-${name}`, argv: ["diff", "--stat", path] });
  cases.push({ name: `diff-names-${name}`, argv: ["diff", "--name-only", path] });
  cases.push({ name: `diff-tty-${name}`, argv: ["diff", path], ...TERMINAL });
}
cases.push(
  { name: "diff-stat-width-30-combined", argv: ["diff", "--stat", "--width", "30", `${F}/diff/combined.ndjson`] },
  { name: "diff-stat-tty-large-results", argv: ["diff", "--stat", `${F}/large-results.ndjson`], ...TERMINAL },
  { name: "diff-several-files", argv: ["diff", `${F}/2026-long.ndjson`, `${F}/diff/combined.ndjson`] },
  { name: "diff-stdin", argv: ["diff"], stdinFile: `${F}/2026-long.ndjson` },
  { name: "diff-stat-and-name-only", argv: ["diff", "--stat", "--name-only", `${F}/2026-long.ndjson`] },
);

// No session in the input (nothing, blank lines, only the agent CLI's text) and other agents' logs:
// the error every command gives, status 4 or 2, nothing on stdout.
for (const dir of ["no-session", "other-agents"]) {
  for (const f of readdirSync(`${F}/${dir}`).filter((n) => n.endsWith(".ndjson")).sort()) {
    cases.push({ name: `diff-${dir}-${f.slice(0, -".ndjson".length)}`, argv: ["diff", `${F}/${dir}/${f}`] });
  }
}

goldenTests(cases);
