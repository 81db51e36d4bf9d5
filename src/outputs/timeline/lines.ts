import { escapeControls } from "../../sanitize.js";
import { csvField } from "../shared/csv-field.js";
import { safeCell } from "../shared/safe-cell.js";
import { TIMELINE_COLUMNS, type TimelineCell, type TimelineColumn } from "./columns.js";
import { tsvField } from "../shared/tsv-field.js";

export type TimelineFormat = "csv" | "tsv" | "ndjson";

export interface TimelineLineOptions {
  format: TimelineFormat;
  /** The columns to write, in order (a subset of TIMELINE_COLUMNS). */
  columns: readonly TimelineColumn[];
  /** `--safe-csv`: text cells that start like a formula get a leading `'`. */
  safe: boolean;
  /**
   * stdout is a terminal: control characters and escape sequences in cells are shown escaped
   * (`\u001b`, `\n`), never written raw (a log's text could retitle the window or clear it).
   */
  escape?: boolean;
}

export interface TimelineLines {
  /** The header line (with its LF); "" for NDJSON, which has none. */
  header: string;
  /** One record, LF-terminated. `cells` is indexed like TIMELINE_COLUMNS. */
  line(cells: readonly TimelineCell[]): string;
}

/**
 * The writer of timeline records in one format. Each record is built by one pass of string
 * concatenation over the chosen columns; a text field is scanned once by a single regex test
 * (quote / escape only when needed). Numbers are ours and never need quoting.
 */
export function timelineLines(opts: TimelineLineOptions): TimelineLines {
  const index = opts.columns.map((c) => TIMELINE_COLUMNS.indexOf(c));
  const safe = opts.safe;
  const tty = opts.escape === true ? escapeControls : (s: string) => s;
  if (opts.format === "ndjson") {
    const keys = opts.columns.map((c, i) => (i === 0 ? "{" : ",") + JSON.stringify(c) + ":");
    return {
      header: "",
      line(cells) {
        let out = "";
        for (let i = 0; i < index.length; i++) {
          const v = cells[index[i]];
          out += keys[i];
          if (v === undefined || v === "") out += "null";
          else if (typeof v === "number") out += String(v);
          // JSON.stringify escapes C0 controls; on a terminal C1, DEL and bidi become \u escapes too (same value).
          else out += tty(JSON.stringify(safe ? safeCell(v) : v));
        }
        return out + "}\n";
      },
    };
  }
  const sep = opts.format === "tsv" ? "\t" : ",";
  // TSV escapes TAB, LF, CR and \ itself, then the terminal's escaping takes the rest; CSV escapes
  // for the terminal first (no newline is left to quote).
  const field = opts.format === "tsv" ? (s: string) => tty(tsvField(s)) : (s: string) => csvField(tty(s));
  return {
    header: opts.columns.join(sep) + "\n",
    line(cells) {
      let out = "";
      for (let i = 0; i < index.length; i++) {
        const v = cells[index[i]];
        if (i > 0) out += sep;
        if (v === undefined) continue;
        out += typeof v === "number" ? String(v) : field(safe ? safeCell(v) : v);
      }
      return out + "\n";
    },
  };
}
