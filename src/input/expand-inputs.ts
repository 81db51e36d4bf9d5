import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What a directory given as input contributes: these names, plain or gzip-compressed. */
const LOG_NAME = /\.(ndjson|jsonl|log)(\.gz)?$/;

export interface Expanded {
  files: string[];
  /** Directories that could not be listed, or held no log file: one message each. */
  problems: Array<{ file: string; message: string }>;
}

/** A file left out of what a directory stands for (the `-o` file): its name, device and inode. */
export interface LeftOut {
  name: string;
  dev: number;
  ino: number;
}

/**
 * Inputs as named, with each directory replaced by every `*.ndjson`, `*.jsonl`, `*.log` (and
 * `.gz` form) below it, in a stable order (sorted by name, code unit order, depth first): regular
 * files, and symbolic links to regular files (a link to a device, a FIFO, a directory or nothing
 * is passed over, as a FIFO or a device in the directory is: `/dev/zero` or a FIFO with no writer
 * would never end), but `leftOut` (the `-o` file, found by its device and inode: a rerun does not
 * read its own last output). Other names pass through untouched, `leftOut` too; reading them
 * reports their own errors.
 */
export function expandInputs(names: readonly string[], leftOut?: LeftOut): Expanded {
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
    const json = walk(name, out, leftOut);
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
function walk(dir: string, out: Expanded, leftOut: LeftOut | undefined): number {
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
    if (e.isDirectory()) json += walk(path, out, leftOut);
    else if ((e.isFile() || e.isSymbolicLink()) && LOG_NAME.test(e.name)) {
      // Only a link, or a file named as the -o file, costs a stat: a folder of 100,000 logs is listed, not stat'ed.
      if ((e.isSymbolicLink() || e.name === leftOut?.name) && !wanted(path, leftOut)) continue;
      out.files.push(path);
    } else if (/\.json(\.gz)?$/.test(e.name)) json++;
  }
  return json;
}

/** Whether `path` (a link, or a file named as the -o file) is a regular file, and not `leftOut`. */
function wanted(path: string, leftOut: LeftOut | undefined): boolean {
  let st;
  try {
    st = statSync(path);
  } catch {
    return false; // a link to nothing
  }
  return st.isFile() && !(leftOut !== undefined && st.dev === leftOut.dev && st.ino === leftOut.ino);
}
