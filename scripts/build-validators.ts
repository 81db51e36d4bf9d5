// Regenerates the precompiled validators of each bundled schema set (src/validate/bundled-schemas.ts
// BUNDLED_SETS): src/validate/generated/bundled-validators.ts from schemas/*.schema.json and
// src/validate/generated/claude-code-validators.ts from schemas/claude-code/*.schema.json (and
// codex-validators.ts from schemas/codex/*.schema.json). ajv's
// standalone code, so `cursorlog validate` starts without compiling schemas (`npm run build` runs
// it first, as `npm run build:validators`; it writes only the files whose schemas changed).
//   node --import tsx scripts/build-validators.ts           write the files that changed
//   node --import tsx scripts/build-validators.ts --check   exit 1 when one is stale
import { readFileSync, writeFileSync } from "node:fs";
import { BUNDLED_SETS, readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { standaloneSource } from "../src/validate/standalone-source.js";

for (const info of BUNDLED_SETS) {
  const out = new URL(`../src/validate/${info.generated}`, import.meta.url);
  const name = `src/validate/${info.generated}`;
  const source = standaloneSource(readBundledSchemaSet(info.entryId), info.sources);
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
    writeFileSync(out, source);
    console.error(`wrote ${name} (${source.length} bytes)`);
  }
}
