// test-run: scaled
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";

// bin/cursorlog.js run as a command: line 1 starts sh, which checks stdout and execs node on the
// same file (the sh/JavaScript polyglot; stdout closed by the shell: output-faults.test.ts). What
// the launcher must not change: the arguments, the status, the signals, where the modules are found.
//
// Each case is a process of node (~0.2 CPU s). make test runs each case through the executable
// and each other way to launch it (each shell, a script's "$@") with one case in turn, and takes
// what is expected without the launcher from the cases themselves or an in-process run; make
// stress (CURSORLOG_STRESS=1, test/helpers/scale.ts) runs every case every way, against
// `node bin/cursorlog.js`, as before.
const BIN = resolve("bin/cursorlog.js");
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const SESSION = resolve("examples/session.ndjson");
const dir = mkdtempSync(join(tmpdir(), "cursorlog-launcher-"));

/** The shells the launcher is run by: whatever `env sh` finds, and each of dash (Debian's /bin/sh), bash in POSIX mode (macOS's /bin/sh) and busybox sh (Alpine's) that is installed. */
const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`], { env: ENV }).status === 0;
const LAUNCHES: { name: string; argv: string[] }[] = [
  { name: "executed", argv: [BIN] },
  ...(has("dash") ? [{ name: "dash", argv: ["dash", BIN] }] : []),
  ...(has("bash") ? [{ name: "bash --posix", argv: ["bash", "--posix", BIN] }] : []),
  // Alpine's sh (node:alpine images).
  ...(has("busybox") ? [{ name: "busybox sh", argv: ["busybox", "sh", BIN] }] : []),
];

const run = (argv: string[], cwd = process.cwd()): SpawnSyncReturns<string> =>
  spawnSync(argv[0]!, argv.slice(1), { cwd, env: ENV, encoding: "utf8", timeout: 60_000 });
const outcome = (r: SpawnSyncReturns<string>) => ({ status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr });

before(() => {
  assert.ok(existsSync("dist/bundle/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  // Names a shell would split, expand or take for an option; x.ndjson so that `*.ndjson`, expanded, would match.
  for (const name of ["a b.ndjson", `q'"*.ndjson`, "-dash.ndjson", "x.ndjson"]) copyFileSync(SESSION, join(dir, name));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("the launcher is a polyglot: sh on line 1, and node runs the same file unchanged", () => {
  const lines = readFileSync(BIN, "utf8").split("\n");
  assert.equal(lines[0], "#!/usr/bin/env sh");
  const direct = run(["node", BIN, "--version"]);
  assert.deepEqual([direct.status, direct.stderr], [0, ""]);
  assert.equal(direct.stdout, `${(JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version}\n`);
});

