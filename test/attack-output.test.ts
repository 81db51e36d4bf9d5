import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test, type TestContext } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { findUnprivileged } from "./helpers/run-unprivileged.js";
import { STRESS } from "./helpers/scale.js";

// `-o FILE` against what FILE can be (issue 24): a device or a FIFO is written to, never replaced;
// /dev/stdout on a pipe works; a regular FILE keeps its mode, owner and hard links; a dangling
// link gets its target created; a writable FILE in a directory the user cannot write to is
// written in place. The executable runs where the process's own stdout or user matters.

const SESSION = "examples/session.ndjson";
const CRASHED = "test/fixtures/crash-no-result.ndjson";
const BIN = resolve("bin/cursorlog.js");
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC", NO_COLOR: "1" };
const isRoot = process.getuid?.() === 0;

const scratchRoot = mkdtempSync(join(tmpdir(), "cursorlog-attack-o-"));
after(() => rmSync(scratchRoot, { recursive: true, force: true }));
let n = 0;
function scratch(): string {
  const d = join(scratchRoot, String(n++));
  mkdirSync(d);
  return d;
}

const plain = async (argv: string[]) => (await runCli(argv)).stdout;
/**
 * `json FILE`'s output, what the executable's runs below must write: make test takes it in-process
 * (the source the bundle is built from, as plain() does: a process less each); make stress from
 * the executable (CURSORLOG_STRESS=1, test/helpers/scale.ts).
 */
const jsonOf = async (file: string) => (STRESS ? spawnSync(process.execPath, [BIN, "json", file], { encoding: "utf8", env: ENV }).stdout : await plain(["json", file]));
const temporaries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".tmp"));

/** Skips, saying why on stderr (never silently), a test that needs root. */
function needRoot(t: TestContext, what: string): boolean {
  if (isRoot) return true;
  process.stderr.write(`SKIPPED: ${what} needs root (this run is uid ${process.getuid?.()})\n`);
  t.skip(`${what} needs root`);
  return false;
}

test("-o onto a character device (mknod c 1 3, a /dev/null): written to, still the device, status 0", (t) => {
  if (!needRoot(t, "mknod")) return;
  const dir = scratch();
  const node = join(dir, "mynull");
  assert.equal(spawnSync("mknod", [node, "c", "1", "3"]).status, 0, "mknod");
  return (async () => {
    for (const argv of [["json", SESSION], ["text", "-v", SESSION], ["filter", "--type", "result", SESSION]]) {
      const r = await runCli([...argv, "-o", node]);
      assert.deepEqual(r, { stdout: "", stderr: "", code: 0 }, argv.join(" "));
      const st = lstatSync(node);
      assert.ok(st.isCharacterDevice(), `${argv.join(" ")}: ${node} is still a character device`);
      assert.equal(st.rdev, (1 << 8) | 3, "major 1, minor 3");
    }
    // A failed run (status 2) writes nothing to replace and no "left as it was" line.
    const failed = await runCli(["json", "-o", node, join(dir, "nosuch.ndjson")]);
    assert.equal(failed.code, 2);
    assert.equal(failed.stderr, `cursorlog: error (at ${join(dir, "nosuch.ndjson")}): cannot read: no such file or directory\n`);
    assert.ok(lstatSync(node).isCharacterDevice());
    assert.deepEqual(readdirSync(dir), ["mynull"], "no temporary file");
  })();
});

test("-o onto a full device (mknod c 1 7, a /dev/full): one message naming it, status 2, still the device", async (t) => {
  // Never the real /dev/full: without the fix, the run renamed a regular file over it.
  if (!needRoot(t, "mknod")) return;
  const dir = scratch();
  const full = join(dir, "myfull");
  assert.equal(spawnSync("mknod", [full, "c", "1", "7"]).status, 0, "mknod");
  const r = await runCli(["json", "-o", full, SESSION]);
  assert.deepEqual(r, { stdout: "", stderr: `cursorlog: error: cannot write ${full}: no space left on device\n`, code: 2 });
  assert.ok(lstatSync(full).isCharacterDevice());
  assert.deepEqual(readdirSync(dir), ["myfull"]);
});

