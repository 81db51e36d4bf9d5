import type { Colors } from "picocolors/types.js";
import { escapeControls } from "../../sanitize.js";
import { csvField } from "../shared/csv-field.js";
import { tsvField } from "../shared/tsv-field.js";
import { clip, columns as displayColumns } from "../show/wrap.js";
import { formatCount, formatDuration, formatUsd } from "../stats/format.js";
import type { RunRow, RunsCell, RunsColumn } from "./columns.js";

export type RunsFormat = "table" | "tsv" | "csv" | "ndjson";

/** What a format makes of the rows: the header (with its LF, "" for none) and one line per row. */
export interface RunsWriter {
  header: string;
  line(row: RunRow): string;
}

export interface RunsWriterOptions {
  format: RunsFormat;
  columns: readonly RunsColumn[];
  /** stdout is a terminal: control characters in tsv/csv/ndjson cells shown escaped (the table escapes always). */
  escape?: boolean;
  /** The table's colours (picocolors; none: createColors(false)). */
  colors?: Colors;
  /** The table's width in terminal columns; 0: no limit. */
  width?: number;
  /**
   * The table's column widths known beforehand (--sort: the widest cell of each column, from the
   * rows held); undefined: each column's usual width, the last flexible one taking the room left.
   */
  natural?: ReadonlyMap<RunsColumn, number>;
}

export function runsWriter(opts: RunsWriterOptions): RunsWriter {
  switch (opts.format) {
    case "ndjson":
      return ndjsonWriter(opts.columns, opts.escape === true);
    case "table":
      return tableWriter(opts);
    default:
      return delimitedWriter(opts.format, opts.columns, opts.escape === true);
  }
}

function ndjsonWriter(cols: readonly RunsColumn[], escape: boolean): RunsWriter {
  const keys = cols.map((c, i) => (i === 0 ? "{" : ",") + JSON.stringify(c) + ":");
  const tty = escape ? escapeControls : (s: string) => s;
  return {
    header: "",
    line(row) {
      let out = "";
      for (let i = 0; i < cols.length; i++) {
        const v = row[cols[i]!];
        out += keys[i];
        if (v === undefined) out += "null";
        else if (typeof v === "number") out += Number.isFinite(v) ? String(v) : "null";
        // JSON.stringify escapes C0 controls; on a terminal C1, DEL and bidi become \u escapes too (same value).
        else out += tty(JSON.stringify(v));
      }
      return out + "}\n";
    },
  };
}

const LINE_BREAK = /[\r\n]/;
const LINE_BREAK_G = /[\r\n]/g;

/** CR and LF written as the two characters `\r` and `\n` (timeline's csv: one record per line). */
function lineBreaks(s: string): string {
  return LINE_BREAK.test(s) ? s.replace(LINE_BREAK_G, (c) => (c === "\n" ? "\\n" : "\\r")) : s;
}

function delimitedWriter(format: "tsv" | "csv", cols: readonly RunsColumn[], escape: boolean): RunsWriter {
  const sep = format === "tsv" ? "\t" : ",";
  const tty = escape ? escapeControls : (s: string) => s;
  const field = format === "tsv" ? (s: string) => tty(tsvField(s)) : (s: string) => csvField(tty(lineBreaks(s)));
  return {
    header: cols.join(sep) + "\n",
    line(row) {
      let out = "";
      for (let i = 0; i < cols.length; i++) {
        const v = row[cols[i]!];
        if (i > 0) out += sep;
        if (v === undefined) continue;
        out += typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : field(v);
      }
      return out + "\n";
    },
  };
}

/** The table's heading of a column (its name, shorter where the cell is not the raw value). */
const LABEL: Partial<Record<RunsColumn, string>> = {
  duration_ms: "duration",
  failed_calls: "failed",
  input_tokens: "input",
  output_tokens: "output",
  cache_read_tokens: "cache_read",
  cache_write_tokens: "cache_write",
  cost_usd: "cost",
  usage_scope: "scope",
  refused_calls: "refused",
  open_calls: "open",
  duration_source: "dur_source",
};

