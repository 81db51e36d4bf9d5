import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { ExitCode } from "../../exit-codes.js";
import { describeIoError } from "../../input/byte-source.js";

/** One JSON Schema file of a set. */
export interface SchemaFile {
  /** The path it was read from, for messages. */
  path: string;
  /** File name: the key ajv knows it by when it has no `$id` (so `"$ref": "defs.json"` finds it). */
  name: string;
  /** The URI its relative `$ref`s resolve against: its `$id`, else `file:///<name>`. */
  base: string;
  schema: object | boolean;
}

/** The files of a schema set and which of them every event is checked against. */
export interface SchemaSet {
  files: SchemaFile[];
  entry: SchemaFile;
}

/** A schema set that cannot be used; `code` is 2 (unreadable, no entry) or 3 (does not compile). */
export class SchemaSetError extends Error {
  constructor(
    message: string,
    readonly code: ExitCode,
    readonly file?: string,
  ) {
    super(message);
  }
}

/** The entry schema's file name, in the bundled set and in a user's directory. */
export const ENTRY_FILE = "cursor-agent-event.schema.json";

/**
 * Reads `--schema PATH`. A file is used alone (its `$ref`s must stay inside it). A directory gives
 * every `*.json` file in it (not recursive), so files can `$ref` each other by `$id` or by file
 * name; the entry is `entryFile` (`cursor-agent-event.schema.json` unless a bundled set names
 * another, as the Claude Code one does), else the file whose `$id` ends in that name (a copy of the
 * bundled entry under another name, e.g. `cursor-agent-event.json`), else the only file. Several
 * names (each bundled set's entry: validate --schema reads a copy of either set) are tried in
 * order, each by its file name and then by its `$id`.
 */
export function readSchemaSet(path: string, entryFile: string | readonly string[] = ENTRY_FILE): SchemaSet {
  const entryFiles = typeof entryFile === "string" ? [entryFile] : entryFile;
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new SchemaSetError(`cannot read schema ${path}: ${describeIoError(err)}`, ExitCode.USAGE_OR_IO);
  }
  if (!isDir) {
    const file = readSchemaFile(path);
    return { files: [file], entry: file };
  }
  let names: string[];
  try {
    names = readdirSync(path).filter((n) => n.endsWith(".json")).sort();
  } catch (err) {
    throw new SchemaSetError(`cannot read schema directory ${path}: ${describeIoError(err)}`, ExitCode.USAGE_OR_IO);
  }
  if (names.length === 0) throw new SchemaSetError(`no *.json schema files in ${path}`, ExitCode.USAGE_OR_IO);
  const files = names.map((n) => readSchemaFile(join(path, n)));
  let entry = files.length === 1 ? files[0] : undefined;
  for (const name of entryFiles) entry ??= files.find((f) => f.name === name) ?? onlyOne(files.filter((f) => f.base.endsWith(`/${name}`)));
  if (entry === undefined) {
    throw new SchemaSetError(
      `${path} holds ${files.length} schema files and no ${entryFiles.join(" or ")}: name the entry schema that way, or pass its file`,
      ExitCode.USAGE_OR_IO,
    );
  }
  return { files, entry };
}

function onlyOne<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

function readSchemaFile(path: string): SchemaFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new SchemaSetError(`cannot read schema: ${describeIoError(err)}`, ExitCode.USAGE_OR_IO, path);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new SchemaSetError(`schema is not JSON: ${err instanceof Error ? err.message : String(err)}`, ExitCode.SCHEMA, path);
  }
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
    throw new SchemaSetError("a schema must be a JSON object or a boolean", ExitCode.SCHEMA, path);
  }
  const name = basename(path);
  return { path, name, base: baseOf(schema, name), schema };
}

/** `$id` resolved against the file's own name; no fragment. */
export function baseOf(schema: object | boolean, name: string): string {
  const fallback = new URL(encodeURIComponent(name), "file:///").href;
  const id = typeof schema === "object" ? (schema as { $id?: unknown }).$id : undefined;
  if (typeof id !== "string") return fallback;
  try {
    const url = new URL(id, fallback);
    url.hash = "";
    return url.href;
  } catch {
    return fallback;
  }
}
