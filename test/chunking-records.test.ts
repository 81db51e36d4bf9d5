// test-run: scaled
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { DEFAULT_MAX_LINE_BYTES } from "../src/cli/config.js";
import { readInputs, type InputOptions } from "../src/input/read-inputs.js";
import type { RawSkip } from "../src/input/raw-skip.js";
import { isProblem, type InputItem, type JsonRecord } from "../src/input/record.js";
import { toChromeTrace } from "../src/outputs/chrome-trace/index.js";
import * as stages from "../src/outputs/log-stages.js";
import { toOtlpJson } from "../src/outputs/otlp/index.js";
import { TIMELINE_COLUMNS } from "../src/outputs/timeline/columns.js";
import { toTimelineHtml } from "../src/outputs/timeline-html/index.js";
import { toValidateReport } from "../src/outputs/validate-report/index.js";
import type { Stage } from "../src/stream/stage.js";
import { awkwardOffsets, cutsFor, pieces, pieceStream, type Chunking } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns, STRESS } from "./helpers/scale.js";

// Chunking, proved once where records are made. Every input byte reaches the commands through
// readInputs (line splitter, scanner, JSON reader). If any split of the bytes gives the same records
// (and problems, and last line numbers) as the input in one piece, the outputs built on them are the
// same too, as long as no stage depends on where a batch ends: robust-chunking.test.ts checks that
// for every command's stdout, stderr and status on generated logs. So each golden case runs on whole
// input only, and this file checks, over every fixture in test/fixtures and the logs in examples/,
// under every way a command has lines read (RawSkip: skipped types, merged runs of skipped lines,
// shortened tool calls, lines kept whole as bytes; validate's key counts), that splits give exactly
// the records of the whole input:
//   - make test: one seeded split of every fixture (awkward cuts: inside UTF-8 characters, between
//     CR and LF) with every line parsed, and in a sixth of the other modes, in turn (each mode
//     splits a sixth of the fixtures; see fixturesOf), and a property over random splits of 1
//     byte to 64 KiB, any fixture in any mode;
//   - make stress: every fixture in every mode, also in fixed chunks of 1, 3 and 7 bytes (see
//     sizesOf), and many more random splits; and every golden case again at 1, 3 and 7 bytes
//     (test/helpers/golden.ts).
// Two differences are by design and compared as what they stand for: a run of skipped lines that
// a cut crosses comes as two records, and a kept line that a cut crosses comes parsed, not as bytes
// (see recordsOf and keptLine).

const FIXTURES = "test/fixtures";
const LARGE_INPUT = 64 * 1024;

function fixtureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...fixtureFiles(p));
    else if (!name.endsWith(".mjs")) out.push(p);
  }
  return out;
}

const reporter = { report() {} } as never;
const skipOf = (s: Stage): Pick<Stage, "skip" | "keys"> => ({ ...(s.skip ? { skip: s.skip } : {}), ...(s.keys ? { keys: s.keys } : {}) });

/**
 * How each command has lines read: the skip and key-count settings its stage asks for, taken from
 * the stages themselves (so a command that changes what it skips is covered as it is).
 */
const READ_MODES: Record<string, { skip?: RawSkip; keys?: true; kept?: (type: unknown) => boolean }> = {
  "every line parsed": {},
  validate: skipOf(toValidateReport({ validators: {} } as never, reporter)),
  json: skipOf(stages.toResultJson({ allowIncomplete: false } as never, reporter)),
  "json --allow-incomplete": skipOf(stages.toResultJson({ allowIncomplete: true } as never, reporter)),
  text: skipOf(stages.toActionsText({} as never, reporter)),
  "text --final": skipOf(stages.toActionsText({ final: true } as never, reporter)),
  timeline: skipOf(stages.toTimelineCsv({ format: "csv", columns: TIMELINE_COLUMNS, safe: false, header: true, allowIncomplete: false } as never, reporter)),
  "timeline --format html": skipOf(toTimelineHtml({ allowIncomplete: false }, reporter)),
  diff: skipOf(stages.toDiff({} as never, reporter)),
  show: skipOf(stages.toShow({} as never, reporter)),
  "export --format chrome": skipOf(toChromeTrace({} as never, reporter)),
  "export --format otlp-json": skipOf(toOtlpJson({} as never, reporter)),
  "export --content": skipOf(toOtlpJson({ content: true } as never, reporter)),
  "filter --type tool_call": { skip: stages.rawSkipFor({ types: ["tool_call"] })!, kept: (t) => t === "tool_call" },
  "filter --type tool_call --subtype completed": { skip: stages.rawSkipFor({ types: ["tool_call"], subtypes: ["completed"] })! },
  "filter --exclude-type thinking": { skip: stages.rawSkipFor({ excludeTypes: ["thinking"] })!, kept: (t) => t !== "thinking" },
};
const MODE_NAMES = Object.keys(READ_MODES);

