// test-run: scaled
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { genLog, type Ev } from "./helpers/gen-events.js";
import { runFed } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns, scaled } from "./helpers/scale.js";
import { isObject, valuesOnLine } from "./helpers/verdict.js";

// Nothing lost, nothing invented: filter with no predicate gives back every JSON line byte for
// byte (fixtures, generated logs, a generated log of 2 MiB in make test and 50 MiB in make stress,
// by checksum; the gigabyte run is test/stress/stress.sh roundtrip); json prints only result
// objects that are in the input (unless --allow-incomplete, whose objects say so); timeline has
// exactly one row per distinct call id per session.
//
// Sizes (test/helpers/scale.ts): make test runs each property a few times, make stress
// (CURSORLOG_STRESS=1) at full count; FUZZ_RUNS overrides them, FUZZ_SEED the seed (42).

const SEED = FUZZ_SEED;
const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

/** Every fixture log, in every folder under test/fixtures. */
function fixtures(dir = "test/fixtures"): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return fixtures(p);
    return /\.(ndjson|jsonl|log)(\.gz)?$/.test(f) ? [p] : [];
  });
}

/**
 * What filter with no predicate must write for a log file: each JSON object line as it is in the
 * file (CR and a BOM at its start stripped); several values on one line as compact JSON, one per line; blank
 * and non-JSON lines dropped (--lenient).
 */
function jsonLines(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let out = "";
  for (let l of lines) {
    if (l.endsWith("\r")) l = l.slice(0, -1);
    if (l.charCodeAt(0) === 0xfeff) l = l.slice(1);
    try {
      if (isObject(JSON.parse(l))) out += l + "\n";
    } catch {
      for (const v of valuesOnLine(l) ?? []) out += JSON.stringify(v) + "\n";
    }
  }
  return out;
}

test("filter with no predicate gives back every JSON line of every fixture, byte for byte (sha256)", async () => {
  const all = fixtures();
  assert.ok(all.length >= 20, all.join(" "));
  for (const path of all) {
    let bytes = readFileSync(path);
    // gzip itself decodes (trailing garbage after the data included: a warning, all data out).
    if (path.endsWith(".gz")) bytes = spawnSync("gzip", ["-dc", path], { maxBuffer: 1 << 28 }).stdout as Buffer;
    const r = await runFed(["filter", "--lenient", path]);
    assert.equal(sha256(r.stdout), sha256(jsonLines(bytes)), `${path}: filter output differs from its JSON lines`);
  }
});

test("property: filter with no predicate gives back the log's JSON lines exactly (CRLF, BOM, blank lines, pretty values compacted)", async () => {
  await fc.assert(
    fc.asyncProperty(genLog(), async (log) => {
      const r = await runFed(["filter", "gen.ndjson"], { files: { "gen.ndjson": { bytes: log.bytes } } });
      assert.equal(r.code, 0, r.stderr);
      // Pretty-printed events come back compact: the same value, one line.
      const expected = log.events.map((e) => JSON.stringify(e) + "\n").join("");
      assert.equal(r.stdout, expected);
    }),
    { seed: SEED, numRuns: fuzzRuns(5, 100), includeErrorInReport: true },
  );
});

/** MiB of generated log: in make test past the 64 KiB and 1 MiB boundaries the cuts below are at, and 32 reads of 64 KiB. */
const BIG_MIB = scaled(2, 50);

test(`filter with no predicate over a generated ${BIG_MIB} MiB log: output sha256 = input sha256`, { timeout: 120_000 }, async () => {
  const gen = spawnSync("node", ["bench/gen.mjs", "--size", `${BIG_MIB}M`, "--seed", "7"], { maxBuffer: 1 << 27 });
  assert.equal(gen.status, 0);
  const bytes = gen.stdout as Buffer;
  assert.ok(bytes.length > BIG_MIB * 2 ** 20 - 2 ** 20);
  for (const argv of [["filter"], ["filter", "--lenient"]]) {
    const r = await runFed([...argv, "big.ndjson"], { files: { "big.ndjson": { bytes, cuts: [1, 2 ** 16 + 3, 2 ** 20 + 7, bytes.length - 5] } }, timeoutMs: 60_000 });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    assert.equal(sha256(r.stdout), sha256(bytes), `${argv.join(" ")}: output differs from the input`);
  }
});

// ---------------------------------------------------------------------------------------------
// Sessions as the README defines them: a new one at each system/init, at the first event after a
// result, and at the start of each file.

