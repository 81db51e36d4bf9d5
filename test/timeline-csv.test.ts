import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { escapeControls } from "../src/sanitize.js";
import { csvField } from "../src/outputs/shared/csv-field.js";
import { isoTimeFormatter } from "../src/outputs/shared/iso-time.js";
import { safeCell } from "../src/outputs/shared/safe-cell.js";
import { StartOrderQueue } from "../src/outputs/timeline/start-order-queue.js";
import { TIMELINE_COLUMNS } from "../src/outputs/timeline/columns.js";
import { toTimelineCsv, type TimelineOptions } from "../src/outputs/timeline/index.js";
import { tsvField } from "../src/outputs/shared/tsv-field.js";
import { parseCsv } from "./helpers/csv.js";
import { runLive, until } from "./helpers/live.js";
import { fixtureRecords, logFixtures } from "./helpers/records.js";
import { quietReporter } from "./helpers/reporter.js";
import { runCli } from "./helpers/run-cli.js";

const T = "test/fixtures/timeline";
const HEADER = TIMELINE_COLUMNS.join(",") + "\n";

/** Every log fixture: the shared ones and ours. */
const FIXTURES = logFixtures();

function stage(opts: Partial<TimelineOptions> = {}) {
  const messages: string[] = [];
  const reporter = quietReporter(messages);
  const s = toTimelineCsv({ format: "csv", columns: TIMELINE_COLUMNS, safe: false, header: true, allowIncomplete: false, ...opts }, reporter);
  return { s, messages, reporter };
}

/** Distinct call_ids per session, counted independently of the code under test. */
function callCount(path: string): number {
  const seen = new Set<string>();
  let session = 0;
  let afterResult = true;
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line.replace(/^\ufeff/, ""));
    } catch {
      continue;
    }
    if (afterResult || (v.type === "system" && v.subtype === "init")) session++;
    afterResult = v.type === "result";
    if (v.type === "tool_call" && (v.subtype === "started" || v.subtype === "completed") && typeof v.call_id === "string") {
      seen.add(`${session}\u0000${v.call_id}`);
    }
  }
  return seen.size;
}

test("timeline: rows come in start order, each as soon as every earlier-started call has completed", () => {
  const { s } = stage();
  const recs = fixtureRecords(`${T}/parallel-30-reverse.ndjson`);
  const first = recs.findIndex((r) => r.value.subtype === "completed");
  const last = recs.length - 1 - [...recs].reverse().findIndex((r) => r.value.subtype === "completed");
  let out = "";
  recs.forEach((rec, i) => {
    const got = s.record(rec);
    if (i === 0) assert.equal(got, HEADER, "the header comes with the first event");
    else if (i !== last) assert.equal(got, undefined, `nothing can be written at line ${rec.line}`);
    else out = got ?? "";
  });
  assert.ok(first < last);
  const rows = parseCsv(out);
  assert.equal(rows.length, 30, "all 30 rows are written when call 1 (the last to finish) completes");
  assert.deepEqual(
    rows.map((r) => r[2]),
    Array.from({ length: 30 }, (_, i) => String(i + 1)),
  );
  assert.deepEqual(
    rows.map((r) => r[6]),
    Array.from({ length: 30 }, (_, i) => `sleep ${30 - i}`),
  );
  assert.equal(s.fileEnd?.(`${T}/parallel-30-reverse.ndjson`, recs.length), undefined);
  assert.equal(s.finish?.(), undefined);
});

test("timeline: a sequential run writes each row at its completion, not at the end", () => {
  const { s } = stage({ header: false, multiline: true });
  for (const rec of fixtureRecords("test/fixtures/2026-long.ndjson")) {
    const got = s.record(rec);
    const v = rec.value;
    if (v.type === "tool_call" && v.subtype === "completed") {
      assert.ok(got !== undefined, `line ${rec.line}: the row is written at once`);
      const rows = parseCsv(got);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]![1], v.call_id);
      assert.equal(rows[0]![15], String(rec.line));
    } else {
      assert.equal(got, undefined, `line ${rec.line}: no output`);
    }
  }
});

test("timeline: three parallel calls finishing 3, 2, 1 are written together, in start order, when call 1 completes", () => {
  const { s } = stage({ header: false, columns: ["seq", "target"] });
  const outs = fixtureRecords("test/fixtures/parallel-out-of-order.ndjson").map((r) => [r.line, s.record(r)] as const);
  assert.deepEqual(
    outs.filter(([, o]) => o !== undefined),
    [[9, "1,sleep 6\n2,sleep 4\n3,sleep 1\n"]],
  );
});

