import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonRecord } from "../src/input/record.js";
import { RUNS_COLUMNS, runRow, runsWriter, toRuns, type RunRow } from "../src/outputs/runs/index.js";
import { clipFile, fitTableColumns } from "../src/outputs/runs/render.js";
import { rowOrder } from "../src/outputs/runs/sort.js";
import { TABLE_COLUMNS } from "../src/outputs/runs/columns.js";
import { whereObject } from "../src/outputs/runs/index.js";
import { columns as displayColumns } from "../src/outputs/show/wrap.js";
import type { Out } from "../src/driver/driver.js";
import { fixtureRecords } from "./helpers/records.js";
import { quietReporter } from "./helpers/reporter.js";
import { runCli } from "./helpers/run-cli.js";

const text = (o: Out | void): string => (o === undefined ? "" : typeof o === "string" ? o : Buffer.isBuffer(o) ? o.toString() : [...o].join(""));

test("a run's line is written when the run ends: at its result line, or at the end of its file for a run cut off, never held to the end", () => {
  const stage = toRuns({ format: "ndjson", columns: ["line", "outcome"] }, quietReporter());
  const out: Array<[number, string]> = [];
  const records: JsonRecord[] = [...fixtureRecords("test/fixtures/two-sessions.ndjson"), ...fixtureRecords("test/fixtures/crash-no-result.ndjson")];
  let file = records[0]!.file;
  for (const rec of records) {
    if (rec.file !== file) {
      const o = text(stage.fileEnd?.(file, 0));
      if (o !== "") out.push([-1, o]);
      file = rec.file;
    }
    const o = text(stage.record(rec));
    if (o !== "") out.push([rec.line, o]);
  }
  const end = text(stage.fileEnd?.(file, 0));
  assert.deepEqual(out, [
    [4, '{"line":1,"outcome":"finished"}\n'],
    [10, '{"line":5,"outcome":"finished"}\n'],
  ]);
  assert.equal(end, '{"line":1,"outcome":"cut_off"}\n', "the run cut off: at the end of its file");
  assert.equal(text(stage.finish?.()), "", "nothing held for the end");
});

test("runRow and RUNS_COLUMNS are exported for another output (the HTML index): a row keyed by every column", () => {
  const rows: RunRow[] = [];
  const stage = toRuns({ format: "ndjson", columns: RUNS_COLUMNS }, quietReporter());
  assert.equal(typeof runRow, "function");
  for (const rec of fixtureRecords("test/fixtures/is-error.ndjson")) {
    const o = text(stage.record(rec));
    if (o !== "") rows.push(JSON.parse(o) as RunRow);
  }
  assert.equal(rows.length, 1);
  assert.deepEqual(Object.keys(rows[0]!), [...RUNS_COLUMNS]);
  assert.equal(rows[0]!.outcome, "failed");
});

test("--sort's order: numbers by value, an empty cell last whichever the direction, ties in input order", () => {
  const row = (line: number, duration_ms: number | undefined) => ({ line, duration_ms }) as unknown as RunRow;
  const rows = [row(1, 5), row(2, undefined), row(3, 10), row(4, 5)];
  const up = [...rows].sort(rowOrder([{ column: "duration_ms", descending: false }], false)).map((r) => r.line);
  const down = [...rows].sort(rowOrder([{ column: "duration_ms", descending: true }], false)).map((r) => r.line);
  const reversed = [...rows].sort(rowOrder([{ column: "duration_ms", descending: false }], true)).map((r) => r.line);
  assert.deepEqual(up, [1, 4, 3, 2]);
  assert.deepEqual(down, [3, 1, 4, 2]);
  assert.deepEqual(reversed, down);
});

test("--where sees every column, a value the log does not hold left out (exists is false, != holds)", () => {
  const o = whereObject({ file: "f", line: 1, agent: "cursor", outcome: "finished", cost_usd: undefined } as RunRow);
  assert.deepEqual(o, { file: "f", line: 1, agent: "cursor", outcome: "finished" });
});

test("the file column keeps the end of the name", () => {
  assert.equal(clipFile("logs/2026/run-12.ndjson", 16), "…/run-12.ndjson");
  assert.equal(clipFile("logs/2026/run-12.ndjson", 10), "…12.ndjson");
  assert.equal(clipFile("run.ndjson", 10), "run.ndjson");
});

