// test-run: scaled
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { runCli } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";

// `cursorlog filter` with no predicate writes the input's JSON lines back exactly: compared with
// the file's own lines (BOM and CR stripped, blank lines dropped), not with a re-serialization.
// Each fixture is read whole and in 7-byte chunks; in make test a fixture over 64 KiB in 4093-byte
// chunks instead (the two large-results files, ~350 KB: 50,000 pieces of 7 bytes cost ~2 s of CPU;
// chunking-records.test.ts splits every fixture in pieces of 1 to 4093 bytes), in make stress in 7.

const DIRS = ["test/fixtures", "test/fixtures/filter"];
const FIXTURES = DIRS.flatMap((d) =>
  readdirSync(d)
    .filter((f) => /\.(ndjson|json)(\.gz)?$/.test(f))
    .map((f) => `${d}/${f}`),
);

function decoded(path: string): string {
  let buf = readFileSync(path);
  if (path.endsWith(".gz")) buf = gunzipSync(buf);
  const text = buf.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The JSON lines of a log as they are in the file; lines that are not JSON are left out. */
function jsonLines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== "" && parses(l));
}

/** Top-level JSON values of a text that holds them spread over lines or several to a line. */
function values(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if ((c === "}" || c === "]") && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

test("the round trip covers every fixture", () => {
  assert.ok(FIXTURES.length >= 17, FIXTURES.join(", "));
});

for (const path of FIXTURES) {
  test(`filter with no predicate reproduces the JSON lines of ${path}`, async () => {
    const text = decoded(path);
    const multiLine = path.endsWith(".json");
    const expected = multiLine ? values(text).map((v) => JSON.stringify(v) + "\n").join("") : jsonLines(text).map((l) => l + "\n").join("");
    assert.notEqual(expected, "");
    for (const chunkSize of [0, STRESS || statSync(path).size <= 64 * 1024 ? 7 : 4093]) {
      // --lenient: lines that are not JSON are skipped (and reported), the others still come out.
      const got = await runCli(["filter", "--lenient", path], { chunkSize });
      assert.equal(got.stdout, expected, `${path} (chunks of ${chunkSize || "all"})`);
    }
  });
}

test("the round trip keeps what a re-serialization would change", async () => {
  const got = await runCli(["filter", "test/fixtures/filter/byte-exact.ndjson"]);
  for (const kept of ["1.7672256e12", '"c\\u000a1"', "\\/men\\u00fa", "12345678901234567890", '"dup":1,"dup":2', '"duration_ms":2E2', "1.0", "-0", "\u2028", "  { \"type\" : \"assistant\"", "\"spaced out\" } ] } , \"session_id\" : \"s-1\" }   \n"]) {
    assert.ok(got.stdout.includes(kept), `output lost ${JSON.stringify(kept)}`);
  }
});

test("CRLF line ends come out as LF", async () => {
  const got = await runCli(["filter", "test/fixtures/crlf.ndjson"]);
  assert.equal(got.code, 0);
  assert.ok(!got.stdout.includes("\r\n"));
  assert.ok(got.stdout.includes('\\r\\nb"'), "an escaped CR inside a string is data and stays");
  assert.equal(got.stdout.charCodeAt(0), "{".charCodeAt(0), "the BOM is not written");
});
