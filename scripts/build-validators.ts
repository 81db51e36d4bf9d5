// Regenerates the precompiled validators of each bundled schema set (src/validate/bundled-schemas.ts
// BUNDLED_SETS): src/validate/generated/bundled-validators.js from schemas/*.schema.json,
// claude-code-validators.js from schemas/claude-code/*.schema.json, gemini-validators.js and
// codex-validators.js likewise, each with its .d.ts. ajv's standalone code, so `cursorlog
// validate` starts without compiling schemas (`npm run build` runs it first, as `npm run
// build:validators`; it writes only the files whose schemas changed). JavaScript, not TypeScript:
// tsc neither checks nor emits them (scripts/build.mjs copies them to dist/).
//   node --import tsx scripts/build-validators.ts           write the files that changed
//   node --import tsx scripts/build-validators.ts --check   exit 1 when one is stale
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { BUNDLED_SETS, readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { standaloneSource, standaloneTypes } from "../src/validate/standalone-source.js";

for (const info of BUNDLED_SETS) {
  const js = `src/validate/${info.generated}`;
  const set = readBundledSchemaSet(info.entryId);
  for (const [name, source] of [
    [js, standaloneSource(set, info.sources)],
    [js.replace(/\.js$/, ".d.ts"), standaloneTypes(info.sources)],
  ] as const) {
    const out = new URL(`../${name}`, import.meta.url);
    let current = "";
    try {
      current = readFileSync(out, "utf8");
    } catch {
      // first run
    }
    if (current === source) {
      console.error(`${name} is up to date`);
    } else if (process.argv.includes("--check")) {
      console.error(`${name} is stale: run \`npm run build:validators\``);
      process.exitCode = 1;
    } else {
      mkdirSync(new URL(".", out), { recursive: true });
      writeFileSync(out, source);
      console.error(`wrote ${name} (${source.length} bytes)`);
    }
  }
}
