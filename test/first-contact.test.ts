// test-run: scaled
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { TIMELINE_COLUMNS } from "../src/outputs/timeline/columns.js";
import { parseCsv } from "./helpers/csv.js";
import { runCli, type CliResult } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";

// Issue 26, "First contact: what a new user met": timeline's default CSV is one row per line (A);
// filter says the agent CLI's text once per run (B); -H/--with-filename for text, json, filter and
// timeline, -v/--invert-match for filter (C); stats --format json carries whole values (D).
//
// Sizes (test/helpers/scale.ts): make test writes each fixture's CSV by default and with one of
// --no-header and --safe-csv in turn, and compares one thread with --jobs 2 or 3 in turn; make
// stress (CURSORLOG_STRESS=1) both options on every fixture, and --jobs 2 and 3 for each case.

const scratch = mkdtempSync(join(tmpdir(), "cursorlog-first-contact-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The note a run gets when --jobs asks for more threads than the machine has. */
const withoutNote = (r: CliResult): CliResult => ({ ...r, stderr: r.stderr.replace(/^cursorlog: note: --jobs .*\n/m, "") });

/** Every log among the fixtures, in every folder (another agent's logs give a header alone). */
function everyFixture(dir = "test/fixtures"): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = `${dir}/${name}`;
    if (statSync(path).isDirectory()) out.push(...everyFixture(path));
    else if (/\.ndjson(\.gz)?$|^multi-line-values\.json$/.test(name)) out.push(path);
  }
  return out;
}

const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join("\n") + "\n";
const S = "5e1f0c3a-0000-4000-8000-000000000026";
const init = { type: "system", subtype: "init", session_id: S, model: "Auto" };
const shell = (id: string, command: string, sub = "started") => ({
  type: "tool_call",
  subtype: sub,
  call_id: id,
  tool_call: { shellToolCall: sub === "started" ? { args: { command } } : { args: { command }, result: { success: { exitCode: 0 } } } },
  session_id: S,
});
const result = { type: "result", subtype: "success", is_error: false, result: "ok", session_id: S };

// ---- A: timeline's default CSV is one record per physical line ----

test(`timeline: every default CSV row is one physical line, over every fixture${STRESS ? "" : " (--no-header or --safe-csv in turn)"}, holding the values NDJSON gives (line breaks written \\n, \\r)`, async () => {
  const esc = (v: unknown) => (v === null ? "" : String(v).replace(/[\r\n]/g, (c) => (c === "\n" ? "\\n" : "\\r")));
  let multiLineValues = 0;
  const extras = [["--no-header"], ["--safe-csv"]];
  for (const [n, f] of everyFixture().entries()) {
    // The values each row must hold, once a fixture.
    const nd = (await runCli(["timeline", "--lenient", "--allow-incomplete", "--format", "ndjson", f])).stdout;
    const objs = nd === "" ? [] : nd.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const extra of [[], ...(STRESS ? extras : [extras[n % 2]!])]) {
      const csv = (await runCli(["timeline", "--lenient", "--allow-incomplete", ...extra, f])).stdout;
      const physical = csv === "" ? [] : csv.slice(0, -1).split("\n");
      assert.ok(csv === "" || csv.endsWith("\n"), f);
      const header = extra[0] === "--no-header" ? 0 : 1;
      assert.equal(physical.length, objs.length + header, `${f} ${extra.join(" ")}: one line per row (and the header)`);
      for (const [i, line] of physical.entries()) {
        const rec = parseCsv(line + "\n");
        assert.equal(rec.length, 1, `${f} line ${i + 1}: one record`);
        assert.equal(rec[0]!.length, TIMELINE_COLUMNS.length, `${f} line ${i + 1}: every column`);
        if (i < header) continue;
        const o = objs[i - header]!;
        for (const [k, c] of TIMELINE_COLUMNS.entries()) {
          if (typeof o[c] === "string" && /[\r\n]/.test(o[c] as string)) multiLineValues++;
          const want = esc(o[c]);
          // --safe-csv: only a cell that would start a formula gains its quote mark.
          if (extra[0] === "--safe-csv" && /^[=+\-@\t\r]/.test(want)) assert.equal(rec[0]![k], "'" + want, `${f} row ${i} ${c}`);
          else assert.equal(rec[0]![k], want, `${f} row ${i} ${c}`);
        }
      }
    }
  }
  assert.ok(multiLineValues > 100, `the fixtures hold values with line breaks (${multiLineValues})`);
});

