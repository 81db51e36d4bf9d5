// test-run: scaled
import { readdirSync } from "node:fs";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";

const F = "test/fixtures";
/** Every shared fixture log, and show's own (test/fixtures/show). */
// Read from the folder, so a fixture added later is covered at once (the .gz twin is the same log).
const FIXTURES = readdirSync(F)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => [f.slice(0, -".ndjson".length), `${F}/${f}`] as const);
const OURS = readdirSync(`${F}/show`)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()
  .map((f) => [`show-${f.slice(0, -".ndjson".length)}`, `${F}/show/${f}`] as const);

/** A terminal 100 columns wide: colour on (no NO_COLOR), COLUMNS sets the width. */
const TERMINAL = { env: { TZ: "UTC", COLUMNS: "100" }, stdoutIsTTY: true };

const cases: GoldenCase[] = [];
for (const [name, path] of [...FIXTURES, ...OURS]) {
  // Pipe: plain text at 80 columns, nothing rewritten.
  cases.push({ name: `show-${name}`, argv: ["show", path] });
  cases.push({ name: `show-tty-${name}`, argv: ["show", path], ...TERMINAL });
  cases.push({ name: `show-md-${name}`, argv: ["show", "--format", "markdown", path] });
  cases.push({ name: `show-md-tty-${name}`, argv: ["show", "--format", "markdown", path], ...TERMINAL });
}
cases.push(
  { name: "show-thinking-diff-2026-long", argv: ["show", "--thinking", "--diff", `${F}/2026-long.ndjson`] },
  { name: "show-md-thinking-diff-2026-long", argv: ["show", "--format", "markdown", "--thinking", "--diff", `${F}/2026-long.ndjson`] },
  { name: "show-diff-combined", argv: ["show", "--diff", `${F}/diff/combined.ndjson`] },
  { name: "show-lines-2-background", argv: ["show", "--lines", "2", `${F}/show/background.ndjson`] },
  { name: "show-lines-0-rejected", argv: ["show", "--lines", "0", `${F}/rejected-errored.ndjson`] },
  // Wrapping: narrow, none, and a word longer than the width.
  { name: "show-width-40-background", argv: ["show", "--width", "40", `${F}/show/background.ndjson`] },
  { name: "show-width-0-background", argv: ["show", "--width", "0", `${F}/show/background.ndjson`] },
  { name: "show-columns-env", argv: ["show", `${F}/show/background.ndjson`], env: { TZ: "UTC", NO_COLOR: "1", COLUMNS: "50" } },
  // Several files: sessions numbered across them, each with its header.
  { name: "show-several-files", argv: ["show", `${F}/2025-shape.ndjson`, `${F}/crash-no-result.ndjson`, `${F}/two-sessions.ndjson`] },
  // -e: the exit status says how the runs ended.
  { name: "show-e-crash", argv: ["show", "-e", `${F}/crash-no-result.ndjson`] },
  { name: "show-e-finished", argv: ["show", "-e", `${F}/2026-long.ndjson`] },
  { name: "show-lenient-merged-stderr", argv: ["show", "--lenient", `${F}/merged-stderr.ndjson`] },
  { name: "show-stdin", argv: ["show"], stdinFile: `${F}/partial-output.ndjson` },
);

// No session in the input (nothing, blank lines, only the agent CLI's text) and other agents' logs:
// the error every command gives, status 4 or 2, nothing on stdout.
for (const dir of ["no-session", "other-agents"]) {
  for (const f of readdirSync(`${F}/${dir}`).filter((n) => n.endsWith(".ndjson")).sort()) {
    cases.push({ name: `show-${dir}-${f.slice(0, -".ndjson".length)}`, argv: ["show", `${F}/${dir}/${f}`] });
  }
}

goldenTests(cases);