test("timeline: a completion without a start takes the next seq and waits behind calls still running", () => {
  const { s, messages, reporter } = stage({ header: false, multiline: true, columns: ["seq", "call_id", "status", "started_line", "completed_line"] });
  const got = new Map<number, string | undefined>();
  for (const rec of fixtureRecords(`${T}/clocks-and-ends.ndjson`)) got.set(rec.line, s.record(rec));
  // line 10 is the second init: the first session ends there and its open call is written as incomplete
  assert.equal(got.get(10), '4,"call_clk4\nfc_4",incomplete,9,\n');
  assert.equal(got.get(15), undefined, "the orphan completion (seq 3) waits for seq 2");
  assert.equal(got.get(16), '2,"call_clk6\nfc_6",success,14,16\n3,"call_clk7\nfc_7",error,,15\n');
  assert.equal(s.fileEnd?.(`${T}/clocks-and-ends.ndjson`, 17), '4,"call_clk8\nfc_8",incomplete,17,\n');
  assert.equal(messages.length, 2, "both sessions lack a result");
  assert.match(messages[0]!, /clocks-and-ends\.ndjson:9\).*has no result/);
  assert.equal(reporter.code, 4);
});

test("timeline: a session's result writes every row it still holds, open calls as incomplete", () => {
  const { s, reporter } = stage({ header: false, columns: ["seq", "call_id", "status", "duration_ms", "started_at"] });
  const recs = fixtureRecords(`${T}/no-timestamps-2025.ndjson`);
  const outs = recs.map((r) => s.record(r));
  // npm test (seq 3) never completes: the orphan (4) and list_dir (5) wait behind it until the result
  assert.equal(outs.at(-1), "3,toolu_vrtx_01CCC,incomplete,,\n4,toolu_vrtx_01DDD,error,,\n5,toolu_vrtx_01EEE,,,\n");
  assert.equal(outs.join(""), "1,toolu_vrtx_01AAA,success,,\n2,toolu_vrtx_01BBB,success,,\n3,toolu_vrtx_01CCC,incomplete,,\n4,toolu_vrtx_01DDD,error,,\n5,toolu_vrtx_01EEE,,,\n");
  assert.equal(s.fileEnd?.("x", 0), undefined);
  assert.equal(reporter.code, 0, "the session has its result: not an error");
});

test("timeline: --allow-incomplete still writes incomplete rows but reports nothing", () => {
  const { s, messages, reporter } = stage({ allowIncomplete: true, header: false, columns: ["status"] });
  let out = "";
  for (const rec of fixtureRecords(`${T}/clocks-and-ends.ndjson`)) out += s.record(rec) ?? "";
  out += s.fileEnd?.("x", 0) ?? "";
  assert.equal(out, "success\nsuccess\nsuccess\nincomplete\nrejected\nsuccess\nerror\nincomplete\n");
  assert.deepEqual(messages, []);
  assert.equal(reporter.code, 0);
});

test("timeline: the header is written once, even with no input, and never for ndjson", () => {
  const a = stage();
  assert.equal(a.s.fileEnd?.("empty", 0), HEADER);
  assert.equal(a.s.fileEnd?.("empty2", 0), undefined);
  assert.equal(a.s.finish?.(), undefined);
  const b = stage();
  assert.equal(b.s.finish?.(), HEADER, "finish writes it when nothing else did");
  assert.equal(stage({ header: false }).s.fileEnd?.("x", 0), undefined);
  assert.equal(stage({ format: "ndjson" }).s.fileEnd?.("x", 0), undefined);
  assert.equal(stage({ format: "tsv", columns: ["seq", "target"] }).s.finish?.(), "seq\ttarget\n");
});

test("csvField quotes exactly the fields holding , \" CR or LF", () => {
  assert.equal(csvField("plain text; with 'quotes' and\ttabs"), "plain text; with 'quotes' and\ttabs");
  assert.equal(csvField("a,b"), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("one\ntwo"), '"one\ntwo"');
  assert.equal(csvField("cr\rhere"), '"cr\rhere"');
  assert.equal(csvField(""), "");
});

