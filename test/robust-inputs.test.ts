// test-run: scaled
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { createGunzip, gzipSync } from "node:zlib";
import fc from "fast-check";
import { genLog } from "./helpers/gen-events.js";
import { logCommands, runFed } from "./helpers/run-chunks.js";
import { findUnprivileged } from "./helpers/run-unprivileged.js";
import { FUZZ_SEED, fuzzRuns, STRESS } from "./helpers/scale.js";
import { assertContract } from "./helpers/verdict.js";

// Inputs that cannot be read, whole or in part: a gzip stream cut short or corrupt (a clear error
// naming the file, after the output that was good), missing files, unreadable files and
// directories, empty directories. grep's rule: a message per input, the others still read, a
// non-zero status at the end. Every command that reads logs is taken from the command table.
// The gzip stream is cut at a few places in make test, at more in make stress (CURSORLOG_STRESS=1;
// test/helpers/scale.ts); FUZZ_RUNS overrides that count, FUZZ_SEED the seed (42). make test runs
// each damaged stream through half of the commands in turn (filter, whose output is checked byte
// for byte, through every one), and, as root, spawns the CLI as nobody for three commands' chmod
// 000 test (every command in make stress).

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();
const KNOWN = new Set(["json", "text", "filter", "timeline", "stats"]);
/** Commands whose stdout over inputs some of which cannot be read is exactly their stdout over the readable ones. */
const SAME_AS_READABLE = new Set([...KNOWN, "validate"]);
/** The commands a damaged gzip stream goes through, the n-th time: every one in make stress; half of them in turn in make test, filter always. */
const commandsFor = (n: number) => COMMANDS.filter((c, k) => STRESS || c.name === "filter" || k % 2 === n % 2);
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-inputs-"));
// Traversable by others: as root, the chmod 000 tests run the CLI as nobody over files in here.
chmodSync(tmp, 0o755);
const ROOT = process.getuid?.() === 0;

/** A log big enough for several deflate blocks: generated sessions concatenated to ~400 KB. */
const PLAIN = Buffer.concat(fc.sample(genLog({ maxSessions: 3, layouts: false }), { seed: SEED, numRuns: 40 }).map((l) => l.bytes));
const GZ = gzipSync(PLAIN);
const NEXT = readFileSync("test/fixtures/thinking-only.ndjson");

/** The complete lines zlib gives back from a damaged gzip stream before it fails. */
async function decodablePrefix(bytes: Buffer): Promise<Buffer> {
  const gunzip = createGunzip();
  const parts: Buffer[] = [];
  gunzip.on("data", (d: Buffer) => parts.push(d));
  await new Promise<void>((resolve) => {
    gunzip.on("error", () => resolve());
    gunzip.on("end", () => resolve());
    gunzip.end(bytes);
  });
  const some = Buffer.concat(parts);
  return some.subarray(0, some.lastIndexOf(10) + 1);
}