test("the table fits the terminal, from 40 columns to 200, with or without --sort; a narrow one leaves columns out", async () => {
  assert.deepEqual(fitTableColumns(TABLE_COLUMNS, 40), ["file", "outcome", "message"]);
  assert.deepEqual(fitTableColumns(TABLE_COLUMNS, 0), [...TABLE_COLUMNS]);
  for (const width of [40, 55, 80, 100, 120, 160, 200]) {
    for (const sort of [[], ["--sort", "-duration_ms"]]) {
      const r = await runCli(["runs", ...sort, "test/fixtures/runs/mixed", "test/fixtures/runs/hostile-runs.ndjson", "test/fixtures/is-error.ndjson"], {
        stdoutIsTTY: true,
        env: { TZ: "UTC", NO_COLOR: "1", COLUMNS: String(width) },
      });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.split("\n").slice(0, -1);
      assert.equal(lines.length, 12, `${width}: a header and 11 runs`);
      for (const l of lines) assert.ok(displayColumns(l) <= width, `${width} ${sort.join(" ")}: a line of ${displayColumns(l)} columns: ${l}`);
      // Every column is where the header puts it: the outcome starts at the same column on each line.
      const at = lines[0]!.indexOf("outcome");
      for (const l of lines.slice(1)) assert.match([...l].slice(at).join(""), /^(finished|failed|error|cut off)/, `${width}: ${l}`);
    }
  }
});

test("a writer made with no rows: tsv and csv write their header, ndjson nothing", () => {
  assert.equal(runsWriter({ format: "tsv", columns: ["file", "outcome"] }).header, "file\toutcome\n");
  assert.equal(runsWriter({ format: "csv", columns: ["file", "outcome"] }).header, "file,outcome\n");
  assert.equal(runsWriter({ format: "ndjson", columns: ["file", "outcome"] }).header, "");
});

test("runs agrees with stats --format json on every run of every agent's fixtures: outcome, duration, calls, tokens, cost", async () => {
  const { CLAUDE_FIXTURES, claudeFixture } = await import("./helpers/claude-fixtures.js");
  const { CODEX_FIXTURES, codexFixture } = await import("./helpers/codex-fixtures.js");
  const { GEMINI_FIXTURES, geminiFixture } = await import("./helpers/gemini-fixtures.js");
  const files = [
    ...["2025-shape", "2026-long", "two-sessions", "failed-run", "crash-no-result", "is-error", "background-shells", "merged-stderr", "real-2026", "rejected-errored"].map((f) => `test/fixtures/${f}.ndjson`),
    ...CLAUDE_FIXTURES.map(claudeFixture),
    ...CODEX_FIXTURES.map(codexFixture),
    ...GEMINI_FIXTURES.map(geminiFixture),
  ];
  const runs = await runCli(["runs", "--format", "ndjson", "--columns", "file,line,last_line,outcome,duration_ms,duration_source,calls,failed_calls,refused_calls,open_calls,input_tokens,output_tokens,cost_usd", ...files]);
  const stats = await runCli(["stats", "--format", "json", ...files]);
  assert.equal(runs.code, 0, runs.stderr);
  type Obj = Record<string, unknown>;
  const rows = runs.stdout.trim().split("\n").map((l) => JSON.parse(l) as Obj);
  const sessions = stats.stdout.trim().split("\n").map((l) => JSON.parse(l) as Obj).filter((o) => o.type === "session");
  assert.equal(rows.length, sessions.length);
  assert.ok(rows.length > 40, `${rows.length} runs`);
  const OUTCOME: Record<string, string[]> = { finished: ["finished"], error: ["failed"], cut_off: ["error", "cut_off"] };
  for (const [i, r] of rows.entries()) {
    const s = sessions[i]!;
    const calls = s.calls as Obj;
    const usage = s.usage as Obj | null;
    const at = `${r.file}:${r.line}`;
    assert.deepEqual([r.file, r.line, r.last_line], [s.file, s.first_line, s.last_line], at);
    assert.ok(OUTCOME[s.outcome as string]!.includes(r.outcome as string), `${at}: runs ${r.outcome}, stats ${s.outcome}`);
    assert.deepEqual([r.duration_ms, r.duration_source], [s.duration_ms, s.duration_source], at);
    assert.deepEqual([r.calls, r.failed_calls, r.refused_calls, r.open_calls], [calls.total, calls.failed, calls.refused, calls.open], at);
    assert.deepEqual([r.input_tokens, r.output_tokens], [usage?.input_tokens ?? null, usage?.output_tokens ?? null], at);
    assert.equal(r.cost_usd, (s.cost as Obj | undefined)?.usd ?? null, at);
  }
});

test("the library: toRuns as a Transform (ndjsonTransform), from the package's entry", async () => {
  const { ndjsonTransform, toRuns: libRuns, RUNS_COLUMNS: cols } = await import("../src/index.js");
  const { Readable } = await import("node:stream");
  const { readFileSync } = await import("node:fs");
  const chunks: Buffer[] = [];
  const t = ndjsonTransform((r) => libRuns({ format: "ndjson", columns: cols }, r));
  await new Promise<void>((resolve, reject) => {
    Readable.from([readFileSync("test/fixtures/two-sessions.ndjson")]).pipe(t).on("data", (c: Buffer) => chunks.push(Buffer.from(c))).on("end", resolve).on("error", reject);
  });
  const rows = Buffer.concat(chunks).toString().trim().split("\n").map((l) => JSON.parse(l) as RunRow);
  assert.deepEqual(rows.map((r) => [r.line, r.outcome]), [[1, "finished"], [5, "finished"]]);
});
