/**
 * `s` cut to at most `max` UTF-16 units with "…" at the end when it was longer, never splitting a
 * surrogate pair (a lone half would reach the page as U+FFFD).
 */
export function capText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end) + "…";
}