test("tsvField escapes TAB, LF, CR and backslash, nothing else", () => {
  assert.equal(tsvField('a,"b"'), 'a,"b"');
  assert.equal(tsvField("a\tb\nc\rd\\e"), "a\\tb\\nc\\rd\\\\e");
});

test("safeCell prefixes cells starting with = + - @ TAB or CR, and only those", () => {
  for (const s of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) assert.equal(safeCell(s), "'" + s);
  for (const s of ["", "a=1", " =1", "'x", "1-2", "\nx"]) assert.equal(safeCell(s), s);
});

test("isoTimeFormatter gives what Date#toISOString gives, and nothing for unknown or out-of-range times", () => {
  const iso = isoTimeFormatter();
  const cases = [0, -1, -0, 1.5, -1.5, 59_999, 60_000, -60_000, -60_001, 1767225600000, 1767225659999.9, 8.64e15, -8.64e15, 253402300800000];
  let x = 1767225600000;
  for (let i = 0; i < 5000; i++) cases.push((x += (i * 7919) % 100_003), -x / 3);
  for (const ms of cases) assert.equal(iso(ms), new Date(ms).toISOString(), String(ms));
  for (const ms of [undefined, NaN, Infinity, -Infinity, 8.64e15 + 1]) assert.equal(iso(ms), undefined, String(ms));
});

test("StartOrderQueue keeps order across compaction and restarts numbering at end", () => {
  // A key is an object (the tracker's OpenCall); a place is found by its seq.
  const q = new StartOrderQueue<{ k: number }>();
  const key = (k: number) => ({ k });
  const n = 5000;
  for (let i = 0; i < n; i++) assert.equal(q.start(key(i)), i + 1);
  let out = "";
  // complete all but the first, in order; nothing can be released while call 1 runs
  for (let i = 1; i < n; i++) assert.equal(q.complete(i + 1, (seq) => `${seq}\n`), "");
  out += q.complete(1, (seq) => `${seq}\n`);
  assert.equal(out, Array.from({ length: n }, (_, i) => `${i + 1}\n`).join(""));
  // pairs completing in reverse, so the head is released every second call and compaction kicks in
  for (let i = 0; i < 3000; i++) assert.equal(q.start(key(i)), n + i + 1, "the session goes on numbering");
  let got = "";
  for (let i = 0; i < 3000; i += 2) {
    got += q.complete(n + i + 2, (seq) => `${seq}\n`);
    got += q.complete(n + i + 1, (seq) => `${seq}\n`);
  }
  assert.equal(got, Array.from({ length: 3000 }, (_, i) => `${n + i + 1}\n`).join(""));
  q.start(key(1));
  assert.equal(q.completeUnstarted((seq) => `orphan ${seq}\n`), "");
  assert.equal(q.end((o, seq) => `open ${o.k} ${seq}\n`), `open 1 ${n + 3001}\norphan ${n + 3002}\n`);
  // Many rows held at the end come as pieces, in order, and the queue starts again at once.
  for (let i = 0; i < 100_000; i++) q.start(key(i));
  const pieces = q.end((o, seq) => `open ${o.k} ${seq}\n`);
  assert.equal(typeof pieces, "object");
  assert.equal(q.start(key(-1)), 1, "numbering restarts at end, before the pieces are read");
  const all = [...(pieces as Iterable<string>)];
  assert.ok(all.length > 10 && all.every((p) => p.length < 70_000), `${all.length} pieces`);
  assert.equal(all.join(""), Array.from({ length: 100_000 }, (_, i) => `open ${i} ${i + 1}\n`).join(""));
  q.end(() => "");
  assert.equal(q.start(key(7)), 1, "numbering restarts after end");
});

test("timeline CSV (--multiline) of every fixture loads in an RFC 4180 reader: one record per call plus the header, equal to the ndjson values", async () => {
  for (const f of FIXTURES) {
    const csv = await runCli(["timeline", "--lenient", "--multiline", f]);
    const nd = await runCli(["timeline", "--lenient", "--format", "ndjson", f]);
    const rows = parseCsv(csv.stdout);
    assert.deepEqual(rows[0], [...TIMELINE_COLUMNS], `${f}: header`);
    assert.equal(rows.length - 1, callCount(f), `${f}: one record per distinct call_id per session`);
    const objs = nd.stdout === "" ? [] : nd.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const asText = objs.map((o) => TIMELINE_COLUMNS.map((c) => (o[c] === null ? "" : String(o[c]))));
    assert.deepEqual(rows.slice(1), asText, `${f}: CSV and NDJSON hold the same values`);
  }
});

