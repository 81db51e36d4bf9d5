// Builds dist/bundle-re2js/main.js (run by ./cursorlog-re2js.js): the CLI bundle with src/regex/index.ts replaced by scratch/re2js-adapter.ts (measurement only).
import { build } from "esbuild";
import { resolve } from "node:path";
const root = resolve(new URL("../..", import.meta.url).pathname);
const swap = { name: "swap", setup(b) {
  b.onResolve({ filter: /regex\/index\.js$/ }, (args) => ({ path: resolve(root, "bench/regex-engines/re2js-adapter.ts") }));
} };
await build({ absWorkingDir: root, entryPoints: { main: "src/cli/main.ts" }, outdir: resolve(root, "dist/bundle-re2js"), bundle: true, format: "esm", platform: "node", target: "node20",
  banner: { js: 'import { createRequire as __cursorlogRequire } from "node:module"; const require = __cursorlogRequire(import.meta.url);' },
  plugins: [swap], logLevel: "warning" });