/** Numbers: right-aligned, never cut. */
const NUMERIC = new Set<RunsColumn>(["line", "last_line", "duration_ms", "calls", "failed_calls", "refused_calls", "open_calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_usd"]);

/**
 * The usual width of each column in a table (without --sort the widths are fixed before the first
 * row). Flexible columns (FLEX) are cut with … to fit the terminal, down to their least width.
 */
const USUAL: Record<RunsColumn, number> = {
  file: 28,
  line: 5,
  agent: 6,
  session_id: 36,
  model: 16,
  started_at: 16,
  outcome: 8,
  duration_ms: 9,
  duration_source: 10,
  calls: 5,
  failed_calls: 6,
  input_tokens: 8,
  output_tokens: 8,
  cache_read_tokens: 10,
  cache_write_tokens: 11,
  usage_scope: 6,
  cost_usd: 8,
  message: 40,
  last_line: 9,
  ended_at: 16,
  refused_calls: 7,
  open_calls: 5,
  prompt: 40,
};

const MESSAGE_ROOM = 24;

/**
 * Columns cut to fit, in the order they give up room, each down to the width given: the message
 * first gives up what it has beyond MESSAGE_ROOM, then the file down to its least, then the message
 * down to its least.
 */
const FLEX: ReadonlyArray<[RunsColumn, number]> = [
  ["prompt", 12],
  ["session_id", 8],
  ["model", 8],
  ["message", 24],
  ["file", 16],
  ["message", 12],
];

/**
 * The table's default columns that give way on a narrow terminal, first to last, until the others
 * fit at their least widths (--columns keeps every column named; --width 0 or a wider terminal shows them).
 */
const DROPPABLE: readonly RunsColumn[] = ["input_tokens", "output_tokens", "model", "cost_usd", "started_at", "line", "failed_calls", "calls", "duration_ms", "agent"];

/** The least width of a table of these columns: flexible ones at their least. */
function leastWidth(cols: readonly RunsColumn[]): number {
  let n = 2 * (cols.length - 1);
  for (const c of cols) {
    const flex = [...FLEX].reverse().find(([f]) => f === c);
    // The message is what tells a failed run: other columns give way before it is under MESSAGE_ROOM.
    n += Math.max(displayColumns(LABEL[c] ?? c), c === "message" ? MESSAGE_ROOM : flex !== undefined ? flex[1] : USUAL[c]);
  }
  return n;
}

/** The default table columns that fit `width` (0: all), those in DROPPABLE left out in its order. */
export function fitTableColumns(cols: readonly RunsColumn[], width: number): RunsColumn[] {
  let out = [...cols];
  if (width <= 0) return out;
  for (const d of DROPPABLE) {
    if (leastWidth(out) <= width) break;
    out = out.filter((c) => c !== d);
  }
  return out;
}

/** A table cell as shown: readable numbers, a time to the minute (UTC), `cut off`, log text escaped (one line). */
export function tableCell(col: RunsColumn, row: RunRow): string {
  const v: RunsCell = row[col];
  if (v === undefined) return "";
  switch (col) {
    case "duration_ms":
      return typeof v === "number" && Number.isFinite(v) ? (row.duration_source === "timestamps" ? "~" : "") + formatDuration(v) : "";
    case "cost_usd":
      return typeof v === "number" && Number.isFinite(v) ? formatUsd(v) : "";
    case "started_at":
    case "ended_at":
      // To the minute, UTC (the whole time in tsv, csv and ndjson).
      return typeof v === "string" ? v.replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d):.*$/, "$1 $2") : "";
    case "outcome":
      return v === "cut_off" ? "cut off" : String(v);
    case "line":
    case "last_line":
      return String(v);
    default:
      if (typeof v === "number") return formatCount(v);
      return escapeControls(v);
  }
}