test("timeline: the 2026 call id and a multi-line command, by default and with --multiline; a literal \\n reads the same (documented)", async () => {
  const stdin = lines(init, shell("call_a\nfc_a", "cat <<EOF\nx, y\nEOF"), shell("call_a\nfc_a", "cat <<EOF\nx, y\nEOF", "completed"), shell("call_b", "printf 'a\\nb'"), shell("call_b", "printf 'a\\nb'", "completed"), result);
  const cols = ["--columns", "call_id,seq,target"];
  const plain = await runCli(["timeline", ...cols], { stdin });
  assert.equal(plain.stdout, "call_id,seq,target\ncall_a\\nfc_a,1,\"cat <<EOF\\nx, y\\nEOF\"\ncall_b,2,printf 'a\\nb'\n");
  assert.equal(plain.stdout.split("\n").length, 4);
  const multi = await runCli(["timeline", "--multiline", ...cols], { stdin });
  assert.equal(multi.stdout, 'call_id,seq,target\n"call_a\nfc_a",1,"cat <<EOF\nx, y\nEOF"\ncall_b,2,printf \'a\\nb\'\n');
  assert.deepEqual(parseCsv(multi.stdout)[1], ["call_a\nfc_a", "1", "cat <<EOF\nx, y\nEOF"]);
  // On a terminal the cells were escaped already: the same one line either way.
  assert.equal((await runCli(["timeline", ...cols], { stdin, stdoutIsTTY: true })).stdout, plain.stdout);
  // TSV and NDJSON escape line breaks always: --multiline is for csv only; html takes no CSV options.
  for (const format of ["tsv", "ndjson"]) {
    const r = await runCli(["timeline", "--format", format, "--multiline"], { stdin });
    assert.deepEqual(r, { stdout: "", stderr: `cursorlog: error: --multiline cannot be used with --format ${format} (csv only)\nRun 'cursorlog timeline --help' for usage.\n`, code: 2 });
  }
  const html = await runCli(["timeline", "--format", "html", "--multiline", "-H"], { stdin });
  assert.equal(html.code, 2);
  assert.equal(html.stderr, "cursorlog: error: --multiline, --with-filename cannot be used with --format html\nRun 'cursorlog timeline --help' for usage.\n");
});