test("-o onto a FIFO: its reader gets the output as it is written, the FIFO stays a FIFO", { timeout: 30_000 }, async () => {
  const dir = scratch();
  const fifo = join(dir, "out.fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  const want = await plain(["text", "-v", SESSION]);
  // The reader is another process (an open of a FIFO blocks until both ends are there), bounded in time.
  const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "inherit"] });
  let got = "";
  reader.stdout.on("data", (b) => (got += b));
  const ended = new Promise<void>((res) => reader.on("close", () => res()));
  const r = await runCli(["text", "-v", "-o", fifo, SESSION]);
  const timer = setTimeout(() => reader.kill("SIGKILL"), 10_000);
  await ended;
  clearTimeout(timer);
  assert.deepEqual(r, { stdout: "", stderr: "", code: 0 });
  assert.equal(got, want, "what the reader got");
  assert.ok(lstatSync(fifo).isFIFO(), "still a FIFO");
  assert.deepEqual(readdirSync(dir), ["out.fifo"]);
});

test("-o onto a FIFO whose reader goes away (head -c 10): quiet, status 0, as a closed pipe on stdout", { timeout: 60_000 }, () => {
  const dir = scratch();
  const fifo = join(dir, "out.fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  const big = "test/fixtures/large-results.ndjson";
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `head -c 10 "$3" & "$0" "$1" filter -o "$3" "$2" "$2" "$2" "$2"; echo "status=$?"; wait`, process.execPath, BIN, big, fifo], {
    encoding: "utf8",
    env: ENV,
    timeout: 30_000,
  });
  assert.equal(r.error, undefined, String(r.error));
  assert.deepEqual([r.stdout, r.stderr], ['{"type":"sstatus=0\n', ""]);
  assert.ok(lstatSync(fifo).isFIFO());
});

