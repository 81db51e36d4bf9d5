// Issue 26 C: a fresh clone's `make demo` / `make test` builds once (npm ci's "prepare" used to
// build, then `build` again: 1 min 22 s), and a second `make test` with nothing changed builds
// nothing. Checked with `make -n` on a copy of the Makefile over a stand-in tree, and by running
// scripts/prepare.mjs in a folder whose "build" only leaves a mark. `npm install` in a clone still
// builds (README: "npm install … builds").
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";

const root = mkdtempSync(join(tmpdir(), "cursorlog-make-"));
after(() => rmSync(root, { recursive: true, force: true }));
const hasMake = spawnSync("make", ["--version"]).status === 0;

/** A clone as far as the Makefile's rules see it: the files named, no node_modules, no dist. */
function clone(): string {
  const dir = mkdtempSync(join(root, "clone-"));
  copyFileSync("Makefile", join(dir, "Makefile"));
  for (const f of ["package.json", "package-lock.json", "tsconfig.json", "src/index.ts", "src/cli/main.ts", "schemas/result.schema.json", "scripts/build.mjs", "scripts/bundle.mjs", "scripts/code-cache.mjs", "scripts/build-validators.ts"]) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), "");
  }
  age(dir, ["package.json", "package-lock.json", "tsconfig.json", "src/index.ts", "src/cli/main.ts", "schemas/result.schema.json", "scripts/build.mjs", "scripts/bundle.mjs", "scripts/code-cache.mjs", "scripts/build-validators.ts"], 3600);
  return dir;
}

/** Sets the files' times to `secondsAgo`. */
function age(dir: string, files: string[], secondsAgo: number): void {
  const t = Date.now() / 1000 - secondsAgo;
  for (const f of files) utimesSync(join(dir, f), t, t);
}

function touch(dir: string, file: string, secondsAgo: number): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), "");
  age(dir, [file], secondsAgo);
}

/** The commands `make -n TARGET` would run. */
function plan(dir: string, target: string): string[] {
  // Run as a make of its own, not a sub-make of `make test` (whose MAKEFLAGS and MAKELEVEL would
  // add "Entering directory" lines).
  const env = { ...process.env };
  for (const k of ["MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"]) delete env[k];
  const r = spawnSync("make", ["-n", "--no-print-directory", target], { cwd: dir, encoding: "utf8", timeout: 30_000, env });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split("\n").filter((l) => l !== "");
}

const builds = (lines: string[]) => lines.filter((l) => /\bnpm run build\b|\btsc\b/.test(l)).length;
const installs = (lines: string[]) => lines.filter((l) => /\bnpm ci\b/.test(l));

test("make demo and make test on a fresh clone: npm ci without prepare's build, then one build", { skip: !hasMake && "make is not installed" }, () => {
  const dir = clone();
  for (const target of ["demo", "test"]) {
    const lines = plan(dir, target);
    assert.deepEqual(installs(lines), ["CURSORLOG_PREPARE_BUILD=no npm ci --no-audit --no-fund"], lines.join("\n"));
    assert.equal(builds(lines), 1, lines.join("\n"));
  }
});

test("make demo again with nothing changed builds nothing; a changed source, schema or lock builds once", { skip: !hasMake && "make is not installed" }, () => {
  const dir = clone();
  touch(dir, "node_modules/.cursorlog-installed", 1800);
  touch(dir, "dist/bundle/main.js", 60);
  let lines = plan(dir, "demo");
  assert.equal(builds(lines), 0, lines.join("\n"));
  assert.deepEqual(installs(lines), []);
  assert.deepEqual(lines, ["node bin/cursorlog.js text -v examples/session.ndjson", "node bin/cursorlog.js json --pretty examples/session.ndjson"]);
  for (const changed of ["src/cli/main.ts", "schemas/result.schema.json", "src/new-file.ts"]) {
    touch(dir, changed, 0);
    lines = plan(dir, "demo");
    assert.equal(builds(lines), 1, `${changed}\n${lines.join("\n")}`);
    assert.deepEqual(installs(lines), []);
    age(dir, [changed], 3600);
  }
  // New dependencies: installed (without prepare's build) and built once.
  touch(dir, "package-lock.json", 0);
  lines = plan(dir, "demo");
  assert.equal(installs(lines).length, 1, lines.join("\n"));
  assert.equal(builds(lines), 1, lines.join("\n"));
});

/** scripts/prepare.mjs in a folder with the build tools' stand-in and a "build" that leaves built.txt. */
function prepare(env: Record<string, string>): { dir: string; status: number | null; stderr: string } {
  const dir = mkdtempSync(join(root, "prepare-"));
  mkdirSync(join(dir, "scripts"));
  copyFileSync("scripts/prepare.mjs", join(dir, "scripts", "prepare.mjs"));
  touch(dir, "node_modules/typescript/bin/tsc", 0);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", version: "0.0.0", private: true, scripts: { build: 'node -e "require(\'fs\').writeFileSync(\'built.txt\', \'\')"' } }));
  const r = spawnSync(process.execPath, ["scripts/prepare.mjs"], { cwd: dir, encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env } });
  return { dir, status: r.status, stderr: r.stderr };
}

test("prepare builds on npm install / npm ci, but not under make's CURSORLOG_PREPARE_BUILD=no", () => {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.prepare, "node scripts/prepare.mjs");
  const built = prepare({ CURSORLOG_PREPARE_BUILD: "" });
  assert.equal(built.status, 0, built.stderr);
  assert.ok(existsSync(join(built.dir, "built.txt")), "npm install in a clone builds");
  const skipped = prepare({ CURSORLOG_PREPARE_BUILD: "no" });
  assert.equal(skipped.status, 0, skipped.stderr);
  assert.equal(skipped.stderr, "");
  assert.ok(!existsSync(join(skipped.dir, "built.txt")), "make's npm ci does not build");
  assert.match(readFileSync("Makefile", "utf8"), /^\tCURSORLOG_PREPARE_BUILD=no npm ci /m);
});

test("npm run build regenerates the precompiled validators first (schemas/README.md)", () => {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts["build:validators"], "node --import tsx scripts/build-validators.ts");
  assert.equal(pkg.scripts.build, "node scripts/build.mjs");
  // scripts/build.mjs: the validators first, and only if they were made, tsc and the bundles.
  const build = readFileSync("scripts/build.mjs", "utf8");
  const at = (s: string) => {
    const i = build.indexOf(s);
    assert.ok(i >= 0, `scripts/build.mjs: no ${s}`);
    return i;
  };
  const validators = at('["--import", "tsx", "scripts/build-validators.ts"]');
  const stop = at("if (validators !== 0) process.exit(validators);");
  assert.ok(validators < stop && stop < at('"typescript/bin/tsc"') && stop < at('["scripts/bundle.mjs"]'));
});