/** What readInputs makes of these bytes fed in these pieces: every item, and each file's last line. */
async function recordsOf(bytes: Buffer, cuts: readonly number[], mode: string, viaStdin = false): Promise<unknown[]> {
  const name = "fixture";
  const kept = READ_MODES[mode]!.kept;
  const { skip, keys } = READ_MODES[mode]!;
  const opts: InputOptions = {
    files: viaStdin ? [] : [name],
    stdin: pieceStream(viaStdin ? pieces(bytes, cuts) : []),
    maxLineBytes: DEFAULT_MAX_LINE_BYTES,
    stopAtMalformed: false,
    ...(skip ? { skip } : {}),
    ...(keys ? { keys } : {}),
    open: () => pieceStream(pieces(bytes, cuts)),
  };
  const out: unknown[] = [];
  for await (const batch of readInputs(opts)) {
    for (const item of batch.items) {
      // A run of skipped lines is merged into one record as far as one read chunk goes (the
      // scanner's merge): a run that a cut crosses comes as two records, lines l..m and m+1..n,
      // which stand for the same lines. Joined again here, so the comparison is of lines.
      const prev = out.at(-1) as Plain | undefined;
      if (!isProblem(item) && item.skipped && item.raw === undefined && prev?.skipped && prev.raw === undefined && prev.file === item.file && prev.value.type === item.value.type && prev.lastLine + 1 === item.line) {
        prev.lastLine = item.lastLine ?? item.line;
        continue;
      }
      out.push(kept !== undefined && (item as JsonRecord).value !== undefined && kept((item as JsonRecord).value.type) ? keptLine(item as JsonRecord) : plain(item));
    }
    // No release(): raw bytes a record holds stay where they are until compared.
    if (batch.fileEnd) out.push({ fileEnd: batch.file, lastLine: batch.lastLine });
  }
  return out;
}

/**
 * A line `filter --type` keeps whole (RawSkip.keep) reaches the stage as its bytes when it lies in
 * one read buffer, and parsed, as its text, when a cut crosses it: the stage writes the same bytes
 * either way (its goldens). Either is compared as the line's bytes.
 */
function keptLine(rec: JsonRecord): unknown {
  const bytes = rec.raw !== undefined ? rec.raw.subarray(0, rec.raw.at(-1) === 0x0a ? -1 : undefined) : (rec.bytes ?? Buffer.from(rec.text));
  return { file: rec.file, line: rec.line, type: rec.value.type, kept: Buffer.from(bytes).toString("latin1") };
}

type Plain = Omit<JsonRecord, "raw" | "bytes"> & { lastLine: number; raw?: string; bytes?: string };

/** An item as plain data: raw bytes as text (latin1, byte for byte), a skipped record's line range always given. */
function plain(item: InputItem): unknown {
  if (isProblem(item)) return { ...item };
  const { raw, bytes, ...rest } = item;
  return {
    ...rest,
    ...(item.skipped ? { lastLine: item.lastLine ?? item.line } : {}),
    ...(raw ? { raw: Buffer.from(raw).toString("latin1") } : {}),
    ...(bytes ? { bytes: Buffer.from(bytes).toString("latin1") } : {}),
  };
}