/** The widths of a table's columns, fitting `width` (0: no limit): flexible ones cut first, down to their least. */
export function tableWidths(cols: readonly RunsColumn[], width: number, natural?: ReadonlyMap<RunsColumn, number>): number[] {
  const widths = cols.map((c) => Math.max(displayColumns(LABEL[c] ?? c), natural?.get(c) ?? USUAL[c]));
  // Without the rows, the last flexible column takes the room left (its cells are cut to it).
  if (natural === undefined && width > 0) {
    const last = [...cols].reverse().find((c) => FLEX.some(([f]) => f === c));
    if (last !== undefined && last === cols[cols.length - 1]) {
      const i = cols.length - 1;
      const others = widths.slice(0, i).reduce((a, b) => a + b, 0) + 2 * i;
      widths[i] = Math.max(widths[i]!, width - others);
    }
  }
  if (width <= 0) return widths;
  let over = widths.reduce((a, b) => a + b, 0) + 2 * (cols.length - 1) - width;
  for (const [flex, least] of FLEX) {
    if (over <= 0) break;
    const i = cols.indexOf(flex);
    if (i < 0) continue;
    const floor = Math.max(least, displayColumns(LABEL[flex] ?? flex));
    const give = Math.min(over, Math.max(0, widths[i]! - floor));
    widths[i]! -= give;
    over -= give;
  }
  return widths;
}

function tableWriter(opts: RunsWriterOptions): RunsWriter {
  const cols = opts.columns;
  const width = opts.width ?? 0;
  const c = opts.colors;
  const widths = tableWidths(cols, width, opts.natural);
  // No limit (--width 0): no cell is cut; without --sort a cell wider than its column's usual width pushes the rest of its line.
  const unlimited = width <= 0;
  const pad = (text: string, i: number, last: boolean): string => {
    const col = cols[i]!;
    const w = widths[i]!;
    let s = text;
    if (!NUMERIC.has(col) && !unlimited) s = col === "file" ? clipFile(s, w) : clip(s, w);
    const room = Math.max(0, w - displayColumns(s));
    if (NUMERIC.has(col)) return " ".repeat(room) + s;
    return last ? s : s + " ".repeat(room);
  };
  const paint = (col: RunsColumn, text: string, row: RunRow): string => {
    if (c === undefined || text.trim() === "") return text;
    if (col === "outcome") return row.outcome === "finished" ? c.green(text) : row.outcome === "cut_off" ? c.yellow(text) : c.red(text);
    if (col === "failed_calls" && typeof row.failed_calls === "number" && row.failed_calls > 0) return c.red(text);
    if (col === "message" && row.outcome !== "finished") return c.red(text);
    if (col === "line" || col === "last_line") return c.dim(text);
    return text;
  };
  const header = cols.map((col, i) => pad(LABEL[col] ?? col, i, i === cols.length - 1)).join("  ");
  return {
    header: (c === undefined ? header.trimEnd() : c.bold(header.trimEnd())) + "\n",
    line(row) {
      let out = "";
      for (let i = 0; i < cols.length; i++) {
        const col = cols[i]!;
        const last = i === cols.length - 1;
        if (i > 0) out += "  ";
        out += paint(col, pad(tableCell(col, row), i, last), row);
      }
      return out.trimEnd() + "\n";
    },
  };
}

/** The widest cell of each column over the rows held (--sort), for a table sized to them. */
export function naturalWidths(cols: readonly RunsColumn[], rows: Iterable<RunRow>): Map<RunsColumn, number> {
  const m = new Map<RunsColumn, number>(cols.map((c) => [c, 0]));
  for (const row of rows) for (const c of cols) m.set(c, Math.max(m.get(c)!, displayColumns(tableCell(c, row))));
  return m;
}

/**
 * A file name cut to `width` columns so that its end stays (the log's own name tells runs apart,
 * its folders seldom do): `…/run-12.ndjson`, else `…n-12.ndjson`.
 */
export function clipFile(s: string, width: number): string {
  if (width <= 0 || displayColumns(s) <= width) return s;
  const base = s.slice(Math.max(s.lastIndexOf("/"), s.lastIndexOf("\\")) + 1);
  if (base !== s && displayColumns(base) + 2 <= width) return "…/" + base;
  // The last characters that fit after the …, whole code points.
  const chars = [...s];
  let tail = "";
  for (let i = chars.length - 1; i >= 0; i--) {
    if (displayColumns(chars[i]! + tail) > width - 1) break;
    tail = chars[i]! + tail;
  }
  return "…" + tail;
}
