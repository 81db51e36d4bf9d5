/** Levenshtein distance, for "did you mean" (small strings only). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The candidates closest to `word` (at most 2 edits, and fewer than half its length), best first. */
export function similar(word: string, candidates: readonly string[]): string[] {
  const scored = candidates
    .map((c) => ({ c, d: distance(word.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= 2 && d < Math.max(c.length, word.length) / 2 + 0.5);
  const best = Math.min(...scored.map((s) => s.d));
  return scored.filter((s) => s.d === best).map((s) => s.c);
}

/** ` (did you mean 'kind'?)` (or nothing when no candidate is close). */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = similar(word, candidates);
  if (near.length === 0) return "";
  return ` (did you mean ${near.map((n) => `'${n}'`).join(" or ")}?)`;
}