test("timeline --help and README say CSV is one record per line, how line breaks are written, and show -H", async () => {
  const help = (await runCli(["timeline", "--help"])).stdout.replace(/\s+/g, " ");
  assert.match(help, /One record per line, for head, wc -l, cut and column: a line break inside a value \(OpenAI-style call ids hold one, as do multi-line commands\) is written \\n \(CR: \\r\)/);
  assert.match(help, /--multiline csv: write line breaks inside a cell as they are/);
  assert.match(help, /\$ cursorlog timeline -H --columns seq,status logs\//);
  const readme = readFileSync("README.md", "utf8").replace(/\s+/g, " ");
  assert.match(readme, /one record per line: a line break inside a cell \(a 2026 `call_…\\nfc_…` id, a multi-line command\) is written `\\n`/);
  assert.match(readme, /cursorlog timeline -H --columns seq,status,target logs\//);
});

// ---- B: filter says the agent CLI's text once per run ----

/** The --jobs counts the k-th case compares with one thread: 2 and 3 in make stress; one of them in turn in make test. */
const jobsFor = (k: number) => (STRESS ? ["2", "3"] : [k % 2 === 0 ? "2" : "3"]);

test("filter over a folder says the agent CLI's text once per run, and not at all with -c; --jobs says the same", async () => {
  const dir = join(scratch, "said");
  mkdirSync(dir);
  for (const n of [1, 2, 3]) copyFileSync("test/fixtures/merged-stderr.ndjson", join(dir, `run${n}.ndjson`));
  const once = `cursorlog: warning (at ${dir}/run1.ndjson:4): the agent CLI said: RetriableError: [invalid_argument] unknown option '--system-prompt' (not an event, not written; further lines of its text are not reported)\n`;
  const r = await runCli(["filter", dir]);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, once);
  assert.equal(r.stdout.split("\n").length - 1, 15, "the 15 events, not the text");
  const c = await runCli(["filter", "-c", dir]);
  assert.deepEqual(c, { stdout: "15\n", stderr: "", code: 0 });
  assert.deepEqual((await runCli(["filter", "-c", "-H", dir])).stderr, "");
  for (const [k, argv] of [["filter"], ["filter", "-c"], ["filter", "-v", "--type", "result"], ["filter", "-H", "--pair", "--tool", "read"]].entries()) {
    const one = await runCli([...argv, "--jobs", "1", dir]);
    for (const n of jobsFor(k)) assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", n, dir])), one, `${argv.join(" ")} --jobs ${n}`);
  }
});

// ---- C: -v/--invert-match ----

test("filter -v writes exactly the events filter would not (predicates and time window), never the agent CLI's text", async () => {
  const f = "test/fixtures/merged-stderr.ndjson";
  const all = (await runCli(["filter", f])).stdout;
  for (const pred of [["--type", "user"], ["--tool", "read", "--tool", "shell"], ["--where", "subtype exists"], ["--since", "2026-01-01T00:00:00Z"], ["--type", "system", "--until", "2027-01-01T00:00:00Z"]]) {
    const yes = (await runCli(["filter", ...pred, f])).stdout;
    const no = await runCli(["filter", "-v", ...pred, f]);
    assert.equal(no.code, 0);
    const kept = new Set(yes.split("\n"));
    assert.deepEqual(
      no.stdout.split("\n").filter(Boolean),
      all.split("\n").filter((l) => l !== "" && !kept.has(l)),
      pred.join(" "),
    );
  }
  // No predicate selects every event: -v selects none (grep -v '' writes nothing); -e says so.
  assert.deepEqual(await runCli(["filter", "-v", "-e", "-c", f]), { stdout: "0\n", stderr: "", code: 1 });
  // The type-only fast path (lines kept or skipped from their bytes) is inverted too.
  const two = "test/fixtures/2026-long.ndjson";
  const types = (out: string) => out.split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type);
  assert.ok(!types((await runCli(["filter", "-v", "--type", "thinking", two])).stdout).includes("thinking"));
  assert.deepEqual(types((await runCli(["filter", "-v", "--exclude-type", "thinking", two])).stdout), types((await runCli(["filter", "--type", "thinking", two])).stdout));
  // --pair completes the calls -v cut in half, as without -v.
  const stdin = lines(init, shell("a", "x"), shell("a", "x", "completed"), shell("b", "y"), result);
  assert.equal((await runCli(["filter", "-v", "--subtype", "started", "--pair", "--type", "tool_call"], { stdin })).stdout, lines(init, shell("a", "x"), shell("a", "x", "completed"), result));
});

// ---- C: -H/--with-filename ----

const A = "test/fixtures/two-sessions.ndjson";
const B = "test/fixtures/parallel-out-of-order.ndjson";

