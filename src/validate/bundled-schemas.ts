import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENTRY_FILE, readSchemaSet, type SchemaSet } from "./schema/set.js";

export { ENTRY_FILE };

/** schemas/ at the package root (from src/validate/ and from dist/validate/ alike). */
export const BUNDLED_SCHEMA_DIR = fileURLToPath(new URL("../../schemas/", import.meta.url));

export function readBundledSchemaSet(): SchemaSet {
  return readSchemaSet(BUNDLED_SCHEMA_DIR);
}

/** The bundled schema names `cursorlog schema NAME` accepts: event types, then `defs`. */
export function bundledSchemaNames(): string[] {
  const names = readdirSync(BUNDLED_SCHEMA_DIR)
    .filter((f) => f.endsWith(".schema.json") && f !== ENTRY_FILE)
    .map((f) => f.slice(0, -".schema.json".length));
  const types = names.filter((n) => n !== "defs");
  return [...types.sort(), ...names.filter((n) => n === "defs")];
}