test("timeline TSV of every fixture unescapes to the same values as the CSV", async () => {
  const unescape = (s: string) => s.replace(/\\([tnr\\])/g, (_, c: string) => ({ t: "\t", n: "\n", r: "\r", "\\": "\\" })[c]!);
  for (const f of FIXTURES) {
    const csv = parseCsv((await runCli(["timeline", "--lenient", "--multiline", f])).stdout);
    const tsv = (await runCli(["timeline", "--lenient", "--format", "tsv", f])).stdout;
    assert.ok(tsv.endsWith("\n"));
    const rows = tsv.slice(0, -1).split("\n").map((l) => l.split("\t").map(unescape));
    assert.deepEqual(rows, csv, f);
  }
});

test("timeline CSV of every fixture loads in Python's csv module with one record per call", async (t) => {
  const probe = spawnSync("python3", ["-c", "import csv"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    t.skip("python3 is not available: the real-reader check is skipped (the RFC 4180 parser test still ran)");
    return;
  }
  // One python3 for every CSV (a JSON list of their bytes, base64): each is read as a file of
  // those bytes would be, and what it reads comes back as a list of rows per CSV.
  const script =
    "import base64, csv, io, json, sys\n" +
    "out = []\n" +
    "for b in json.load(sys.stdin):\n" +
    "    out.append(list(csv.reader(io.TextIOWrapper(io.BytesIO(base64.b64decode(b)), encoding='utf-8', newline=''), strict=True)))\n" +
    "print(json.dumps(out))\n";
  const cases = [...FIXTURES, `${T}/awkward-values.ndjson --safe-csv`];
  const csvs: string[] = [];
  for (const f of cases) {
    const [file, ...extra] = f.split(" ");
    csvs.push((await runCli(["timeline", "--lenient", ...extra, file!])).stdout);
  }
  const py = spawnSync("python3", ["-c", script], { input: JSON.stringify(csvs.map((c) => Buffer.from(c, "utf8").toString("base64"))), encoding: "utf8", maxBuffer: 1 << 28 });
  assert.equal(py.status, 0, `python csv failed: ${py.stderr}`);
  const read = JSON.parse(py.stdout) as string[][][];
  assert.equal(read.length, cases.length);
  for (const [i, f] of cases.entries()) {
    const rows = read[i]!;
    assert.equal(rows.length, callCount(f.split(" ")[0]!) + 1, `${f}: records`);
    assert.deepEqual(rows, parseCsv(csvs[i]!), `${f}: Python reads the same fields`);
  }
});

test("timeline CSV loads in Miller with the same records", async (t) => {
  if (spawnSync("mlr", ["--version"]).error) {
    t.skip("mlr is not installed");
    return;
  }
  for (const f of [`${T}/awkward-values.ndjson`, `${T}/parallel-30-reverse.ndjson`, "test/fixtures/2026-long.ndjson"]) {
    const { stdout } = await runCli(["timeline", f]);
    const mlr = spawnSync("mlr", ["--icsv", "--ojson", "cat"], { input: stdout, encoding: "utf8" });
    assert.equal(mlr.status, 0, mlr.stderr);
    const recs = JSON.parse(mlr.stdout) as Record<string, unknown>[];
    const rows = parseCsv(stdout).slice(1);
    assert.equal(recs.length, rows.length, f);
    // Miller 6 turns a CRLF inside a quoted field into LF; everything else must match
    assert.deepEqual(
      recs.map((r) => String(r.target ?? "")),
      rows.map((r) => r[6]!.replace(/\r\n/g, "\n")),
      `${f}: targets`,
    );
  }
});

test("timeline action and target are what `cursorlog text -v` prints for the same call", async () => {
  for (const f of FIXTURES) {
    // Action lines only: not a background task's end, nor the agent CLI's own text.
    const text = (await runCli(["text", "-v", "--lenient", "--allow-incomplete", f])).stdout
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("Background task ") && !l.startsWith("The agent CLI said: "));
    const nd = (await runCli(["timeline", "--lenient", "--format", "ndjson", f])).stdout;
    const done = nd
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string | null>)
      .filter((o) => o.status !== "incomplete");
    assert.equal(done.length, text.length, `${f}: one action line per completed call`);
    const heads = done.map((o) => o.action + (o.target === null ? "" : ": " + escapeControls(o.target)));
    const lines = [...text];
    for (const h of heads) {
      const i = lines.findIndex((l) => l === h || l.startsWith(h + " ("));
      assert.ok(i >= 0, `${f}: no text line for ${JSON.stringify(h)} in ${JSON.stringify(lines)}`);
      lines.splice(i, 1);
    }
  }
});