const files = [...fixtureFiles(FIXTURES), ...fixtureFiles("examples").filter((f) => /\.(ndjson|jsonl)(\.gz)?$/.test(f))].map((path) => ({ path, bytes: readFileSync(path) }));
const whole = new Map<string, unknown[]>();
async function wholeRecords(path: string, bytes: Buffer, mode: string): Promise<unknown[]> {
  const key = `${mode}\0${path}`;
  let w = whole.get(key);
  if (w === undefined) whole.set(key, (w = await recordsOf(bytes, [], mode)));
  return w;
}

function fixedCuts(bytes: Buffer, size: number): number[] {
  const cuts: number[] = [];
  for (let at = size; at < bytes.length; at += size) cuts.push(at);
  return cuts;
}

test("the fixtures are all here, and each read mode is a real setting of its command", () => {
  assert.ok(files.length >= 60, `${files.length} fixtures`);
  for (const ext of [".ndjson", ".gz", ".json", ".jsonl"]) assert.ok(files.some((f) => f.path.endsWith(ext)), ext);
  assert.ok(files.some((f) => f.bytes.length > LARGE_INPUT), "a fixture over 64 KiB");
  assert.ok(files.some((f) => f.bytes.includes("\r\n")), "a CRLF fixture");
  for (const k of KINDS) assert.ok(k.length > 0, "a fixture of each kind fixturesOf gives every mode");
  assert.ok(files.some((f) => awkwardOffsets(f.bytes).length > 0), "a fixture with multi-byte characters");
  // The HTML timeline and show --thinking read every line; every other command skips some.
  for (const m of MODE_NAMES.slice(2)) if (m !== "timeline --format html") assert.ok(READ_MODES[m]!.skip !== undefined, `${m} skips lines`);
  assert.equal(READ_MODES.validate!.keys, true);
  assert.equal(READ_MODES.validate!.skip, undefined);
});

test("the comparison sees what chunking could break: records, problems, line numbers, skipped runs, raw bytes", async () => {
  const f = files.find((x) => x.path.endsWith("crlf.ndjson"))!;
  const w = await recordsOf(f.bytes, [], "json");
  assert.ok(w.some((r) => (r as { skipped?: boolean }).skipped), "json skips lines of crlf.ndjson");
  const h = files.find((x) => x.path.endsWith("hostile.ndjson"))!;
  const k = await recordsOf(h.bytes, [], "filter --type tool_call");
  assert.ok(k.some((r) => typeof (r as { kept?: string }).kept === "string"), "filter keeps lines whole");
  assert.deepEqual(w.at(-1), { fileEnd: "fixture", lastLine: f.bytes.toString().split(/\r?\n/).length - (f.bytes.at(-1) === 0x0a ? 1 : 0) });
  // A record cut in two would differ: the comparison is not blind to it.
  const broken = Buffer.concat([f.bytes.subarray(0, 40), Buffer.from("\n"), f.bytes.subarray(40)]);
  assert.notDeepEqual(await recordsOf(broken, [], "every line parsed"), await recordsOf(f.bytes, [], "every line parsed"));
});

/**
 * The splits every fixture gets in every read mode. make test: one seeded split of chunks of 1 to
 * 97 bytes with a cut at every awkward offset (inside each multi-byte character, between each CR
 * and LF), over 64 KiB of up to 4093 bytes and the first 256 awkward offsets. make stress: 1-, 3- and 7-byte chunks too (7 and 4093 over 64 KiB), as the goldens were
 * once run.
 */
function splitsOf(bytes: Buffer, i: number, mode: string): [string, number[]][] {
  const large = bytes.length > LARGE_INPUT;
  const random = cutsFor(bytes, { maxChunk: large ? 4093 : 97, seed: 1000 + i, awkward: !large });
  // Over 64 KiB, the first 256 awkward offsets (large-results.ndjson has 54,703 of them: a cut at
  // each would cost seconds a mode); make stress cuts at every one (the 7-byte split below).
  const awkward = large ? awkwardOffsets(bytes).slice(0, 256) : [];
  const cuts = [...new Set([...random, ...awkward])].sort((a, b) => a - b);
  const splits: [string, number[]][] = [[large ? "chunks of 1 to 4093 bytes, 256 awkward cuts" : "chunks of 1 to 97 bytes, awkward cuts", cuts]];
  if (STRESS) for (const size of sizesOf(bytes, mode)) splits.push([`${size}-byte chunks`, fixedCuts(bytes, size)]);
  return splits;
}

