/**
 * Levenshtein distance, for "did you mean" (`--tool Shelll`, `--columns seq,kidn`, `help txt`):
 * small strings only. A pair whose lengths differ by more than `cap` is not measured and gets
 * Infinity (more edits than any caller accepts).
 */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (Math.abs(a.length - b.length) > cap) return Infinity;
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
