import type { JsonObject } from "../../input/record.js";

/**
 * Reading Claude Code's stream-json lines (../shared/AGENTS.md §1): the few accessors every part
 * of the dialect shares. Every line is an object with a string `type`; most carry `session_id` and
 * `uuid`; `assistant` and `user` lines hold a `message` whose `content` is an array of blocks (or,
 * on a user line, a string).
 */

export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A non-empty string, else undefined. */
export function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** An id as logged: a non-empty string, or a finite number written as one (task ids). */
export function idOf(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return nonEmpty(v);
}

/** The line's `parent_tool_use_id`: the task call whose subagent wrote it (null or absent: the run's own line). */
export function parentOf(ev: JsonObject): string | undefined {
  return nonEmpty(ev.parent_tool_use_id);
}

/** The `message.content` of an assistant or user line: its blocks, or a string (a user line's), or undefined. */
export function contentOf(ev: JsonObject): unknown {
  return isPlainObject(ev.message) ? ev.message.content : undefined;
}

/**
 * The text of a tool_result's `content` or a user message's: a string as it is, or the `text` of
 * its text blocks joined by newlines (MCP and async Agent results, AGENTS §1.3); undefined when it
 * holds no text (a ToolSearch's tool_reference blocks).
 */
export function contentText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (!Array.isArray(v)) return undefined;
  let out: string | undefined;
  for (const b of v) {
    if (!isPlainObject(b) || b.type !== "text" || typeof b.text !== "string") continue;
    out = out === undefined ? b.text : `${out}\n${b.text}`;
  }
  return out;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/**
 * A line's ISO-8601 `timestamp` (AGENTS §1.4: `2026-10-01T12:00:01.500Z`, on assistant and user
 * lines since mid-2026), as ms since the epoch, parsed strictly: the full date and time with
 * seconds, an optional fraction (cut to ms, never rounded), and `Z` or a `±hh:mm` offset; a field
 * out of range (month 13, 31 April, 24:00) is no time. Anything else is no time.
 */
export function isoMs(v: unknown): number | undefined {
  if (typeof v !== "string" || v.length > 40) return undefined;
  const m = ISO.exec(v);
  if (m === null) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const s = Number(m[6]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const frac = m[7] === undefined ? 0 : Number((m[7] + "00").slice(0, 3));
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, frac);
  let ms = t.getTime();
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    ms -= (m[9] === "-" ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return Number.isFinite(ms) ? ms : undefined;
}

function daysIn(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}