test("-o onto a FIFO with no reader yet: the run waits for one (as > does), and SIGINT ends the wait", { timeout: 30_000 }, async () => {
  const dir = scratch();
  const fifo = join(dir, "out.fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  const child = spawn(process.execPath, [BIN, "json", "-o", fifo, SESSION], { stdio: ["ignore", "ignore", "pipe"], env: ENV });
  let stderr = "";
  child.stderr.on("data", (b) => (stderr += b));
  const exited = new Promise<number | null>((res) => child.on("close", (code) => res(code)));
  await new Promise((r) => setTimeout(r, 2_000)); // the run (~0.3 s) would be over, but it waits for a reader
  assert.equal(child.exitCode, null, `still waiting for a reader; stderr: ${stderr}`);
  child.kill("SIGINT");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  assert.equal(await exited, 130, "SIGINT within 10 s");
  clearTimeout(timer);
  assert.equal(stderr, "");
  assert.ok(lstatSync(fifo).isFIFO());
  assert.deepEqual(readdirSync(dir), ["out.fifo"]);
});

test("-o /dev/stdout with stdout on a pipe, and on a file (appended to, not truncated): the output there, status 0", async () => {
  const want = await jsonOf(SESSION);
  assert.notEqual(want, "");
  const piped = spawnSync("bash", ["--norc", "--noprofile", "-c", `{ "$0" "$1" json -o /dev/stdout "$2"; echo "status=$?" >&2; } | cat`, process.execPath, BIN, SESSION], {
    encoding: "utf8",
    env: ENV,
  });
  assert.equal(piped.stdout, want);
  assert.equal(piped.stderr, "status=0\n");
  const dir = scratch();
  const file = join(dir, "out.json");
  const redirected = spawnSync("bash", ["--norc", "--noprofile", "-c", `"$0" "$1" json -o /dev/stdout "$2" > "$3"`, process.execPath, BIN, SESSION, file], { encoding: "utf8", env: ENV });
  assert.deepEqual([redirected.status, redirected.stderr], [0, ""]);
  assert.equal(readFileSync(file, "utf8"), want);
  assert.deepEqual(readdirSync(dir), ["out.json"]);
  // A descriptor on a file is appended to, never truncated (as `> /dev/stdout` would): `>>`, and
  // what the shell wrote before in the same redirection, stay.
  const appended = spawnSync("bash", ["--norc", "--noprofile", "-c", `"$0" "$1" json -o /dev/stdout "$2" >> "$3"; { echo second; "$0" "$1" json -o /dev/fd/1 "$2"; } >> "$3"`, process.execPath, BIN, SESSION, file], {
    encoding: "utf8",
    env: ENV,
  });
  assert.deepEqual([appended.status, appended.stderr], [0, ""]);
  assert.equal(readFileSync(file, "utf8"), `${want}${want}second\n${want}`);
});

test("-o /dev/fd/N: a descriptor the shell opened is written (>(…), 3>&1, 3>file); one it did not is refused, never Node's own", { timeout: 60_000 }, async () => {
  const dir = scratch();
  const want = await jsonOf(SESSION);
  const sh = (script: string, ...args: string[]) => spawnSync("bash", ["--norc", "--noprofile", "-c", script, process.execPath, BIN, SESSION, ...args], { encoding: "utf8", env: ENV, timeout: 30_000 });
  const sub = sh(`"$0" "$1" json -o >(cat > "$3") "$2"; echo "status=$?"; wait`, join(dir, "sub.json"));
  assert.deepEqual([sub.stdout, sub.stderr], ["status=0\n", ""]);
  // The reader of >(…) may finish after bash's wait: bounded look.
  const deadline = Date.now() + 10_000;
  while (readFileSync(join(dir, "sub.json"), "utf8") !== want && Date.now() < deadline) spawnSync("sleep", ["0.05"]);
  assert.equal(readFileSync(join(dir, "sub.json"), "utf8"), want, "-o >(cat > f)");
  const dup = sh(`"$0" "$1" json -o /dev/fd/3 "$2" 3>&1 | cat`);
  assert.deepEqual([dup.stdout, dup.stderr, dup.status], [want, "", 0], "3>&1 on a pipe");
  const file = sh(`"$0" "$1" json -o /dev/fd/3 "$2" 3>"$3"`, join(dir, "three.json"));
  assert.deepEqual([file.stderr, file.status], ["", 0]);
  assert.equal(readFileSync(join(dir, "three.json"), "utf8"), want, "3>file");
  // Opened for reading only (`3<file`): not an output, and the file is not touched.
  writeFileSync(join(dir, "in.txt"), "input\n");
  const ro = sh(`"$0" "$1" json -o /dev/fd/3 "$2" 3<"$3"`, join(dir, "in.txt"));
  assert.deepEqual([ro.stderr, ro.status], ["cursorlog: error: cannot write /dev/fd/3: bad file descriptor\n", 2]);
  assert.equal(readFileSync(join(dir, "in.txt"), "utf8"), "input\n");
  // Descriptors the shell did not open: none, or Node's own (its event loop's epoll and eventfd,
  // libuv's pipes: writing into one crashed the process with SIGSEGV). Node 20 holds 3-18 when the
  // output is opened: epolls (3, 9, 14), pipes' read and write ends (4-7, 11-12, 15-16), eventfds
  // (8, 13, 17), /dev/null (10, 18); 19 and 20 are not open. make test: one of each kind (3, 4,
  // 5, 8, 10, 19); make stress: 3 to 20, each (test/helpers/scale.ts).
  for (const fd of STRESS ? Array.from({ length: 18 }, (_, i) => 3 + i) : [3, 4, 5, 8, 10, 19]) {
    const r = sh(`"$0" "$1" json -o /dev/fd/${fd} "$2"`);
    assert.deepEqual([r.stdout, r.stderr, r.status], ["", `cursorlog: error: cannot write /dev/fd/${fd}: bad file descriptor\n`, 2], `/dev/fd/${fd}`);
  }
});

test("-o FILE keeps FILE's mode exactly (the umask is not applied): 0666, 2775, 0600, 4755, 0444", async () => {
  const dir = scratch();
  const want = await plain(["json", SESSION]);
  for (const mode of [0o666, 0o2775, 0o600, 0o4755, 0o444]) {
    const out = join(dir, `m${mode.toString(8)}.json`);
    writeFileSync(out, "old\n");
    chmodSync(out, mode);
    const r = await runCli(["json", "-o", out, SESSION]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(out, "utf8"), want);
    assert.equal((statSync(out).mode & 0o7777).toString(8), mode.toString(8), `mode ${mode.toString(8)}`);
  }
  // A new FILE gets 0666 less the umask, as > gives it.
  const fresh = join(dir, "fresh.json");
  assert.equal((await runCli(["json", "-o", fresh, SESSION])).code, 0);
  const umask = process.umask(0o022);
  process.umask(umask);
  assert.equal((statSync(fresh).mode & 0o777).toString(8), (0o666 & ~umask).toString(8));
  assert.deepEqual(temporaries(dir), []);
});

test("-o FILE keeps FILE's owner and group (run as root, FILE owned by another user)", async (t) => {
  if (!needRoot(t, "chown to another user")) return;
  const dir = scratch();
  const out = join(dir, "owned.json");
  writeFileSync(out, "old\n");
  chownSync(out, 65534, 65534);
  chmodSync(out, 0o2664);
  const r = await runCli(["json", "-o", out, SESSION]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), await plain(["json", SESSION]));
  const st = statSync(out);
  assert.deepEqual([st.uid, st.gid, (st.mode & 0o7777).toString(8)], [65534, 65534, "2664"]);
});

