import type { BackgroundEnd } from "../../model/call.js";

/**
 * `Background task 41 ended (success) after 16.95 s: npm run test:slow`, unescaped: a background
 * shell's end in words (its command when the shell is known, else the notification's title).
 */
export function backgroundEndText(end: BackgroundEnd): string {
  let line = `Background task ${end.taskId} ended`;
  if (end.status !== undefined) line += ` (${end.status})`;
  if (end.durationMs !== undefined) line += ` after ${seconds(end.durationMs)}`;
  const what = end.call?.target ?? end.title;
  return what === undefined || what === "" ? line : `${line}: ${what}`;
}

/** `16.95 s`, `930 ms`. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
