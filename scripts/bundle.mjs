// Bundles the command line (bin/cursorlog.js loads it) into dist/bundle/: one file for start-up
// plus chunks that each command loads when it runs, so `cursorlog json small.ndjson` reads one
// module instead of ~110 and does not parse the code of the commands it does not run.
// `npm run build` runs it after tsc; dist/index.js (the library entry) stays tsc's output.
//   node scripts/bundle.mjs
import { build } from "esbuild";
import { rmSync } from "node:fs";

const outdir = new URL("../dist/bundle/", import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  // job-worker: the entry of each --jobs worker thread (parallel.ts finds it next to itself).
  entryPoints: { main: "src/cli/main.ts", "job-worker": "src/cli/job-worker.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // commander and stream-json are CommonJS: give their require() calls one to use.
  banner: { js: 'import { createRequire as __cursorlogRequire } from "node:module"; const require = __cursorlogRequire(import.meta.url);' },
  chunkNames: "chunk-[hash]",
  legalComments: "none",
  logLevel: "warning",
});
