// Bundles the command line (bin/cursorlog.js loads it) into dist/bundle/, for start-up time:
// `cursorlog json small.ndjson` used to resolve, read and link ~110 ES modules.
//
// - main.js: commander, every command's definition, the input layer and the stages of the
//   commands that read logs, in one file (code behind a dynamic import is evaluated only when
//   it runs).
// - Bundles of their own, loaded by main.js when a run needs them: the parts that are big and
//   seldom run (validate with its compiled schemas and ajv, the Claude Code schemas' compiled
//   validators, re2js for --schema's patterns, the HTML timeline, the trace exports).
// - worker.js: the entry of each --jobs worker thread (src/jobs/pool.ts finds it next to itself;
//   bin/cursorlog.js runs worker.script.js, below, in the workers it starts).
//
// `npm run build` (scripts/build.mjs) runs it beside tsc; dist/index.js (the library entry) stays tsc's output.
//   node scripts/bundle.mjs
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const outdir = resolve(root, "dist/bundle");
/**
 * Modules bundled apart: a dynamic import of one from any bundle loads ./<name>.js at run time.
 * Each bundle has its own copy of the modules it shares with another, so an error class thrown in
 * one bundle and tested with instanceof in another would not match: a module goes apart only with
 * everything that throws what it catches (run-validate keeps schema compilation with it).
 */
const APART = {
  "run-validate": "src/cli/run-validate.ts",
  "timeline-html": "src/outputs/timeline-html/index.ts",
  // `export`: the OpenTelemetry packages (and their exporters, loaded by it only when sending).
  otlp: "src/outputs/otlp/index.ts",
  "chrome-trace": "src/outputs/chrome-trace/index.ts",
  // show --format html: markdown-it (and its entities, linkify-it, mdurl, punycode) only when a page is written.
  "show-html": "src/outputs/show/html/index.ts",
  // re2js, for the patterns of a `validate --schema` only (300 KB every validate run would parse).
  "schema-patterns": "src/validate/schema/patterns.ts",
  // The Claude Code schemas' precompiled validators (350 KB a cursor-agent validate would parse).
  "claude-code-validators": "src/validate/generated/claude-code-validators.js",
  // The Gemini CLI schemas' precompiled validators.
  "gemini-validators": "src/validate/generated/gemini-validators.js",
  // The Codex schemas' precompiled validators, likewise.
  "codex-validators": "src/validate/generated/codex-validators.js",
};
const apart = new Map(Object.entries(APART).map(([name, p]) => [resolve(root, p), name]));

/** An import of a module bundled apart becomes an external import of its bundle, next to this one. */
const loadApart = {
  name: "load-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const name = apart.get(resolve(args.resolveDir, args.path).replace(/\.js$/, ".ts"));
      if (name === undefined || args.kind === "entry-point") return undefined;
      return { path: `./${name}.js`, external: true };
    });
  },
};

/**
 * commander requires node:child_process at load time, for executable subcommands, which cursorlog
 * does not have; loading it (and net, dgram, … behind it) took ~4 ms of every start. In the bundle
 * it is required the first time commander uses it, which is never.
 */
const childProcessOnUse = {
  name: "child-process-on-use",
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes("/node_modules/commander/") ? { path: "child-process-on-use", namespace: "on-use" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "on-use" }, () => ({
      contents: 'module.exports = new Proxy({}, { get: (_t, key) => require("node:child_process")[key] });',
      loader: "js",
    }));
  },
};

const common = {
  outdir,
  bundle: true,
  splitting: false,
  format: "esm",
  platform: "node",
  target: "node20",
  // commander and stream-json are CommonJS: give their require() calls one to use.
  banner: { js: 'import { createRequire as __cursorlogRequire } from "node:module"; const require = __cursorlogRequire(import.meta.url);' },
  plugins: [loadApart, childProcessOnUse],
  legalComments: "none",
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
const entries = { main: "src/cli/main.ts", worker: "src/jobs/worker.ts" };
for (const [path, name] of apart) entries[name] = path;
// One build per entry: without code splitting, each is a single file.
await Promise.all(Object.entries(entries).map(([name, path]) => build({ ...common, entryPoints: { [name]: path } })));

/**
 * early.cjs: src/jobs/early.ts alone, as CommonJS, which bin/cursorlog.js requires when the command
 * line asks for `--jobs` (a look at argv, before the main bundle loads): the workers then start
 * on other cores while this thread loads and compiles main, and the pool takes them (through a
 * global, as early.cjs and main each have their own copy of the module). bin gives it the worker's
 * URL, so the default (import.meta.url) is not used there.
 */
await build({
  ...common,
  entryPoints: { early: "src/jobs/early.ts" },
  format: "cjs",
  outExtension: { ".js": ".cjs" },
  banner: { js: 'const __cursorlogEarlyUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { "import.meta.url": "__cursorlogEarlyUrl" },
});

/**
 * main.script.js and worker.script.js: main.js and worker.js again, each as one function expression
 * that bin/cursorlog.js compiles with vm.Script and a V8 code cache (<name>-v8-<version>.cache,
 * made next by scripts/code-cache.mjs). Node 20 has no code cache for ES modules: compiling
 * main.js took ~6 ms of every start; a --jobs worker, which also compiles every function its first
 * file needs, was ~50 ms behind this thread on a 256 MiB log (issue 13). The function takes what a
 * CommonJS module gets, plus import.meta.url and an import() (a vm script has no import() of its
 * own without an experimental flag): each dynamic import the build leaves (the bundles apart, a
 * builtin) calls the one given. main.js and worker.js stay the fallback when these cannot be used.
 */
const SCRIPT_PARAMS = ["exports", "require", "module", "__filename", "__dirname", "__cursorlogImportMetaUrl", "__cursorlogImport"];
async function writeScript(name, entry) {
  const script = await build({
    ...common,
    entryPoints: { [name]: entry },
    format: "cjs",
    banner: undefined,
    define: { "import.meta.url": "__cursorlogImportMetaUrl" },
    write: false,
    metafile: true,
  });
  let code = script.outputFiles[0].text;
  const dynamic = new Set(Object.values(script.metafile.outputs)[0].imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path));
  for (const path of dynamic) {
    const call = `import(${JSON.stringify(path)})`;
    if (!code.includes(call)) throw new Error(`bundle.mjs: the dynamic import of ${path} is not written as ${call} in ${name}.script.js`);
    code = code.replaceAll(call, `__cursorlogImport(${JSON.stringify(path)})`);
  }
  // A real dynamic import esbuild keeps is in the metafile (it bundles the others), so none is left
  // that the callback does not serve; `import(` may still appear in the text of a string.
  writeFileSync(resolve(outdir, `${name}.script.js`), `(function (${SCRIPT_PARAMS.join(", ")}) {${code}\n})`);
}
await writeScript("main", entries.main);
await writeScript("worker", entries.worker);
execFileSync(process.execPath, [resolve(root, "scripts/code-cache.mjs")], { stdio: "inherit" });
