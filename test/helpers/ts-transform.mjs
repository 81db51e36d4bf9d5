// The transform test/helpers/ts-hooks.mjs gives Node for each TypeScript module, and its cache on
// disk: tsx's (esbuild, with tsx's options: this Node as the target, names kept, tsconfig.json,
// an inline source map), kept under a hash of the options, the file's path and its text.
// scripts/run-tests.mjs fills the cache for every file of src/ and test/ before the tests start
// (warm, a second or so), so that no test process starts esbuild of its own.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url);
const ESBUILD_VERSION = JSON.parse(readFileSync(new URL("node_modules/esbuild/package.json", ROOT), "utf8")).version;
const OPTIONS = {
  loader: "ts",
  format: "esm",
  target: `node${process.versions.node}`,
  sourcemap: "inline",
  sourcesContent: false,
  minifyWhitespace: true,
  keepNames: true,
  // As written (esbuild reads its comments, if any).
  tsconfigRaw: readFileSync(new URL("tsconfig.json", ROOT), "utf8"),
};
const SALT = `cursorlog-test-ts 1\0${ESBUILD_VERSION}\0${JSON.stringify(OPTIONS)}\0`;
const CACHE = join(tmpdir(), `cursorlog-test-ts-${process.getuid?.() ?? "user"}`);

/** Where the transform of `source`, the text of the file at `path`, is kept. */
export function cachePath(path, source) {
  return join(CACHE, createHash("sha256").update(SALT).update(path).update("\0").update(source).digest("hex") + ".mjs");
}

/** Keeps `code` at `file`: written whole, then renamed (another process sees all of it or nothing); no cache if it cannot be written. */
export function store(file, code) {
  try {
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  } catch {
    // A read-only temporary folder: the transform is made again next time.
  }
}

let esbuild;

/** The transform of the file at `path` (its text `source`), from the cache or made and kept. */
export async function transform(path, source) {
  const file = cachePath(path, source);
  try {
    return readFileSync(file, "utf8");
  } catch {
    esbuild ??= await import("esbuild");
    const code = esbuild.transformSync(source, { ...OPTIONS, sourcefile: path }).code;
    store(file, code);
    return code;
  }
}

/** Fills the cache for these files (absolute paths), those already in it passed over. */
export async function warm(paths) {
  const missing = [];
  for (const path of paths) {
    const source = readFileSync(path, "utf8");
    const file = cachePath(path, source);
    if (!existsSync(file)) missing.push([path, source, file]);
  }
  if (missing.length === 0) return 0;
  esbuild ??= await import("esbuild");
  // A file that does not transform (src/input/scan/assembly: AssemblyScript) is left to the test
  // that would load it, to fail there with esbuild's message.
  const made = await Promise.all(
    missing.map(([path, source, file]) =>
      esbuild.transform(source, { ...OPTIONS, sourcefile: path }).then(
        (r) => (store(file, r.code), 1),
        () => 0,
      ),
    ),
  );
  return made.reduce((a, b) => a + b, 0);
}