/**
 * make stress's fixed chunk sizes: 1, 3 and 7 bytes for every line parsed, json's way (skipped
 * runs and shortened calls) and filter --type's (kept lines); 7 for the other modes (1-byte chunks
 * cost ~20 s a mode over the fixtures). Over 64 KiB, 7 and 4093.
 */
function sizesOf(bytes: Buffer, mode: string): number[] {
  if (bytes.length > LARGE_INPUT) return [7, 4093];
  return ["every line parsed", "json", "filter --type tool_call"].includes(mode) ? [1, 3, 7] : [7];
}

/**
 * The fixtures split in a read mode: make stress, every one in every mode; make test, every one
 * with every line parsed (the records of every line), and in each other mode a sixth of them, in
 * turn (fixture i in mode m when i + m is a multiple of 6), so every fixture is still split in
 * two or three modes besides; and each mode also splits a fixture of each kind a cut treats
 * apart, in turn among them (gzip, CRLF, over 64 KiB: a sixth of the 124 files need not hold one).
 * The whole run of 16 modes x 124 files cost ~12 s of CPU, most of it in the 1-to-97-byte pieces
 * (a gzip file's compressed bytes among them).
 */
const ROTATION = 6;
const KINDS = [
  files.filter((f) => f.path.endsWith(".gz")),
  files.filter((f) => !f.path.endsWith(".gz") && f.bytes.includes("\r\n")),
  files.filter((f) => f.bytes.length > LARGE_INPUT),
];
function fixturesOf(mode: string): Array<[number, (typeof files)[number]]> {
  const m = MODE_NAMES.indexOf(mode);
  const kinds = new Set(KINDS.map((k) => k[m % k.length]));
  return [...files.entries()].filter(([i, f]) => STRESS || m === 0 || (i + m) % ROTATION === 0 || kinds.has(f));
}

for (const mode of MODE_NAMES) {
  const which = STRESS || mode === MODE_NAMES[0] ? "every fixture" : `a sixth of the fixtures, in turn (every one in make stress),`;
  test(`${which} gives the same records split${STRESS ? " in 1-, 3- and 7-byte chunks and" : ""} at random and awkward cuts: ${mode}`, async () => {
    for (const [i, { path, bytes }] of fixturesOf(mode)) {
      const w = await wholeRecords(path, bytes, mode);
      for (const [how, cuts] of splitsOf(bytes, i, mode)) assert.deepEqual(await recordsOf(bytes, cuts, mode), w, `${path}, ${mode}: ${how}`);
    }
  });
}

test(`standard input is read the same way: ${STRESS ? "every fixture" : "a sixth of the fixtures (every one in make stress)"} split at random and awkward cuts on stdin gives its records`, async () => {
  for (const [i, { path, bytes }] of files.entries()) {
    if (!STRESS && i % ROTATION !== 1) continue;
    const w = await recordsOf(bytes, [], "every line parsed", true);
    assert.deepEqual(await recordsOf(bytes, splitsOf(bytes, i, "every line parsed")[0]![1], "every line parsed", true), w, path);
  }
});

const chunking: fc.Arbitrary<Chunking> = fc.record({
  maxChunk: fc.oneof(fc.constantFrom(2, 3, 7, 64, 4096, 65536), fc.integer({ min: 2, max: 65536 })),
  seed: fc.nat(),
  awkward: fc.boolean(),
});

test("property: any split of any fixture's bytes gives the records of the whole input, in every read mode", { timeout: 600_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: files.length - 1 }), fc.constantFrom(...MODE_NAMES), chunking, async (i, mode, c) => {
      const { path, bytes } = files[i]!;
      assert.deepEqual(await recordsOf(bytes, cutsFor(bytes, c), mode), await wholeRecords(path, bytes, mode), `${path}, ${mode}`);
    }),
    { seed: FUZZ_SEED, numRuns: fuzzRuns(40, 1500), includeErrorInReport: true },
  );
});