test("arguments reach cursorlog unchanged: spaces, quotes, globs, leading dashes, empty strings", () => {
  const cases: { argv: string[]; status: number; stdout?: RegExp; stderr: RegExp }[] = [
    // Each file read as named: 3 files, 153 lines.
    { argv: ["validate", "--", "a b.ndjson", `q'"*.ndjson`, "-dash.ndjson"], status: 0, stdout: new RegExp(`^${["a b", `q'"\\*`, "-dash"].map((f) => `${f}\\.ndjson:43: .*\n${f}\\.ndjson:44: .*\n`).join("")}checked 153 lines in 3 files: 153 valid`), stderr: /^$/ },
    // Not expanded by the launcher's sh: there is no file named `*.ndjson`.
    { argv: ["validate", "*.ndjson"], status: 2, stderr: /^cursorlog: error \(at \*\.ndjson\): cannot read: no such file or directory\n/ },
    // An empty argument stays one: a file named "".
    { argv: ["validate", "a b.ndjson", ""], status: 2, stderr: /^cursorlog: error \(at \): cannot read: no such file or directory\n/ },
    // A --where expression with spaces and quotes: one argument.
    { argv: ["filter", "--where", `result ~ "Let me look"`, "a b.ndjson"], status: 0, stdout: /^\{"type":"result","subtype":"success",[^\n]*\n$/, stderr: /^$/ },
    { argv: ["--version", "--"], status: 0, stdout: /^\d+\.\d+\.\d+\n$/, stderr: /^$/ },
  ];
  // The ways after the executable itself: each other shell, and a shell's "$@", as a user's script
  // passes them on.
  const others: { name: string; run: (argv: string[]) => ReturnType<typeof outcome> }[] = [
    ...LAUNCHES.slice(1).map((l) => ({ name: l.name, run: (argv: string[]) => outcome(run([...l.argv, ...argv], dir)) })),
    { name: "/bin/sh -c", run: (argv: string[]) => outcome(spawnSync("/bin/sh", ["-c", '"$0" "$@"', BIN, ...argv], { cwd: dir, env: ENV, encoding: "utf8" })) },
  ];
  for (const [i, c] of cases.entries()) {
    // make test: each case through the executable, checked against the case; the names a shell
    // would split, expand or drop (the first three) each through one other way in turn, compared
    // with the executable's. make stress: `node bin/cursorlog.js` checked against the case, and
    // every case every way compared with it (test/helpers/scale.ts).
    const first = STRESS ? { name: "node", run: (argv: string[]) => outcome(run(["node", BIN, ...argv], dir)) } : { name: LAUNCHES[0]!.name, run: (argv: string[]) => outcome(run([...LAUNCHES[0]!.argv, ...argv], dir)) };
    const direct = first.run(c.argv);
    assert.equal(direct.status, c.status, `${first.name} ${c.argv.join(" ")}: ${direct.stderr}`);
    assert.match(direct.stderr, c.stderr, c.argv.join(" "));
    if (c.stdout) assert.match(direct.stdout, c.stdout, c.argv.join(" "));
    const ways = STRESS ? [...LAUNCHES.map((l) => ({ name: l.name, run: (argv: string[]) => outcome(run([...l.argv, ...argv], dir)) })), ...others] : i < 3 ? [others[i % others.length]!] : [];
    for (const w of ways) assert.deepEqual(w.run(c.argv), direct, `${w.name}: ${JSON.stringify(c.argv)}`);
  }
});

test("the status of the run comes through the launcher unchanged (0, 1, 4, 5)", async () => {
  const cases: [string[], number][] = [
    [["json", "test/fixtures/2026-long.ndjson"], 0],
    [["json", "test/fixtures/is-error.ndjson"], 1],
    [["json", "test/fixtures/crash-no-result.ndjson"], 4],
    [["json", "test/fixtures/truncated-last-line.ndjson"], 5],
    [["json", "--no-such-option"], 2],
  ];
  for (const [i, [argv, status]] of cases.entries()) {
    // What the run gives without the launcher: make test, in-process (the source the bundle is
    // built from); make stress, `node bin/cursorlog.js`.
    const direct = STRESS ? outcome(run(["node", BIN, ...argv])) : await runCli(argv, { env: ENV }).then((r) => ({ status: r.code, signal: null, stdout: r.stdout, stderr: r.stderr }));
    assert.equal(direct.status, status, argv.join(" "));
    // make test: every status through the first launch, and each other shell with one of them in
    // turn (dash 1, bash 4, busybox 5); make stress: every status through each.
    for (const [k, l] of LAUNCHES.entries()) if (STRESS || k === 0 || k % cases.length === i) assert.deepEqual(outcome(run([...l.argv, ...argv])), direct, `${l.name}: ${argv.join(" ")}`);
  }
});

test("installed through symlinks (npm's node_modules/.bin, a global bin): node finds the modules from the real file", () => {
  // npm's local layout: node_modules/.bin/cursorlog -> ../cursorlog/bin/cursorlog.js, the package a
  // real folder; dist/ linked from it. Node resolves the main module's symlinks, so
  // ../dist/bundle/main.js is looked for beside the real bin/, not in node_modules/.
  const project = join(dir, "project");
  const pkg = join(project, "node_modules", "cursorlog");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  mkdirSync(join(project, "node_modules", ".bin"));
  copyFileSync(BIN, join(pkg, "bin", "cursorlog.js"));
  copyFileSync("bin/package.json", join(pkg, "bin", "package.json"));
  copyFileSync("package.json", join(pkg, "package.json"));
  symlinkSync(resolve("dist"), join(pkg, "dist"));
  symlinkSync("../cursorlog/bin/cursorlog.js", join(project, "node_modules", ".bin", "cursorlog"));
  // A global install: prefix/bin/cursorlog -> ../lib/node_modules/cursorlog/bin/cursorlog.js, the package a link to this checkout.
  const prefix = join(dir, "prefix");
  mkdirSync(join(prefix, "bin"), { recursive: true });
  mkdirSync(join(prefix, "lib", "node_modules"), { recursive: true });
  symlinkSync(resolve("."), join(prefix, "lib", "node_modules", "cursorlog"));
  symlinkSync("../lib/node_modules/cursorlog/bin/cursorlog.js", join(prefix, "bin", "cursorlog"));
  const expected = readFileSync("test/golden/json-2026-long.stdout", "utf8");
  for (const [i, bin] of [join(project, "node_modules", ".bin", "cursorlog"), join(prefix, "bin", "cursorlog")].entries()) {
    // make test: the local link by its path, the global one found on PATH; make stress: both ways each.
    if (STRESS || i === 0) assert.deepEqual(outcome(run([bin, "json", SESSION], dir)), { status: 0, signal: null, stdout: expected, stderr: "" }, bin);
    if (!STRESS && i === 0) continue;
    // Found on PATH by its name, as a user runs it, and with an argument that has a space.
    const onPath = spawnSync("cursorlog", ["json", "a b.ndjson"], { cwd: dir, env: { ...ENV, PATH: `${join(bin, "..")}:${ENV.PATH}` }, encoding: "utf8" });
    assert.deepEqual(outcome(onPath), { status: 0, signal: null, stdout: expected, stderr: "" }, `on PATH: ${bin}`);
  }
});

/** Whether the process PID is node running cursorlog with its signal handlers installed (they are before fd 0 turns non-blocking: robust-faults.test.ts). */
function nodeWithHandlers(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (!/(^|\/)node$/.test(argv[0]!) || argv[1] !== BIN) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/0`, "utf8"))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & 0o4000) !== 0;
  } catch {
    return false;
  }
}

test("the launcher execs node: the process started is node itself, and a signal sent to it ends cursorlog with the shell's status", { skip: !existsSync("/proc/self/fdinfo") && "needs /proc", timeout: 60_000 }, async (t) => {
  const signals = [["SIGTERM", 143], ["SIGINT", 130]] as const;
  for (const [k, l] of LAUNCHES.entries()) {
    // make test: one through each launch in turn (SIGTERM, SIGINT, SIGTERM, …); make stress: both through each.
    for (const [signal, status] of STRESS ? signals : [signals[k % 2]!]) {
      const child = spawn(l.argv[0]!, [...l.argv.slice(1), "json"], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
      t.after(() => child.kill("SIGKILL"));
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on("close", (code, sig) => done([code, sig])));
      child.stdin!.write('{"type":"system","subtype":"init","session_id":"s"}\n');
      let ready = false;
      for (const end = Date.now() + 20_000; Date.now() < end && !(ready = nodeWithHandlers(child.pid)); ) await sleep(20);
      assert.ok(ready, `${l.name}: pid ${child.pid} did not become node running ${BIN}`);
      child.kill(signal);
      assert.deepEqual(await closed, [status, null], `${l.name} ${signal}`);
    }
  }
});

test("node on PATH is the one the launcher runs (as #!/usr/bin/env node did)", () => {
  // A PATH whose first node says who it is: the launcher runs that one.
  const fake = join(dir, "fake-node");
  mkdirSync(fake);
  writeFileSync(join(fake, "node"), '#!/bin/sh\necho "fake node: $*"\n', { mode: 0o755 });
  const r = spawnSync(BIN, ["json", "a b"], { env: { ...ENV, PATH: `${fake}:${ENV.PATH}` }, encoding: "utf8" });
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, `fake node: ${BIN} json a b\n`, ""]);
});
