import { FilterSyntaxError } from "./syntax-error.js";

/** The largest time a JS Date can hold (year 275760). */
const MAX_DATE_MS = 8.64e15;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * A `--since` / `--until` argument as epoch milliseconds: all digits is epoch ms
 * (`1767225600000`); otherwise ISO-8601: `2026-01-01`, `2026-01-01T12:00`, `2026-01-01T12:00:00.250Z`,
 * `2026-01-01 12:00:00+02:00`. A date or time without an offset is UTC (as in jq), never the
 * machine's local zone, so a command means the same everywhere.
 */
export function parseTimeArg(text: string): number {
  const s = text.trim();
  if (/^\d+$/.test(s)) {
    const ms = Number(s);
    if (ms <= MAX_DATE_MS) return ms;
  }
  const m = ISO.exec(s);
  if (m !== null) {
    const [, y, mo, d, h = "0", mi = "0", sec = "0", frac = "", zone = "Z"] = m;
    const ms = Number((frac + "000").slice(0, 3));
    const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), ms);
    const back = new Date(utc);
    const valid =
      back.getUTCFullYear() === Number(y) &&
      back.getUTCMonth() === Number(mo) - 1 &&
      back.getUTCDate() === Number(d) &&
      Number(h) < 24 &&
      Number(mi) < 60 &&
      Number(sec) < 60;
    if (valid) {
      const offset = offsetMs(zone);
      if (offset === undefined) {
        throw new FilterSyntaxError(`${zone} is not a UTC offset (hours 00 to 23, minutes 00 to 59, as in +02:00 or -05:30)`);
      }
      return utc - offset;
    }
  }
  throw new FilterSyntaxError(
    `expected an ISO-8601 time (2026-01-01, 2026-01-01T12:00:00Z, 2026-01-01T12:00:00+02:00) or epoch milliseconds, not ${JSON.stringify(text)}`,
  );
}

/** A zone's offset from UTC in ms; undefined for one that cannot be (`+99:00`, `+05:75`). */
function offsetMs(zone: string): number | undefined {
  if (zone === "Z" || zone === "z") return 0;
  const sign = zone[0] === "-" ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || "0");
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes) * 60_000;
}
