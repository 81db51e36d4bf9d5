import { editDistance } from "../edit-distance.js";

/** The candidates closest to `word` (at most 2 edits, and fewer than half its length), best first. */
export function similar(word: string, candidates: readonly string[]): string[] {
  const scored = candidates
    .map((c) => ({ c, d: editDistance(word.toLowerCase(), c.toLowerCase()) }))
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