test("-o FILE with hard links: FILE keeps its inode (every link sees the output); a failed run leaves it as it was", async () => {
  const dir = scratch();
  const out = join(dir, "a.json");
  const other = join(dir, "b.json");
  writeFileSync(out, "old content, longer than nothing\n".repeat(100));
  linkSync(out, other);
  chmodSync(out, 0o640);
  const ino = statSync(out).ino;
  const want = await plain(["json", SESSION]);
  const r = await runCli(["json", "-o", out, SESSION]);
  assert.deepEqual(r, { stdout: "", stderr: "", code: 0 });
  assert.equal(readFileSync(out, "utf8"), want, "shorter than the old content: cut to its length");
  assert.equal(readFileSync(other, "utf8"), want, "the other link");
  const st = statSync(out);
  assert.deepEqual([st.ino, st.nlink, st.mode & 0o7777], [ino, 2, 0o640]);
  // Failed (a missing input): the content stays, no temporary file.
  const failed = await runCli(["json", "-o", out, SESSION, join(dir, "nosuch.ndjson")]);
  assert.equal(failed.code, 2);
  assert.ok(failed.stderr.endsWith(`cursorlog: ${out} left as it was (the run failed)\n`), failed.stderr);
  assert.equal(readFileSync(other, "utf8"), want);
  // A link that is also the input: read whole first (as sort -o), then written in place.
  const log = join(dir, "run.ndjson");
  writeFileSync(log, readFileSync(SESSION));
  linkSync(log, join(dir, "run-link.ndjson"));
  const filtered = await plain(["filter", "--exclude-type", "thinking", SESSION]);
  assert.equal((await runCli(["filter", "--exclude-type", "thinking", "-o", log, log])).code, 0);
  assert.equal(readFileSync(join(dir, "run-link.ndjson"), "utf8"), filtered);
  assert.deepEqual(temporaries(dir), []);
});

test("-o on a dangling symbolic link creates the file it names (through a chain of links) and keeps the links", async () => {
  const dir = scratch();
  mkdirSync(join(dir, "sub"));
  symlinkSync("sub/target.json", join(dir, "link.json"));
  symlinkSync("link.json", join(dir, "link2.json"));
  const want = await plain(["json", SESSION]);
  const r = await runCli(["json", "-o", join(dir, "link2.json"), SESSION]);
  assert.deepEqual(r, { stdout: "", stderr: "", code: 0 });
  assert.equal(readlinkSync(join(dir, "link2.json")), "link.json");
  assert.equal(readlinkSync(join(dir, "link.json")), "sub/target.json");
  assert.equal(readFileSync(join(dir, "sub", "target.json"), "utf8"), want);
  // A link into a directory that does not exist: as > says it, nothing created.
  symlinkSync("nodir/x.json", join(dir, "nowhere.json"));
  const none = await runCli(["json", "-o", join(dir, "nowhere.json"), SESSION]);
  assert.deepEqual(none, { stdout: "", stderr: `cursorlog: error: cannot write ${join(dir, "nowhere.json")}: no such directory\n`, code: 2 });
  // A loop of links.
  symlinkSync("loop-b", join(dir, "loop-a"));
  symlinkSync("loop-a", join(dir, "loop-b"));
  const loop = await runCli(["json", "-o", join(dir, "loop-a"), SESSION]);
  assert.deepEqual(loop, { stdout: "", stderr: `cursorlog: error: cannot write ${join(dir, "loop-a")}: too many levels of symbolic links\n`, code: 2 });
  assert.deepEqual(temporaries(dir), []);
  assert.deepEqual(temporaries(join(dir, "sub")), []);
  assert.ok(!existsSync(join(dir, "nodir")));
});

