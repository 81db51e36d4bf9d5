// `npm run build`: the validators compiled from schemas/ (they are sources of both what follows),
// then tsc (dist/: the library, its types; the validators, JavaScript, copied beside) and the
// bundles with their code caches (dist/bundle/: what bin/cursorlog.js runs) at once: neither reads
// what the other writes, and each keeps one core busy (on the 2-core CI machine, ~35 s one after
// the other, ~22 s side by side).
//   node scripts/build.mjs
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";

const root = new URL("..", import.meta.url).pathname;
const require = createRequire(import.meta.url);

/** Runs `node ARGS` in the repository, its output passed through; resolves to its exit status. */
function node(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
    child.on("error", (e) => {
      process.stderr.write(`build: ${e.message}\n`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const validators = await node(["--import", "tsx", "scripts/build-validators.ts"]);
if (validators !== 0) process.exit(validators);
const [tsc, bundle] = await Promise.all([node([require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"]), node(["scripts/bundle.mjs"])]);
// The generated validators are JavaScript with their .d.ts (tsc emits neither): into dist/ as they are.
if (tsc === 0) {
  const from = `${root}src/validate/generated/`;
  const to = `${root}dist/validate/generated/`;
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) if (/\.(js|d\.ts)$/.test(f)) copyFileSync(from + f, to + f);
}
process.exit(tsc !== 0 ? tsc : bundle);
