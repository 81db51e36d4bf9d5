// Module hooks that let Node run this repository's TypeScript (src/, test/) in the test runner's
// processes (scripts/run-tests.mjs), in place of tsx's: the same transform (ts-transform.mjs),
// cached on disk, with less done per module imported (tsx's loader costs ~0.5 s more CPU in each
// test file's process). `./x.js` names ./x.ts when there is no ./x.js (TypeScript's NodeNext
// spelling); everything else resolves as Node does. TEST_LOADER=tsx runs the tests under tsx
// instead. The children that tests start with `--import tsx`, and --jobs workers run from the
// sources (src/jobs/early.ts), still use tsx.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { transform } from "./ts-transform.mjs";

const local = (s) => s.startsWith("./") || s.startsWith("../") || s.startsWith("/") || s.startsWith("file:");

export async function resolve(specifier, context, next) {
  if (local(specifier) && context.parentURL !== undefined && !context.parentURL.includes("/node_modules/")) {
    const url = new URL(specifier, context.parentURL);
    if (url.protocol === "file:" && url.search === "" && url.hash === "") {
      if (url.pathname.endsWith(".js") && !existsSync(url)) {
        const ts = new URL(url.href.slice(0, -3) + ".ts");
        if (existsSync(ts)) return { url: ts.href, format: "module", shortCircuit: true };
      }
      if (url.pathname.endsWith(".ts") && existsSync(url)) return { url: url.href, format: "module", shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const path = fileURLToPath(url);
  return { format: "module", source: await transform(path, readFileSync(path, "utf8")), shortCircuit: true };
}
