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
    const json = walk(name, out);
    if (out.files.length === before && !out.problems.some((p) => p.file.startsWith(name))) {
      let message = "no *.ndjson, *.jsonl or *.log file (or .gz) in this directory";
      // *.json is often one --output-format json result, not a stream: read only when named.
      if (json > 0) message += `; its ${json} *.json file${json === 1 ? " is" : "s are"} not read from a directory: name ${json === 1 ? "it" : "them"} to read ${json === 1 ? "it" : "them"}`;
      out.problems.push({ file: name, message });
    }
  }
  return out;
}

/** Adds the logs below `dir` to `out`; returns how many `*.json` (or `.json.gz`) files it passed over. */
function walk(dir: string, out: Expanded): number {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    out.problems.push({ file: dir, message: `cannot read directory: ${(err as NodeJS.ErrnoException).code === "EACCES" ? "permission denied" : (err as Error).message}` });
    return 0;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let json = 0;
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) json += walk(path, out);
    else if ((e.isFile() || e.isSymbolicLink()) && LOG_NAME.test(e.name)) out.files.push(path);
    else if (/\.json(\.gz)?$/.test(e.name)) json++;
  }
  return json;
}
