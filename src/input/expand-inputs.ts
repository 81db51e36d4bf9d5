import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What a directory given as input contributes: these names, plain or gzip-compressed. */
const LOG_NAME = /\.(ndjson|jsonl|log)(\.gz)?$/;

export interface Expanded {
  files: string[];
  /** Directories that could not be listed, or held no log file: one message each. */
  problems: Array<{ file: string; message: string }>;
}

/**
 * Inputs as named, with each directory replaced by every `*.ndjson`, `*.jsonl`, `*.log` (and
 * `.gz` form) below it, in a stable order (sorted by name, code unit order, depth first). Other
 * names pass through untouched; reading them reports their own errors.
 */
export function expandInputs(names: readonly string[]): Expanded {
  const out: Expanded = { files: [], problems: [] };
  for (const name of names) {
    if (name === "-") {
      out.files.push(name);
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(name).isDirectory();
    } catch {
      // missing or unreadable: left for the reader to report in order
    }
    if (!isDir) {
      out.files.push(name);
      continue;
    }
    const before = out.files.length;
    walk(name, out);
    if (out.files.length === before && !out.problems.some((p) => p.file.startsWith(name))) {
      out.problems.push({ file: name, message: "no *.ndjson, *.jsonl or *.log file (or .gz) in this directory" });
    }
  }
  return out;
}

function walk(dir: string, out: Expanded): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    out.problems.push({ file: dir, message: `cannot read directory: ${(err as NodeJS.ErrnoException).code === "EACCES" ? "permission denied" : (err as Error).message}` });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) walk(path, out);
    else if ((e.isFile() || e.isSymbolicLink()) && LOG_NAME.test(e.name)) out.files.push(path);
  }
}
