import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENTRY_FILE, readSchemaSet, type SchemaSet } from "./schema/set.js";

export { ENTRY_FILE };

/** schemas/ at the package root (from src/validate/ and from dist/validate/ alike). */
export const BUNDLED_SCHEMA_DIR = fileURLToPath(new URL("../../schemas/", import.meta.url));

export function readBundledSchemaSet(): SchemaSet {
  return readSchemaSet(BUNDLED_SCHEMA_DIR);
}

/** The entry schema's name for `cursorlog schema NAME` (NAME.schema.json is its file). */
export const ENTRY_NAME = ENTRY_FILE.slice(0, -".schema.json".length);

/**
 * The bundled schema names `cursorlog schema NAME` accepts: the entry, event types, then `defs`;
 * NAME.schema.json is each one's file, so `schema NAME > DIR/NAME.schema.json` for each of them
 * makes a directory `validate --schema DIR` reads.
 */
export function bundledSchemaNames(): string[] {
  const names = readdirSync(BUNDLED_SCHEMA_DIR)
    .filter((f) => f.endsWith(".schema.json") && f !== ENTRY_FILE)
    .map((f) => f.slice(0, -".schema.json".length));
  const types = names.filter((n) => n !== "defs");
  return [ENTRY_NAME, ...types.sort(), ...names.filter((n) => n === "defs")];
}
