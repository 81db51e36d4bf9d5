/** One file's line of `--stat`. */
export interface StatRow {
  /** The path as shown (git-quoted when it needs it). */
  name: string;
  added: number;
  removed: number;
  /** Some of its changes have no line counts in the log: its count is shown as `?` (with what is known added to it). */
  uncounted?: boolean;
  /** A file whose counts are not in the log, created or deleted by every change of it: said after its `?` (the log names it so). */
  kind?: "created" | "deleted";
}

/**
 * `git diff --stat`: ` path | 5 ++---` per file, the bars scaled to fit `width` columns, then
 * ` 2 files changed, 3 insertions(+), 2 deletions(-)`. `plus`/`minus` colour the bars. A file
 * whose line counts the log does not hold (StatRow.uncounted) reads ` path | ?`, with bars for
 * what is known (and `(created)` or `(deleted)` when that is all the log says of it: Codex's), and
 * the summary says how many such files it does not count.
 */
export function formatStat(rows: StatRow[], width: number, plus: (s: string) => string, minus: (s: string) => string): string {
  if (rows.length === 0) return "";
  const countOf = (r: StatRow): string => (r.uncounted === true ? (r.added + r.removed > 0 ? `${r.added + r.removed}+?` : "?") : String(r.added + r.removed));
  const kindOf = (r: StatRow): string => (r.uncounted === true && r.kind !== undefined ? ` (${r.kind})` : "");
  const nameWidth = Math.max(...rows.map((r) => [...r.name].length));
  const countWidth = Math.max(...rows.map((r) => countOf(r).length));
  const most = Math.max(...rows.map((r) => r.added + r.removed));
  // " name | count bars": what is left for the bars, at least 10 columns.
  const room = Math.max(10, width - nameWidth - countWidth - 5);
  let out = "";
  let added = 0;
  let removed = 0;
  for (const r of rows) {
    added += r.added;
    removed += r.removed;
    const total = r.added + r.removed;
    let plusN = r.added;
    let minusN = r.removed;
    if (most > room) {
      // Scaled as git does: each side at least one column when it is not zero.
      plusN = r.added === 0 ? 0 : Math.max(1, Math.round((r.added * room) / most));
      minusN = r.removed === 0 ? 0 : Math.max(1, Math.round((r.removed * room) / most));
    }
    const name = r.name + " ".repeat(nameWidth - [...r.name].length);
    const bars = plus("+".repeat(plusN)) + minus("-".repeat(minusN));
    out += ` ${name} | ${countOf(r).padStart(countWidth)}${total > 0 ? " " + bars : ""}${kindOf(r)}\n`;
  }
  const n = rows.length;
  let summary = ` ${n} file${n === 1 ? "" : "s"} changed`;
  if (added > 0 || removed === 0) summary += `, ${added} insertion${added === 1 ? "" : "s"}(+)`;
  if (removed > 0 || added === 0) summary += `, ${removed} deletion${removed === 1 ? "" : "s"}(-)`;
  const uncounted = rows.filter((r) => r.uncounted === true).length;
  if (uncounted > 0) summary += `; line counts not in the log for ${uncounted === n ? (n === 1 ? "it" : "any of them") : `${uncounted} of them`}`;
  return out + summary + "\n";
}
