import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { colorsFor } from "../src/cli/config.js";
import { DEFAULT_LIMITS } from "../src/outputs/stats/collect.js";
import { formatCount, formatDuration } from "../src/outputs/stats/format.js";
import { toStatsJson } from "../src/outputs/stats/json.js";
import { markdownText } from "../src/outputs/shared/markdown-escape.js";
import { toStats } from "../src/outputs/stats/index.js";
import { toStatsText } from "../src/outputs/stats/text.js";
import type { StatsRenderer } from "../src/outputs/stats/types.js";
import { runLive, until } from "./helpers/live.js";
import { fixtureRecords } from "./helpers/records.js";
import { quietReporter } from "./helpers/reporter.js";
import { runCli } from "./helpers/run-cli.js";

const HOSTILE = ["test/fixtures/hostile.ndjson", "test/fixtures/stats/markdown-hostile.ndjson"];

function stage(render: StatsRenderer, exitStatus = false) {
  const reporter = quietReporter();
  return { s: toStats({ limits: DEFAULT_LIMITS, render, exitStatus }, reporter), reporter };
}

/** Splits a Markdown table row at the pipes GFM splits at (a backslash escapes the next character). */
function cells(row: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (ch === "\\") {
      cur += ch + (row[i + 1] ?? "");
      i++;
    } else if (ch === "|") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.slice(1, -1);
}

test("markdownText: | and backticks (and the other inline specials) get a backslash, controls are shown escaped", () => {
  assert.equal(markdownText("a|b"), "a\\|b");
  assert.equal(markdownText("`x`"), "\\`x\\`");
  assert.equal(markdownText("<b>*x*</b> [l](u) $m$ @u a_b ~s~ &amp; \\"), "\\<b\\>\\*x\\*\\</b\\> \\[l\\](u) \\$m\\$ \\@u a\\_b \\~s\\~ \\&amp; \\\\");
  assert.equal(markdownText("line\nnext\u001b[2J"), "line\\\\nnext\\\\u001b\\[2J");
  assert.equal(markdownText("plain path/to/file.ts"), "plain path/to/file.ts");
});

