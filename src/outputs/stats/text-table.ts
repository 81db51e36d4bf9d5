/**
 * Rows of cells as aligned text lines: each column as wide as its widest cell, numbers (right)
 * aligned right, two spaces between columns, no trailing spaces. `paint` colours a padded cell
 * (so escape codes never upset the widths). Cells must already be escaped.
 */
export function textTable(
  rows: string[][],
  right: readonly boolean[],
  indent: string,
  paint: (row: number, col: number, padded: string) => string = (_r, _c, s) => s,
): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  let out = "";
  rows.forEach((row, r) => {
    const last = row.length - 1;
    const cells = row.map((cell, i) => {
      const gap = " ".repeat(widths[i]! - [...cell].length);
      const padded = right[i] ? gap + cell : i === last ? cell : cell + gap;
      return paint(r, i, padded);
    });
    out += indent + cells.join("  ") + "\n";
  });
  return out;
}