function sessionsOf(events: readonly Ev[]): number[] {
  const out: number[] = [];
  let n = 0;
  let open = false;
  for (const e of events) {
    if (!open || (e.type === "system" && e.subtype === "init")) {
      n++;
      open = true;
    }
    out.push(n);
    if (e.type === "result") open = false;
  }
  return out;
}

const KEY_ORDER = ["type", "subtype", "is_error", "duration_ms", "duration_api_ms", "result", "session_id", "request_id", "usage"];

/** The result as README says json prints it: the known keys in this order, then the others, values untouched. */
function asPrinted(result: Ev): string {
  const keys = [...KEY_ORDER.filter((k) => Object.hasOwn(result, k)), ...Object.keys(result).filter((k) => !KEY_ORDER.includes(k))];
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + JSON.stringify(result[k])).join(",") + "}";
}

test("property: json prints exactly the input's result objects, one per session that has one, in order, nothing else", async () => {
  await fc.assert(
    fc.asyncProperty(genLog(), async (log) => {
      const events = log.events.map((e) => JSON.parse(JSON.stringify(e)) as Ev);
      const results = events.filter((e) => e.type === "result");
      const sessions = sessionsOf(events);
      const withoutResult = new Set(sessions).size - new Set(sessions.filter((_, i) => events[i]!.type === "result")).size;
      const r = await runFed(["json", "gen.ndjson"], { files: { "gen.ndjson": { bytes: log.bytes } } });
      assert.equal(r.stdout, results.map((e) => asPrinted(e) + "\n").join(""));
      const expectedCode = withoutResult > 0 ? 4 : results.some((e) => e.is_error === true) ? 1 : 0;
      assert.equal(r.code, expectedCode, r.stderr);
      assert.equal(r.stderr.split("\n").filter((l) => / has no result: /.test(l)).length, withoutResult);

      // --allow-incomplete: the same objects, plus one marked object per session without a result.
      const a = await runFed(["json", "--allow-incomplete", "gen.ndjson"], { files: { "gen.ndjson": { bytes: log.bytes } } });
      const printed = a.stdout.split("\n").slice(0, -1);
      const real = printed.filter((l) => !l.startsWith('{"type":"result","subtype":"incomplete","is_error":true'));
      assert.deepEqual(real, results.map(asPrinted));
      assert.equal(printed.length - real.length, withoutResult);
      for (const l of printed.filter((l) => !real.includes(l))) {
        const o = JSON.parse(l) as Ev;
        assert.equal((o.incomplete as Ev).file, "gen.ndjson");
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(5, 150), includeErrorInReport: true },
  );
});

test("property: timeline has exactly one row per distinct call id per session, each in its session", async () => {
  await fc.assert(
    fc.asyncProperty(genLog({ layouts: false }), async (log) => {
      const events = log.events;
      const sessions = sessionsOf(events);
      const expected = new Set<string>();
      events.forEach((e, i) => {
        const call = e.type === "tool_call" && (e.subtype === "started" || e.subtype === "completed") && typeof e.call_id === "string" && typeof e.tool_call === "object";
        if (call) expected.add(`${sessions[i]} ${JSON.stringify(e.call_id)}`);
      });
      const r = await runFed(["timeline", "--format", "ndjson", "--allow-incomplete", "gen.ndjson"], { files: { "gen.ndjson": { bytes: log.bytes } } });
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      const rows = r.stdout.split("\n").slice(0, -1).map((l) => JSON.parse(l) as { call_id: string; started_line: number | null; completed_line: number | null; session_id: string | null });
      const got = new Map<string, number>();
      for (const row of rows) {
        const line = row.started_line ?? row.completed_line!;
        const key = `${sessions[line - 1]} ${JSON.stringify(row.call_id)}`;
        got.set(key, (got.get(key) ?? 0) + 1);
        // Both lines of a row are in one session.
        if (row.started_line !== null && row.completed_line !== null) assert.equal(sessions[row.started_line - 1], sessions[row.completed_line - 1]);
      }
      assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort());
      for (const [k, n] of got) assert.equal(n, 1, `${n} rows for ${k}`);
      // And the CSV has as many records as the NDJSON (plus its header).
      const csv = await runFed(["timeline", "--format", "tsv", "--allow-incomplete", "gen.ndjson"], { files: { "gen.ndjson": { bytes: log.bytes } } });
      assert.equal(csv.stdout.split("\n").length - 2, rows.length);
    }),
    { seed: SEED, numRuns: fuzzRuns(5, 150), includeErrorInReport: true },
  );
});
