// test-run: scaled
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { goldenTests } from "./helpers/golden.js";
import { runCli } from "./helpers/run-cli.js";

// The exact page (deterministic: no generation date, no randomness), whole input and in chunks.
goldenTests([
  { name: "timeline-html-2026-long", argv: ["timeline", "--format", "html", "test/fixtures/2026-long.ndjson"] },
  { name: "timeline-html-parallel-out-of-order", argv: ["timeline", "--format", "html", "test/fixtures/parallel-out-of-order.ndjson"] },
  { name: "timeline-html-columns", argv: ["timeline", "--format=html", "--columns", "seq", "test/fixtures/2026-long.ndjson"] },
]);

test("docs/timeline-example.html is today's page of 2026-long.ndjson (UPDATE_GOLDEN=1 rewrites it)", async () => {
  const got = await runCli(["timeline", "--format", "html", "test/fixtures/2026-long.ndjson"]);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync("docs/timeline-example.html", got.stdout);
  assert.equal(readFileSync("docs/timeline-example.html", "utf8"), got.stdout);
});