test("timeline --columns: an unknown column is a usage error that lists the valid ones", async () => {
  const r = await runCli(["timeline", "--columns", "seq,nope", "test/fixtures/2026-long.ndjson"]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /unknown column "nope"; valid columns: session_id,call_id,seq,kind,tool,action,target,started_at,completed_at,duration_ms,status,exit_code,model_call_id,file,started_line,completed_line,background_end,background_ms/);
});

test("timeline --help documents the columns, formats, ordering and --safe-csv", async () => {
  const r = await runCli(["help", "timeline"]);
  assert.equal(r.code, 0);
  for (const c of TIMELINE_COLUMNS) assert.match(r.stdout, new RegExp(`^  ${c} `, "m"), c);
  for (const s of ["--format <format>", "--no-header", "--columns <list>", "--safe-csv", "Records end in LF", "mlr --otsv", "incomplete"]) {
    assert.ok(r.stdout.includes(s), s);
  }
});

test("timeline on a live pipe writes each row while the input is still open", async () => {
  const lines = readFileSync("test/fixtures/parallel-out-of-order.ndjson", "utf8").split("\n").filter(Boolean);
  let out = "";
  const { stdin, done } = runLive(["timeline", "--columns", "seq,target"], (text) => (out += text));
  const waitFor = async (want: string) => {
    await until(() => out === want);
    assert.equal(out, want);
  };
  for (const l of lines.slice(0, 8)) stdin.write(l + "\n"); // up to the 2nd completion: sleep 6 still runs
  await waitFor("seq,target\n");
  stdin.write(lines[8] + "\n"); // sleep 6 completes: all three rows, in start order, before the input ends
  await waitFor("seq,target\n1,sleep 6\n2,sleep 4\n3,sleep 1\n");
  for (const l of lines.slice(9)) stdin.write(l + "\n");
  stdin.end();
  assert.equal(await done, 0);
  assert.equal(out, "seq,target\n1,sleep 6\n2,sleep 4\n3,sleep 1\n");
});

test("timeline takes its facts from the run model: a call's end before its start on its own clock gives the lines' duration, never a negative one; a background subagent task's row waits for its end", async () => {
  const S = "s";
  const call = (sub: string, id: string, tool: object, ts: number, extra: object = {}) =>
    JSON.stringify({ type: "tool_call", subtype: sub, call_id: id, tool_call: { ...tool, ...extra }, session_id: S, timestamp_ms: ts });
  const lines = [
    JSON.stringify({ type: "system", subtype: "init", session_id: S, timestamp_ms: 900 }),
    call("started", "a", { shellToolCall: { args: { command: "x" } } }, 1000, { startedAtMs: "2000" }),
    call("completed", "a", { shellToolCall: { args: { command: "x" }, result: { success: { exitCode: 0 } } } }, 3000, { startedAtMs: "2000", completedAtMs: "1500" }),
    call("started", "t", { taskToolCall: { args: { description: "docs", isBackground: true } } }, 3100),
    call("completed", "t", { taskToolCall: { args: { description: "docs", isBackground: true }, result: { success: { isBackground: true, agentId: "ag1" } } } }, 3200),
    call("started", "b", { readToolCall: { args: { path: "f" } } }, 3300),
    call("completed", "b", { readToolCall: { args: { path: "f" }, result: { success: {} } } }, 3400),
    JSON.stringify({ type: "system", subtype: "task_notification", task_id: "ag1", status: "success", session_id: S, timestamp_ms: 5100 }),
    JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "", session_id: S, timestamp_ms: 5200 }),
  ];
  const r = await runCli(["timeline", "--columns", "seq,call_id,duration_ms,status,background_ms"], { stdin: lines.join("\n") + "\n" });
  assert.equal(r.stderr, "");
  assert.equal(r.stdout, "seq,call_id,duration_ms,status,background_ms\n1,a,2000,success,\n2,t,100,success,2000\n3,b,100,success,\n");
});