test("filter -H: FILE: before each event; -c -H: a count per file (none for a file that cannot be read); stdin is <stdin>", async () => {
  const r = await runCli(["filter", "-H", "--type", "result", A, B]);
  const want = (f: string) =>
    (readFileSync(f, "utf8").match(/^\{"type":"result".*$/gm) ?? []).map((l) => `${f}:${l}\n`).join("");
  assert.equal(r.stdout, want(A) + want(B));
  const c = await runCli(["filter", "-c", "-H", "--type", "result", A, "nosuch.ndjson", B, "test/fixtures/crash-no-result.ndjson"]);
  assert.equal(c.stdout, `${A}:2\n${B}:1\ntest/fixtures/crash-no-result.ndjson:0\n`);
  assert.equal(c.code, 2);
  assert.equal((await runCli(["filter", "-c", "-H"], { stdin: lines(init, result) })).stdout, "<stdin>:2\n");
  assert.equal((await runCli(["filter", "-H", "--type", "result"], { stdin: lines(init, result) })).stdout, `<stdin>:${JSON.stringify(result)}\n`);
  // Bytes kept whole (--type alone), --pair, a time window: all named, line by line.
  const pair = (await runCli(["filter", "-H", "--pair", "--tool", "read", A])).stdout.split("\n").filter(Boolean);
  assert.equal(pair.length, 2);
  for (const l of pair) assert.ok(l.startsWith(`${A}:{"type":"tool_call"`), l);
  // The last of -H and --no-filename wins (an alias's -H can be undone).
  assert.equal((await runCli(["filter", "-H", "--no-filename", "--type", "result", A])).stdout, want(A).replaceAll(`${A}:`, ""));
  assert.equal((await runCli(["filter", "--no-filename", "-H", "--type", "result", A])).stdout, want(A));
  // A name with a control character is escaped: one line per event still.
  const odd = join(scratch, "odd\nname.ndjson");
  writeFileSync(odd, lines(init, result));
  assert.equal((await runCli(["filter", "-c", "-H", odd])).stdout, `${join(scratch, "odd\\nname.ndjson")}:2\n`);
});

test("text -H: FILE: before every line, a --final message's lines too; -f reads the same", async () => {
  const r = await runCli(["text", "-H", A, B]);
  const plain = (f: string) => (runCli(["text", f]).then((x) => x.stdout.split("\n").filter(Boolean).map((l) => `${f}:${l}\n`).join("")));
  assert.equal(r.stdout, (await plain(A)) + (await plain(B)));
  const final = await runCli(["text", "-H", "--final"], { stdin: lines(init, { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "one\ntwo" }] }, session_id: S }, result) });
  assert.equal(final.stdout, "<stdin>:one\n<stdin>:two\n");
  assert.deepEqual(await runCli(["text", "-H", "-f", A]), await runCli(["text", "-H", A]));
  assert.deepEqual(await runCli(["filter", "-H", "-f", "--type", "tool_call", A]), await runCli(["filter", "-H", "--type", "tool_call", A]));
});

test('json -H: each object ends with "file" (compact, --pretty, --allow-incomplete); a result\'s own "file" is kept before it', async () => {
  const r = await runCli(["json", "-H", A, B]);
  const objs = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(objs.map((o) => o.file), [A, A, B]);
  assert.equal(r.stdout, (await runCli(["json", A, B])).stdout.replace(/\}\n/g, () => `,"file":${JSON.stringify(objs.shift()!.file)}}\n`));
  const pretty = (await runCli(["json", "-H", "--pretty", B])).stdout;
  assert.ok(pretty.endsWith(`,\n  "file": "${B}"\n}\n`), pretty);
  assert.equal(JSON.parse(pretty).file, B);
  const cut = await runCli(["json", "-H", "--allow-incomplete", "test/fixtures/crash-no-result.ndjson"]);
  assert.equal(JSON.parse(cut.stdout).file, "test/fixtures/crash-no-result.ndjson");
  const own = await runCli(["json", "-H"], { stdin: lines(init, { ...result, file: "theirs" }) });
  assert.ok(own.stdout.endsWith(`"file":"theirs","file":"<stdin>"}\n`), own.stdout);
  assert.equal(JSON.parse(own.stdout).file, "<stdin>", "jq and JSON.parse read the last: ours");
});

test("timeline -H: the file column, first when --columns leaves it out; --no-filename leaves it out", async () => {
  const first = await runCli(["timeline", "-H", "--columns", "seq,status", A, B]);
  assert.equal(first.stdout, `file,seq,status\n${A},1,success\n${B},1,success\n${B},2,success\n${B},3,success\n`);
  assert.deepEqual(await runCli(["timeline", "-H", A]), await runCli(["timeline", A]), "the default columns have it already");
  assert.equal((await runCli(["timeline", "-H", "--columns", "seq,file", A])).stdout, `seq,file\n1,${A}\n`);
  const without = (await runCli(["timeline", "--no-filename", "--format", "tsv", A])).stdout.split("\n")[0]!;
  assert.equal(without, TIMELINE_COLUMNS.filter((c) => c !== "file").join("\t"));
  assert.equal((await runCli(["timeline", "--no-filename", "--columns", "seq,file", A])).stdout, "seq\n1\n");
});

