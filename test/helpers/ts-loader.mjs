// `node --import ./test/helpers/ts-loader.mjs FILE.ts`: Node runs the repository's TypeScript, as
// `--import tsx` does, for less CPU per process (ts-hooks.mjs; scripts/run-tests.mjs uses it).
import { register } from "node:module";

// Stack traces name the TypeScript's lines (the transform carries an inline source map), as under tsx.
process.setSourceMapsEnabled(true);
register("./ts-hooks.mjs", import.meta.url);
