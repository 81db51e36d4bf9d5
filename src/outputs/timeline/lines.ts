import { escapeControls } from "../../sanitize.js";
import { csvField } from "../shared/csv-field.js";
import { safeCell } from "../shared/safe-cell.js";
import { ALL_TIMELINE_COLUMNS, type TimelineCell, type TimelineColumn } from "./columns.js";
import { tsvField } from "../shared/tsv-field.js";

export type TimelineFormat = "csv" | "tsv" | "ndjson";

export interface TimelineLineOptions {
  format: TimelineFormat;
  /** The columns to write, in order (a subset of ALL_TIMELINE_COLUMNS). */
  columns: readonly TimelineColumn[];
  /** `--safe-csv`: text cells that start like a formula get a leading `'`. */
  safe: boolean;
  /**
   * stdout is a terminal: control characters and escape sequences in cells are shown escaped
   * (`\u001b`, `\n`), never written raw (a log's text could retitle the window or clear it).
   */
  escape?: boolean;
  /**
   * CSV: line breaks inside a cell are written as they are, inside quotes (RFC 4180), so a record
   * may take several lines. By default they are written `\n` and `\r` (backslashes are left as
   * they are), so that every record is one line. TSV and NDJSON escape them always.
   */
  multiline?: boolean;
}

export interface TimelineLines {
  /** The header line (with its LF); "" for NDJSON, which has none. */
  header: string;
  /** One record, LF-terminated. `cells` is indexed like ALL_TIMELINE_COLUMNS. */
  line(cells: readonly TimelineCell[]): string;
}

/**
 * The writer of timeline records in one format. Each record is built by one pass of string
 * concatenation over the chosen columns; a text field is scanned once by a single regex test
 * (quote / escape only when needed). Numbers are ours and never need quoting.
 */
export function timelineLines(opts: TimelineLineOptions): TimelineLines {
  const index = opts.columns.map((c) => ALL_TIMELINE_COLUMNS.indexOf(c));
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
  const guard = safe ? safeCell : (s: string) => s;
  // TSV escapes TAB, LF, CR and \ itself, then the terminal's escaping takes the rest. CSV escapes
  // for the terminal before quoting; by default its line breaks are written \n and \r first of all
  // (one record per line), so that --safe-csv sees what is written: a cell that began with CR
  // begins with a backslash, no formula.
  const field =
    opts.format === "tsv"
      ? (s: string) => tty(tsvField(guard(s)))
      : opts.multiline === true
        ? (s: string) => csvField(tty(guard(s)))
        : (s: string) => csvField(tty(guard(lineBreaks(s))));
  return {
    header: opts.columns.join(sep) + "\n",
    line(cells) {
      let out = "";
      for (let i = 0; i < index.length; i++) {
        const v = cells[index[i]];
        if (i > 0) out += sep;
        if (v === undefined) continue;
        out += typeof v === "number" ? String(v) : field(v);
      }
      return out + "\n";
    },
  };
}

const LINE_BREAK = /[\r\n]/;
const LINE_BREAK_G = /[\r\n]/g;

/** CR and LF written as the two characters `\r` and `\n`, as `cursorlog text -v` shows them. */
function lineBreaks(s: string): string {
  return LINE_BREAK.test(s) ? s.replace(LINE_BREAK_G, (c) => (c === "\n" ? "\\n" : "\\r")) : s;
}