test("markdown: a hostile log cannot split a table cell, open a code span or inject HTML", async () => {
  for (const f of HOSTILE) {
    const { stdout, code } = await runCli(["stats", "--format", "markdown", f]);
    assert.equal(code, 0);
    let width = 0;
    for (const line of stdout.split("\n")) {
      if (!line.startsWith("|")) {
        width = 0;
        continue;
      }
      const n = cells(line).length;
      if (width === 0) width = n;
      assert.equal(n, width, `${f}: row has ${n} cells, header ${width}: ${line}`);
    }
    // Every < > ` | from the log carries a backslash; ours appear only in table syntax.
    const text = stdout.replace(/\\./g, "");
    assert.doesNotMatch(text, /[<>`]/, `${f}: unescaped < > or backtick`);
    assert.doesNotMatch(stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  }
});

test("text: strings from the log are escaped, no control character reaches the terminal", async () => {
  for (const f of HOSTILE) {
    const { stdout } = await runCli(["stats", f], { stdoutIsTTY: true, env: { TERM: "xterm" } });
    assert.doesNotMatch(stdout.replace(/\u001b\[\d+m/g, ""), /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, f);
    assert.match(stdout, /\u001b\[1m/, "colour on a terminal");
  }
  const plain = await runCli(["stats", HOSTILE[0]!]);
  assert.doesNotMatch(plain.stdout, /\u001b/, "no colour when stdout is not a terminal");
});

test("json: one parseable object per line, fixed key order, the log's strings exactly (terminal-unsafe ones \\u-escaped)", async () => {
  const { stdout } = await runCli(["stats", "--format", "json", ...HOSTILE, "test/fixtures/crash-no-result.ndjson"]);
  assert.doesNotMatch(stdout, /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  const lines = stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((o) => o.type), ["session", "session", "session", "total"]);
  const keys = Object.keys(lines[0]);
  for (const o of lines.slice(0, 3)) assert.deepEqual(Object.keys(o), keys);
  assert.deepEqual(keys.slice(0, 4), ["type", "index", "file", "first_line"]);
  assert.equal(lines[0].files.read.paths[0], "a\u202eb.txt\r\nfake line");
  assert.equal(lines[2].outcome, "cut_off");
  assert.equal(lines[2].usage, null);
  assert.equal(lines[2].duration_source, "timestamps");
  assert.deepEqual(lines[2].open_calls.items.map((c: { target: string }) => c.target), ["npm run build"]);
  assert.equal(lines[3].sessions, 3);
  assert.equal(typeof lines[3].calls.total, "number");
});

test("stage: a session's block is written at its result, a cut-off one at the next init, the total at the end", () => {
  const { s } = stage(toStatsJson());
  const records = [...fixtureRecords("test/fixtures/crash-no-result.ndjson"), ...fixtureRecords("test/fixtures/two-sessions.ndjson")];
  // One file name for all: no fileEnd between them, so only the init can end the crashed session.
  const out: Array<[number, string]> = [];
  records.forEach((r, i) => {
    const text = s.record({ ...r, file: "live" });
    if (text !== undefined) out.push([i, text]);
  });
  const lastOfCrash = 8;
  assert.deepEqual(
    out.map(([i, t]) => [i, JSON.parse(t).outcome]),
    [
      [lastOfCrash + 1, "cut_off"], // written when the next init arrives
      [lastOfCrash + 4, "finished"], // at the first result of two-sessions
      [lastOfCrash + 10, "finished"],
    ],
  );
  assert.equal(s.fileEnd?.("live"), undefined, "nothing left open");
  assert.equal(JSON.parse(s.finish!()!).sessions, 3);
});

test("stage: -e raises 1 for is_error and 4 for a cut-off session; without it the status stays 0", () => {
  const run = (path: string, e: boolean) => {
    const { s, reporter } = stage(toStatsText(colorsFor(false)), e);
    for (const r of fixtureRecords(path)) s.record(r);
    s.fileEnd?.(path);
    s.finish?.();
    return reporter.code;
  };
  assert.equal(run("test/fixtures/stats/usage-runs.ndjson", false), 0);
  assert.equal(run("test/fixtures/stats/usage-runs.ndjson", true), 1);
  assert.equal(run("test/fixtures/crash-no-result.ndjson", false), 0);
  assert.equal(run("test/fixtures/crash-no-result.ndjson", true), 4);
  assert.equal(run("test/fixtures/2026-long.ndjson", true), 0);
});

test("formatDuration and formatCount: readable, locale-independent", () => {
  assert.deepEqual([0, 37, 999, 1000, 2400, 59_994, 59_995, 75_300, 3_599_400, 3_600_000, 7_384_000].map(formatDuration), [
    "0 ms",
    "37 ms",
    "999 ms",
    "1.00 s",
    "2.40 s",
    "59.99 s",
    "1 min 00 s",
    "1 min 15 s",
    "59 min 59 s",
    "1 h 00 min",
    "2 h 03 min",
  ]);
  assert.deepEqual([0, 999, 1000, 1234567, -20480, 1.5].map(formatCount), ["0", "999", "1,000", "1,234,567", "-20,480", "1.5"]);
});

test("stats on a live pipe writes a session's block at its result, while the input is still open", async () => {
  const lines = readFileSync("test/fixtures/two-sessions.ndjson", "utf8").split("\n").filter(Boolean);
  let out = "";
  const { stdin, done } = runLive(["stats", "--format", "json"], (text) => (out += text));
  const waitForLines = async (n: number) => {
    await until(() => out.split("\n").length - 1 >= n);
    return out.trimEnd().split("\n").map((l) => JSON.parse(l).type);
  };
  for (const l of lines.slice(0, 3)) stdin.write(l + "\n");
  await sleep(20);
  assert.equal(out, "", "nothing before the first result");
  stdin.write(lines[3] + "\n"); // the first session's result
  assert.deepEqual(await waitForLines(1), ["session"]);
  for (const l of lines.slice(4)) stdin.write(l + "\n"); // the second session, up to its result
  assert.deepEqual(await waitForLines(2), ["session", "session"]);
  stdin.end();
  assert.equal(await done, 0);
  assert.deepEqual(out.trimEnd().split("\n").map((l) => JSON.parse(l).type), ["session", "session", "total"]);
});