test("a gzip stream cut anywhere: the good output, then one message naming the file, then the next file; status 2", { timeout: 300_000 }, async () => {
  assert.ok(GZ.length > 30_000, `${GZ.length} bytes of gzip`);
  let cuts = 0;
  await fc.assert(
    // From 2 bytes: a file of one byte 0x1f cannot be told from a text file that starts so.
    fc.asyncProperty(fc.integer({ min: 2, max: GZ.length - 1 }), async (cut) => {
      const files = { "cut.ndjson.gz": { bytes: GZ.subarray(0, cut) }, "next.ndjson": { bytes: NEXT } };
      const good = await decodablePrefix(GZ.subarray(0, cut));
      for (const c of commandsFor(cuts++)) {
        const r = await runFed([c.name, "--lenient", "cut.ndjson.gz", "next.ndjson"], { files });
        const context = `cursorlog ${c.name} on a gzip stream cut at ${cut} of ${GZ.length}`;
        assertContract(r, context, ["cut.ndjson.gz", "next.ndjson"]);
        assert.equal(r.code, 2, `${context}: exit ${r.code}`);
        const message = "cursorlog: error (at cut.ndjson.gz): cannot read: truncated gzip data (unexpected end of file)\n";
        assert.ok(r.stderr.startsWith(message) || r.stderr.includes("\n" + message), `${context}:\n${r.stderr}`);
        if (c.name === "filter") {
          // Exactly the complete lines before the cut, then the message, then the next file.
          assert.equal(r.both, good.toString("utf8") + message + NEXT.toString("utf8"), context);
        } else if (KNOWN.has(c.name)) {
          // stdout is exactly what the good part and the next file give: nothing good lost, nothing
          // invented. (Where the message falls among other messages of the same batch is not fixed.)
          const plain = await runFed([c.name, "--lenient", "cut.ndjson.gz", "next.ndjson"], { files: { ...files, "cut.ndjson.gz": { bytes: good } } });
          assert.equal(r.stdout, plain.stdout, `${context}: stdout differs from the run over the part that was good`);
          assert.equal(r.stderr.split(message).length, 2, `${context}: the message is not there exactly once`);
        }
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 15), includeErrorInReport: true },
  );
});

test("a corrupt gzip stream (bytes overwritten, or a wrong CRC): the good output, then 'corrupt gzip data' naming the file; status 2", async () => {
  const mid = Buffer.from(GZ);
  mid.fill(0x55, Math.floor(GZ.length / 2), Math.floor(GZ.length / 2) + 64);
  const crc = Buffer.from(GZ);
  crc.writeUInt32LE((crc.readUInt32LE(crc.length - 8) ^ 1) >>> 0, crc.length - 8);
  for (const [n, [name, bytes]] of ([["mid.ndjson.gz", mid], ["crc.ndjson.gz", crc]] as const).entries()) {
    const good = await decodablePrefix(bytes);
    for (const c of commandsFor(n)) {
      const r = await runFed([c.name, "--lenient", name, "next.ndjson"], { files: { [name]: { bytes }, "next.ndjson": { bytes: NEXT } } });
      const context = `cursorlog ${c.name} ${name}`;
      assertContract(r, context, [name, "next.ndjson"]);
      assert.equal(r.code, 2, context);
      assert.match(r.stderr, new RegExp(`^cursorlog: error \\(at ${name.replace(/\./g, "\\.")}\\): cannot read: corrupt gzip data \\(.+\\)$`, "m"), context);
      if (c.name === "filter") {
        // Output of the stream before the damage (how far zlib gets before it notices depends on
        // how its input was chunked, and damaged deflate data can decode to garbage first: gzip's
        // CRC comes at the end), then the message, then the next file, whole.
        const at = r.both.indexOf("cursorlog: error (at " + name + "): cannot read: corrupt gzip data");
        assert.ok(at > PLAIN.length / 3, `${context}: only ${at} bytes of output before the message`);
        assert.equal(r.both.slice(0, 2000), PLAIN.toString("utf8").slice(0, 2000), context);
        assert.ok(r.both.endsWith(")\n" + NEXT.toString("utf8")), `${context}: the next file does not follow the message`);
      }
    }
  }
});

test("gzip members concatenated (cat a.gz b.gz) are one stream: both are read", async () => {
  const both = Buffer.concat([gzipSync(PLAIN), gzipSync(NEXT)]);
  for (const c of COMMANDS) {
    const a = await runFed([c.name, "x.gz"], { files: { "x.gz": { bytes: both } } });
    const b = await runFed([c.name, "x.gz"], { files: { "x.gz": { bytes: Buffer.concat([PLAIN, NEXT]) } } });
    assert.deepEqual({ stdout: a.stdout, stderr: a.stderr, code: a.code }, { stdout: b.stdout, stderr: b.stderr, code: b.code }, c.name);
  }
});

// ---------------------------------------------------------------------------------------------
// Missing, unreadable and directory inputs.

let server: Server | undefined;
/** As root: a way to run the built CLI as nobody for the chmod 000 tests, or why there is none. */
const asNobody = ROOT ? findUnprivileged() : undefined;
after(() => {
  server?.close();
  if (typeof asNobody === "object") asNobody.cleanup();
  // chmod 000 leftovers first, or a normal user could not remove them
  for (const e of readdirSync(tmp)) if (e.startsWith("locked") || e === "secret.ndjson") chmodSync(join(tmp, e), 0o700);
  rmSync(tmp, { recursive: true, force: true });
});
let bad: Promise<{ path: string; message: RegExp }> | undefined;

/** An input no one can read: chmod 000 for a normal user; as root (which chmod does not stop), a Unix socket. */
function unreadable(t: { diagnostic(s: string): void }): Promise<{ path: string; message: RegExp }> {
  if (ROOT) t.diagnostic("running as root: chmod 000 does not stop root, so the unreadable input here is a Unix socket (open fails with ENXIO); the chmod 000 tests run the CLI as nobody");
  return (bad ??= (async () => {
    if (!ROOT) {
      const p = join(tmp, "secret.ndjson");
      writeFileSync(p, NEXT);
      chmodSync(p, 0o000);
      return { path: p, message: /cannot read: permission denied$/ };
    }
    const p = join(tmp, "socket.ndjson");
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(p, resolve));
    return { path: p, message: /cannot read: ENXIO: no such device or address, open '.*socket\.ndjson'$/ };
  })());
}

const a = join(tmp, "a.ndjson");
const dir = join(tmp, "logs");
const empty = join(tmp, "empty");
const missing = join(tmp, "missing.ndjson");
const z = join(tmp, "z.ndjson");

for (const c of COMMANDS) {
  test(`cursorlog ${c.name}: missing, unreadable, directory and empty-directory inputs: a message each, the other files read, status 2`, async (t) => {
    await inputsTest(c.name, t);
  });
}