test("-H with --jobs: byte for byte what one thread writes, for text, json, filter and timeline", async () => {
  const files = ["test/fixtures/2026-long.ndjson", "test/fixtures/crash-no-result.ndjson", "test/fixtures/does-not-exist.ndjson", A, "test/fixtures/2026-long.ndjson.gz", B];
  for (const [k, argv] of [["text", "-H", "-v"], ["json", "-H"], ["json", "-H", "--allow-incomplete", "--pretty"], ["filter", "-H"], ["filter", "-H", "-c"], ["filter", "-H", "-c", "-e", "--type", "nope"], ["filter", "-v", "-H", "--type", "thinking"], ["timeline", "-H", "--columns", "seq,kind"]].entries()) {
    const one = await runCli([...argv, "--jobs", "1", ...files]);
    assert.match(one.stderr, /does-not-exist/);
    for (const n of jobsFor(k)) assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", n, ...files])), one, `${argv.join(" ")} --jobs ${n}`);
  }
});

test("README and --help show -H and -v with an example each", async () => {
  const help = async (c: string) => (await runCli([c, "--help"])).stdout;
  assert.match(await help("filter"), /\$ cursorlog filter -c -H --status failure logs\/ {5}# failed calls per file/);
  assert.match(await help("filter"), /\$ cursorlog filter -v --tool read --tool grep run\.ndjson {3}# but reads, greps/);
  assert.match(await help("filter"), /-v, --invert-match/);
  assert.match(await help("text"), /\$ cursorlog text -H logs\/ \| grep 'failed'/);
  assert.match(await help("json"), /\$ cursorlog json -H logs\/ \| jq -r 'select\(\.is_error\) \| \.file'/);
  for (const c of ["text", "json", "filter", "timeline"]) assert.match(await help(c), /-H, --with-filename/, c);
  const readme = readFileSync("README.md", "utf8");
  for (const example of [
    "cursorlog filter -v --tool read --tool grep run.ndjson",
    "cursorlog filter -c -H --status failure logs/",
    "cursorlog text -H logs/ | grep 'failed'",
    "cursorlog json -H logs/ | jq -r 'select(.is_error) | .file'",
    "cursorlog timeline -H --columns seq,status,target logs/",
  ]) {
    assert.ok(readme.includes(example), example);
  }
});

// ---- D: stats --format json carries whole values ----

test("stats --format json: the prompt, targets and commands whole; the text report still cuts them", async () => {
  const prompt = "  Fix the flaky test in src/a.ts\n" + "and then ".repeat(30) + "report.\n";
  const long = "echo " + "x".repeat(300);
  const stdin = lines(
    init,
    { type: "user", message: { role: "user", content: [{ type: "text", text: prompt }] }, session_id: S },
    { type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command: long } } }, session_id: S, timestamp_ms: 1 },
    {
      type: "tool_call",
      subtype: "completed",
      call_id: "c1",
      tool_call: { shellToolCall: { args: { command: long }, result: { failure: { exitCode: 2, stderr: "no" } } } },
      session_id: S,
      timestamp_ms: 9,
    },
    { ...result, duration_ms: 10 },
  );
  const s = JSON.parse((await runCli(["stats", "--format", "json"], { stdin })).stdout.split("\n")[0]!) as {
    prompt: string;
    failed_calls: { items: Array<{ target: string }> };
    slowest_calls: Array<{ target: string }>;
    shell_failures: { items: Array<{ command: string }> };
  };
  assert.equal(s.prompt, prompt);
  assert.equal(s.failed_calls.items[0]!.target, long);
  assert.equal(s.slowest_calls[0]!.target, long);
  assert.equal(s.shell_failures.items[0]!.command, long);
  const text = (await runCli(["stats"], { stdin })).stdout;
  assert.match(text, /prompt +Fix the flaky test in src\/a\.ts\n/);
  assert.ok(text.includes(long.slice(0, 199) + "…") || text.includes(long.slice(0, 198) + "…"), "the text report cuts a long target");
  assert.ok(!text.includes(long));
});
