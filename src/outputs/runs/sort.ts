import type { RunRow, RunsCell, RunsColumn } from "./columns.js";

/** One --sort key: a column, descending when written `-COLUMN` (Miller's `sort -nr`, xsv's `--reverse`). */
export interface SortKey {
  column: RunsColumn;
  descending: boolean;
}

/**
 * The order of rows for --sort: by each key in turn; numbers by value, text by code units
 * (the same in every locale), a number before text; an empty cell last whichever the direction
 * (Miller's rule); rows equal on every key keep their input order (a stable sort). `reverse`
 * (--reverse) turns every key around.
 */
export function rowOrder(keys: readonly SortKey[], reverse: boolean): (a: RunRow, b: RunRow) => number {
  return (a, b) => {
    for (const k of keys) {
      const x = a[k.column];
      const y = b[k.column];
      if (x === undefined || y === undefined) {
        if (x === y) continue;
        return x === undefined ? 1 : -1;
      }
      const d = compareCells(x, y);
      if (d !== 0) return k.descending !== reverse ? -d : d;
    }
    return 0;
  };
}

function compareCells(x: Exclude<RunsCell, undefined>, y: Exclude<RunsCell, undefined>): number {
  if (typeof x === "number" && typeof y === "number") return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === "number") return -1;
  if (typeof y === "number") return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}
