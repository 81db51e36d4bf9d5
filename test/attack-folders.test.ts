import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { expandInputs } from "../src/input/expand-inputs.js";
import { readInputs } from "../src/input/read-inputs.js";
import { runCli } from "./helpers/run-cli.js";

// A folder given as input, under attack (issue 24): links in it to what never ends (/dev/zero, a
// FIFO with no writer), the `-o` file inside it, and many files.

const BIN = resolve("bin/cursorlog.js");
const SESSION = resolve("examples/session.ndjson");
const TWO = resolve("test/fixtures/two-sessions.ndjson");
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };

const scratchRoot = mkdtempSync(join(tmpdir(), "cursorlog-attack-folders-"));
after(() => rmSync(scratchRoot, { recursive: true, force: true }));
let n = 0;
function scratch(): string {
  const d = join(scratchRoot, String(n++));
  mkdirSync(d);
  return d;
}

/** The executable, bounded in time: a run that hangs is killed and fails the test, never holds it. */
function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: ENV, timeout: 30_000, maxBuffer: 16 << 20 });
  assert.equal(r.error, undefined, `${args.join(" ")}: ${String(r.error)} (killed: the run hung)`);
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

test("a folder's symbolic links are followed to regular files only: links to /dev/zero, a FIFO, a directory or nothing are passed over", { timeout: 120_000 }, () => {
  const dir = scratch();
  const outside = scratch();
  copyFileSync(SESSION, join(dir, "a.ndjson"));
  copyFileSync(TWO, join(outside, "real.ndjson"));
  symlinkSync(join(outside, "real.ndjson"), join(dir, "b-link.ndjson")); // to a regular file: read
  symlinkSync("/dev/zero", join(dir, "c-zero.ndjson"));
  const fifo = join(outside, "fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  symlinkSync(fifo, join(dir, "d-fifo.log"));
  symlinkSync(outside, join(dir, "e-dir.jsonl"));
  symlinkSync(join(outside, "gone.ndjson"), join(dir, "f-gone.ndjson"));
  assert.equal(spawnSync("mkfifo", [join(dir, "g-own-fifo.ndjson")]).status, 0, "mkfifo"); // a FIFO in the folder itself: passed over already
  assert.deepEqual(expandInputs([dir]).files, [join(dir, "a.ndjson"), join(dir, "b-link.ndjson")]);
  for (const args of [["json"], ["json", "-j", "2"], ["text"], ["filter", "--type", "result"]]) {
    const want = cli([...args, SESSION, TWO]);
    assert.deepEqual(cli([...args, dir]), want, args.join(" "));
  }
});

test("-o FILE inside a folder given as input: FILE is left out of the folder's logs, so a rerun gives the same output", async () => {
  let dir = "";
  for (const [argv, name] of [
    [["json"], "results.ndjson"],
    [["timeline", "--format", "ndjson"], "calls.jsonl"],
    [["filter", "--exclude-type", "thinking"], join("out", "kept.ndjson")],
  ] as const) {
    dir = scratch();
    copyFileSync(SESSION, join(dir, "a.ndjson"));
    copyFileSync(TWO, join(dir, "b.ndjson"));
    mkdirSync(join(dir, "out"));
    const out = join(dir, name);
    const want = (await runCli([...argv, join(dir, "a.ndjson"), join(dir, "b.ndjson")])).stdout;
    for (let run = 1; run <= 3; run++) {
      const r = await runCli([...argv, "-o", out, dir]);
      assert.deepEqual(r, { stdout: "", stderr: "", code: 0 }, `${argv.join(" ")}, run ${run}`);
      assert.equal(readFileSync(out, "utf8"), want, `${argv.join(" ")}, run ${run}: the output of the two logs only`);
    }
    // Through a symbolic link to it in the folder, or -o naming a link to it: left out too.
    symlinkSync(out, join(dir, "zz-link-to-output.ndjson"));
    const viaLink = await runCli([...argv, "-o", out, dir]);
    assert.equal(viaLink.code, 0, viaLink.stderr);
    assert.equal(readFileSync(out, "utf8"), want, `${argv.join(" ")}: a link to FILE in the folder`);
    rmSync(join(dir, "zz-link-to-output.ndjson"));
  }
  // Named as an input itself, FILE is read (as sort -o): only a folder leaves it out.
  const kept = join(dir, "out", "kept.ndjson");
  const once = readFileSync(kept, "utf8");
  const named = await runCli(["filter", "-o", kept, kept, join(dir, "a.ndjson")]);
  assert.equal(named.code, 0);
  assert.equal(readFileSync(kept, "utf8"), once + readFileSync(SESSION, "utf8"));
  // The only log of a folder being FILE: the folder holds no other log.
  const lone = scratch();
  copyFileSync(SESSION, join(lone, "only.ndjson"));
  const r = await runCli(["filter", "-o", join(lone, "only.ndjson"), lone]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `cursorlog: error (at ${lone}): no *.ndjson, *.jsonl or *.log file (or .gz) in this directory\n` +
      `cursorlog: ${join(lone, "only.ndjson")} left as it was (the run failed)\n`,
  );
  assert.equal(readFileSync(join(lone, "only.ndjson"), "utf8"), readFileSync(SESSION, "utf8"));
});

test("many files: reading them takes one 1 MiB read buffer for all, not one per file (the garbage collector's time grew with the square of the files)", async () => {
  // A read buffer left unreturned at each file's end made V8 collect ever more often as files went
  // by: 84 mark-compacts for 10,000 tiny logs, 1,000 for 20,000 (CPU 6.5 s, then 30.8 s). Counted
  // here, not timed: the buffers a run over 40 and over 400 files allocates.
  const dir = scratch();
  const body = readFileSync("test/fixtures/is-error.ndjson");
  const files: string[] = [];
  for (let i = 0; i < 400; i++) {
    const f = join(dir, `${String(i).padStart(4, "0")}.ndjson`);
    writeFileSync(f, body);
    files.push(f);
  }
  const allocations = async (names: string[]): Promise<number> => {
    const original = Buffer.allocUnsafeSlow;
    let count = 0;
    Buffer.allocUnsafeSlow = (size: number) => {
      if (size >= 1 << 20) count++;
      return original(size);
    };
    try {
      let lines = 0;
      for await (const batch of readInputs({ files: names, stdin: process.stdin, maxLineBytes: 1 << 20, stopAtMalformed: true })) {
        lines += batch.items.length;
        batch.release?.();
      }
      assert.equal(lines, names.length * body.toString().trim().split("\n").length);
    } finally {
      Buffer.allocUnsafeSlow = original;
    }
    return count;
  };
  const few = await allocations(files.slice(0, 40));
  const many = await allocations(files);
  assert.ok(many <= 2, `${many} 1 MiB buffers allocated over 400 files`);
  assert.equal(many, few, "as many over 400 files as over 40");
  assert.equal(readdirSync(dir).length, 400);
});
