// Regenerates src/validate/generated/bundled-validators.ts from schemas/*.schema.json: ajv's
// standalone code, so `cursorlog validate` starts without compiling schemas (`npm run build` runs
// it first, as `npm run build:validators`; it writes only when the schemas changed).
//   node --import tsx scripts/build-validators.ts           write the file when it changed
//   node --import tsx scripts/build-validators.ts --check   exit 1 when it is stale
import { readFileSync, writeFileSync } from "node:fs";
import { readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { standaloneSource } from "../src/validate/standalone-source.js";

const OUT = new URL("../src/validate/generated/bundled-validators.ts", import.meta.url);
const source = standaloneSource(readBundledSchemaSet());
let current = "";
try {
  current = readFileSync(OUT, "utf8");
} catch {
  // first run
}
if (current === source) {
  console.error("bundled-validators.ts is up to date");
} else if (process.argv.includes("--check")) {
  console.error("src/validate/generated/bundled-validators.ts is stale: run `npm run build:validators`");
  process.exitCode = 1;
} else {
  writeFileSync(OUT, source);
  console.error(`wrote src/validate/generated/bundled-validators.ts (${source.length} bytes)`);
}
