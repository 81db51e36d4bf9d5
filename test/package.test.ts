// test-run: stress
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { tempDir } from "./helpers/temp-dir.js";

// The published tarball installs into an empty prefix and runs without the dev dependencies.
test("npm pack: the tarball installs into an empty prefix and runs (CLI and library entry)", { timeout: 180_000 }, () => {
  assert.ok(existsSync("dist/index.js"), "dist/ is missing: run `npm run build` (make test does)");
  const dir = tempDir("cursorlog-pack-");
  const quiet = { encoding: "utf8" as const, stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"] };
  const tgz = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], quiet).trim().split("\n").pop()!;
  const prefix = join(dir, "prefix");
  execFileSync("npm", ["install", "-g", "--prefix", prefix, "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(dir, tgz)], quiet);
  const bin = join(prefix, "bin", "cursorlog");
  // "man" as an array: npm links the page into the prefix's man path.
  assert.equal(readFileSync(join(prefix, "share", "man", "man1", "cursorlog.1"), "utf8"), readFileSync("man/cursorlog.1", "utf8"));
  const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
  assert.equal(execFileSync(bin, ["--version"], quiet), `${version}\n`);
  const pkgRoot = join(prefix, "lib", "node_modules", "cursorlog");
  assert.equal(execFileSync(bin, ["json", join(pkgRoot, "examples", "session.ndjson")], quiet), readFileSync("test/golden/json-2026-long.stdout", "utf8"));
  assert.ok(!existsSync(join(pkgRoot, "node_modules", "typescript")) && !existsSync(join(prefix, "lib", "node_modules", "typescript")), "dev dependencies were installed");
  assert.ok(!existsSync(join(pkgRoot, "src")) && !existsSync(join(pkgRoot, "test")), "sources and tests are not shipped");
  // The library entry, as a user's ESM project imports it.
  const script = join(dir, "use.mjs");
  writeFileSync(
    script,
    `import { ndjsonTransform, toResultJson } from ${JSON.stringify(resolve(pkgRoot, "dist", "index.js"))};\n` +
      `import { createReadStream } from "node:fs";\n` +
      `createReadStream(process.argv[2]).pipe(ndjsonTransform((r) => toResultJson({ pretty: false, allowIncomplete: false }, r))).pipe(process.stdout);\n`,
  );
  assert.equal(execFileSync("node", [script, "examples/session.ndjson"], quiet), readFileSync("test/golden/json-2026-long.stdout", "utf8"));
});

// A fresh clone has no dist/ and no dev dependencies: `npm install -g .` runs "prepare", which
// cannot build there; it must say what to do, and the bin must not die with a stack trace.
test("npm install -g . from an unbuilt clone: a clear message, not 'tsc: not found' or a stack trace", { timeout: 120_000 }, () => {
  const dir = tempDir("cursorlog-clone-");
  const clone = join(dir, "clone");
  execFileSync("bash", ["-c", `mkdir -p ${clone} && git archive HEAD | tar -x -C ${clone} && cp package.json ${clone}/ && cp bin/cursorlog.js ${clone}/bin/ && cp scripts/prepare.mjs ${clone}/scripts/`]);
  const r = spawnSync("npm", ["install", "-g", "--prefix", join(dir, "prefix"), "--no-audit", "--no-fund", "--prefer-offline", "."], { cwd: clone, encoding: "utf8" });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /cursorlog: cannot build here: the build tools \(dev dependencies\) are not installed\.\n.*Run 'npm install' in this directory first \(it installs them and builds\), then 'npm install -g \.'/);
  assert.doesNotMatch(r.stderr, /tsc: not found/);
  const bin = spawnSync("node", [join(clone, "bin", "cursorlog.js"), "--version"], { encoding: "utf8" });
  assert.equal(bin.status, 2);
  assert.equal(bin.stdout, "");
  assert.equal(bin.stderr, `cursorlog: not built: ${clone}/dist/ is missing; run 'npm install' (which builds it) or 'npm run build' in ${clone}/\n`);
});
