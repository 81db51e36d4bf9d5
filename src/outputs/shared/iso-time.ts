/** ±8.64e15 ms is the range of a JS Date; beyond it toISOString throws. */
const MAX_DATE_MS = 8.64e15;

export type IsoTime = (ms: number | undefined) => string | undefined;

/**
 * A formatter equal to `new Date(ms).toISOString()` (UTC, milliseconds), giving undefined for an
 * unknown or out-of-range time. The calls of one run are close together, so it caches the
 * `YYYY-MM-DDTHH:MM:` of the last minute seen and formats only the seconds (two per timeline row).
 * One formatter per run: the cache is its own, never shared.
 */
export function isoTimeFormatter(): IsoTime {
  let cachedMinute = NaN;
  let cachedPrefix = "";
  return (ms) => {
    if (ms === undefined || !(Math.abs(ms) <= MAX_DATE_MS)) return undefined;
    const t = Math.trunc(ms); // what Date does with a fraction
    const minute = Math.floor(t / 60000);
    if (minute !== cachedMinute) {
      cachedPrefix = new Date(minute * 60000).toISOString().slice(0, -7); // without "SS.mmmZ"
      cachedMinute = minute;
    }
    const rest = t - minute * 60000; // 0 … 59999
    const s = Math.floor(rest / 1000);
    const m = rest - s * 1000;
    return cachedPrefix + (s < 10 ? "0" : "") + s + "." + (m < 10 ? "00" : m < 100 ? "0" : "") + m + "Z";
  };
}