test("-o as a user who cannot write FILE's directory: a FILE they can write is written in place; one they cannot, refused", async (t) => {
  const as = findUnprivileged();
  if (typeof as === "string") {
    // Only where no user can be switched to: said on stderr, never silent.
    process.stderr.write(`SKIPPED: -o in a directory the user cannot write: ${as}\n`);
    t.skip(as);
    return;
  }
  try {
    const dir = scratch();
    chmodSync(scratchRoot, 0o755);
    chmodSync(dir, 0o755); // owned by root: nobody cannot create a file here
    const out = join(dir, "out.json");
    writeFileSync(out, "old\n");
    chmodSync(out, 0o666);
    const ino = statSync(out).ino;
    const session = resolve(SESSION);
    const want = await jsonOf(session);
    const r = as.run(["json", "-o", out, session]);
    assert.deepEqual(r, { stdout: "", stderr: "", code: 0 }, as.how);
    assert.equal(readFileSync(out, "utf8"), want);
    const st = statSync(out);
    assert.deepEqual([st.ino, st.uid, st.mode & 0o7777], [ino, 0, 0o666]);
    assert.deepEqual(readdirSync(dir), ["out.json"]);
    // Its temporary file went to TMPDIR (/tmp for nobody here), and is gone.
    assert.deepEqual(
      readdirSync(tmpdir()).filter((f) => f.startsWith(".out.json.cursorlog-")),
      [],
      "no temporary file left in TMPDIR",
    );
    // A failed run leaves it as it was.
    const failed = as.run(["json", "-o", out, session, join(dir, "nosuch.ndjson")]);
    assert.equal(failed.code, 2);
    assert.equal(readFileSync(out, "utf8"), want);
    // A FILE nobody cannot write, in that directory: refused as > refuses it, FILE untouched.
    const locked = join(dir, "locked.json");
    writeFileSync(locked, "old\n");
    chmodSync(locked, 0o644);
    const refused = as.run(["json", "-o", locked, session]);
    assert.deepEqual(refused, { stdout: "", stderr: `cursorlog: error: cannot write ${locked}: permission denied\n`, code: 2 });
    assert.equal(readFileSync(locked, "utf8"), "old\n");
    // A directory nobody may write, FILE another user's that nobody may write: the owner cannot be
    // kept by a rename, so FILE is written in place (its owner stays root).
    const open = scratch();
    chmodSync(open, 0o777);
    const shared = join(open, "shared.json");
    writeFileSync(shared, "old\n");
    chmodSync(shared, 0o666);
    const sharedIno = statSync(shared).ino;
    const w = as.run(["json", "-o", shared, session]);
    assert.deepEqual(w, { stdout: "", stderr: "", code: 0 });
    assert.equal(readFileSync(shared, "utf8"), want);
    assert.deepEqual([statSync(shared).ino, statSync(shared).uid], [sharedIno, 0]);
    assert.deepEqual(readdirSync(open), ["shared.json"]);
    // There, a FILE with two links that nobody may not write: refused before the run (a rename
    // would cut its links), both links as they were.
    const linked = join(open, "linked.json");
    writeFileSync(linked, "old\n");
    chmodSync(linked, 0o644);
    linkSync(linked, join(open, "linked-too.json"));
    const no = as.run(["json", "-o", linked, session]);
    assert.deepEqual(no, { stdout: "", stderr: `cursorlog: error: cannot write ${linked}: permission denied\n`, code: 2 });
    assert.deepEqual([readFileSync(linked, "utf8"), statSync(linked).nlink], ["old\n", 2]);
    assert.deepEqual(readdirSync(open).sort(), ["linked-too.json", "linked.json", "shared.json"]);
  } finally {
    as.cleanup();
  }
});

test("-o: the old tests' promises stand (a missing input leaves FILE; 4 replaces it)", async () => {
  const dir = scratch();
  const out = join(dir, "r.json");
  writeFileSync(out, "old\n");
  assert.equal((await runCli(["json", "-o", out, CRASHED])).code, 4);
  assert.equal(readFileSync(out, "utf8"), await plain(["json", CRASHED]));
});