async function inputsTest(name: string, t: { diagnostic(s: string): void }): Promise<void> {
  writeFileSync(a, readFileSync("test/fixtures/2025-shape.ndjson"));
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "sub", "b.jsonl"), readFileSync("test/fixtures/two-sessions.ndjson"));
  writeFileSync(join(dir, "c.log.gz"), gzipSync(readFileSync("test/fixtures/parallel-out-of-order.ndjson")));
  writeFileSync(join(dir, "notes.txt"), "not a log\n");
  mkdirSync(empty, { recursive: true });
  writeFileSync(z, NEXT);
  const bad = await unreadable(t);
  const inputs = [a, missing, dir, empty, bad.path, z];
  const readable = [a, join(dir, "c.log.gz"), join(dir, "sub", "b.jsonl"), z];
  {
    const c = { name };
    const r = await runFed([c.name, ...inputs]);
    const context = `cursorlog ${c.name} ${inputs.join(" ")}`;
    assertContract(r, context, [...inputs, ...readable]);
    assert.equal(r.code, 2, `${context}: exit ${r.code}\n${r.stderr}`);
    // (The export's warning of a run with no time in the log is not an input's message: set aside.)
    const lines = r.stderr.split("\n").slice(0, -1).filter((l) => !/^cursorlog: warning \(at [^)]*\): .* has no time in the log: /.test(l));
    assert.deepEqual(
      lines.map((l) => /^cursorlog: error \(at (.*?)\): /.exec(l)?.[1]),
      [empty, missing, bad.path],
      `${context}: one message per input that could not be read (directories first: they are listed before reading)\n${r.stderr}`,
    );
    assert.equal(lines[0], `cursorlog: error (at ${empty}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory`);
    assert.equal(lines[1], `cursorlog: error (at ${missing}): cannot read: no such file or directory`);
    assert.match(lines[2]!, bad.message);
    if (SAME_AS_READABLE.has(c.name)) {
      // Everything readable was read, in order: the output is that of the readable files alone
      // (validate's summary counts the files read, not the inputs named).
      const only = await runFed([c.name, ...readable]);
      assert.equal(r.stdout, only.stdout, `${context}: stdout differs from the run over the readable files`);
    }
  }
}

/**
 * As root each of these spawns the built CLI as nobody (~0.3 s of CPU each): make test runs three
 * commands so (json, filter, validate: the input layer they share is what says 'permission
 * denied'; each reads in its own way), make stress every one. As a normal user every command runs,
 * in-process.
 */
const CHMOD_IN_MAKE_TEST = new Set(["json", "filter", "validate"]);
for (const c of COMMANDS) {
  const skip =
    (typeof asNobody === "string" && `running as root, which chmod 000 does not stop, and ${asNobody}; the socket case above covers an unreadable input`) ||
    (typeof asNobody === "object" && !STRESS && !CHMOD_IN_MAKE_TEST.has(c.name) && `make stress only, as root (a spawned CLI as nobody each); make test runs ${[...CHMOD_IN_MAKE_TEST].join(", ")}`);
  test(`cursorlog ${c.name}: an unreadable file and directory for a normal user (chmod 000): 'permission denied', the rest read`, skip ? { skip } : {}, async (t) => {
    // As root, the built CLI runs as nobody (root would read them); otherwise in-process, as the user running the tests.
    const run = typeof asNobody === "object" ? async (argv: string[]) => asNobody.run(argv) : (argv: string[]) => runFed(argv);
    if (typeof asNobody === "object") t.diagnostic(`running as root: the CLI runs as nobody (${asNobody.how})`);
    const d = join(tmp, `locked-${c.name}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, "x.ndjson"), NEXT);
    chmodSync(d, 0o000);
    const f = join(tmp, `locked-${c.name}.ndjson`);
    writeFileSync(f, NEXT);
    chmodSync(f, 0o000);
    const ok = join(tmp, `readable-${c.name}.ndjson`);
    writeFileSync(ok, NEXT);
    chmodSync(ok, 0o644);
    const r = await run([c.name, d, f, ok]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      `cursorlog: error (at ${d}): cannot read directory: permission denied\ncursorlog: error (at ${f}): cannot read: permission denied\n`,
    );
    // The readable file alone, in-process (its mode lets anyone read it: as nobody, the same bytes).
    if (SAME_AS_READABLE.has(c.name)) assert.equal(r.stdout, (await runFed([c.name, ok])).stdout);
  });
}

test("a file that fails while being read (EIO from /proc/self/mem): a message naming it, status 2, the next file read", { skip: process.platform !== "linux" && "Linux only" }, async () => {
  for (const c of COMMANDS) {
    const r = await runFed([c.name, "/proc/self/mem", "test/fixtures/thinking-only.ndjson"]);
    const context = `cursorlog ${c.name} /proc/self/mem`;
    assertContract(r, context, ["/proc/self/mem", "test/fixtures/thinking-only.ndjson"]);
    assert.equal(r.code, 2, context);
    assert.match(r.stderr, /^cursorlog: error \(at \/proc\/self\/mem\): cannot read: .*(EIO|i\/o error|input\/output error)/im, context);
    if (SAME_AS_READABLE.has(c.name)) assert.equal(r.stdout, (await runFed([c.name, "test/fixtures/thinking-only.ndjson"])).stdout, context);
  }
});
