import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";

// The published tarball installs into an empty prefix and runs without the dev dependencies.
test("npm pack: the tarball installs into an empty prefix and runs (CLI and library entry)", { timeout: 180_000 }, () => {
  assert.ok(existsSync("dist/index.js"), "dist/ is missing: run `npm run build` (make test does)");
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-pack-"));
  const quiet = { encoding: "utf8" as const, stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"] };
  const tgz = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], quiet).trim().split("\n").pop()!;
  const prefix = join(dir, "prefix");
  execFileSync("npm", ["install", "-g", "--prefix", prefix, "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(dir, tgz)], quiet);
  const bin = join(prefix, "bin", "cursorlog");
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
