// test-run: scaled
// The promise of robust-hostile.test.ts for Codex and Gemini CLI logs: text from the log never
// reaches a terminal raw. Every fixture of test/fixtures/codex/ and test/fixtures/gemini/ with a
// hostile piece (OSC, CSI, 8-bit CSI, bidi override, CR, NUL) appended to every string value (ids
// too, alike everywhere, so calls still pair) but the ones that decide what a line is (type,
// status, severity, times), and once with a hostile file name: every command that reads logs, on a
// terminal, writes no raw control character on stdout (the human outputs) or on stderr (every
// diagnostic), and the HTML timeline none in its page. The hostile text does reach the outputs,
// escaped (checked: no test here passes because nothing was printed).
//
// Sizes (test/helpers/scale.ts): with the hostile file name, make test runs half of the commands
// and option sets a fixture, in turn (the name reaches headers and messages alike in each); make
// stress every one, as with the plain name.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { logCommands, runFed, type RunResult } from "./helpers/run-chunks.js";
import { STRESS } from "./helpers/scale.js";

const EVIL = "\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e\r\u0000";
/** EVIL as the human outputs show it (sanitize.ts escapeControls). */
const EVIL_SHOWN = "\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e\\r\\u0000";

/** Members whose values say what a line is or when: left as they are, so the log reads the same. */
const KEEP = new Set(["type", "subtype", "status", "severity", "timestamp", "kind", "role", "item_type", "decision", "delta", "thread_id"]);

function poison(v: unknown, key?: string): unknown {
  if (typeof v === "string") return key !== undefined && KEEP.has(key) ? v : v + EVIL;
  if (Array.isArray(v)) return v.map((x) => poison(x));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, poison(x, k)]));
  return v;
}

const FIXTURES = ["codex", "gemini"].flatMap((agent) =>
  readdirSync(`test/fixtures/${agent}`)
    .filter((f) => f.endsWith(".ndjson"))
    .sort()
    .map((f) => ({ agent, name: `${agent}/${f}`, bytes: readFileSync(`test/fixtures/${agent}/${f}`) })),
);

function hostile(bytes: Buffer): Buffer {
  const lines = bytes.toString("utf8").split("\n").filter((l) => l !== "");
  return Buffer.from(lines.map((l) => JSON.stringify(poison(JSON.parse(l)))).join("\n") + "\n");
}

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const OUR_SGR = /\u001b\[\d+m/g;
const TTY = { stdoutIsTTY: true, stderrIsTTY: true, env: { TZ: "UTC", TERM: "xterm-256color", CI: "1", COLUMNS: "200" } };
const HUMAN = new Set(["text", "stats", "timeline", "show", "diff"]);

function firstUnsafe(s: string): string | undefined {
  const t = s.replace(OUR_SGR, "").replaceAll("\n", "");
  const m = UNSAFE.exec(t);
  return m ? `U+${m[0].codePointAt(0)!.toString(16).padStart(4, "0")} at ${m.index}: ${JSON.stringify(t.slice(Math.max(0, m.index - 60), m.index + 20))}` : undefined;
}

function assertSafe(r: RunResult, what: string, human: boolean): void {
  const err = firstUnsafe(r.stderr);
  assert.equal(err, undefined, `${what}: stderr holds ${err}`);
  if (!human) return;
  const out = firstUnsafe(r.stdout);
  assert.equal(out, undefined, `${what}: stdout holds ${out}`);
}

const ARGVS = [
  ...logCommands().map((c) => [c.name, "--lenient"]),
  ["text", "-v", "--lenient"],
  ["show", "--thinking", "--lenient"],
  ["stats", "--format", "markdown", "--lenient"],
  ["timeline", "--format", "tsv", "--lenient"],
  ["diff", "--stat", "--lenient"],
  ["diff", "--name-only", "--lenient"],
];

for (const [i, f] of FIXTURES.entries()) {
  test(`${f.name} with hostile text in every value: every command on a terminal writes no raw control (stdout of the human outputs, every message)`, async () => {
    const bytes = hostile(f.bytes);
    for (const [n, name] of ["run.ndjson", "a\u001b[2J\u009b31m\u202e.ndjson"].entries()) {
      let shown = false;
      for (const argv of ARGVS.filter((_, k) => STRESS || n === 0 || (k + i) % 2 === 0)) {
        const r = await runFed([...argv, name], { files: { [name]: { bytes } }, ...TTY });
        assertSafe(r, `cursorlog ${argv.join(" ")} ${JSON.stringify(name)} (${f.name})`, HUMAN.has(argv[0]!));
        if (HUMAN.has(argv[0]!) && r.stdout.includes(EVIL_SHOWN)) shown = true;
      }
      assert.ok(shown, `${f.name}: no human output showed the hostile text escaped: the test would see nothing`);
    }
    const html = await runFed(["timeline", "--format", "html", "--allow-incomplete", "--lenient", "run.ndjson"], { files: { "run.ndjson": { bytes } } });
    const raw = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.exec(html.stdout);
    assert.equal(raw, null, `${f.name}: the HTML timeline holds U+${raw?.[0].codePointAt(0)!.toString(16)}`);
  });
}
