import type { Summary } from "./finding.js";

/**
 * `checked 51 lines in 1 file: 49 valid, 2 invalid; 4 errors, 3 warnings`; when some errors are
 * about sessions (lifecycle) rather than lines, it says how many of each, so that "0 invalid" and
 * "2 errors" do not read as a contradiction: `… 0 invalid; 2 errors (0 in lines, 2 in sessions), …`.
 */
export function summaryText(s: Summary): string {
  const sessions = s.sessionErrors ?? 0;
  const split = sessions > 0 ? ` (${s.errors - sessions} in lines, ${sessions} in sessions)` : "";
  let text =
    `checked ${count(s.lines, "line")} in ${count(s.files, "file")}: ${s.valid} valid, ${s.invalid} invalid; ` +
    `${count(s.errors, "error")}${split}, ${count(s.warnings, "warning")}`;
  if (s.stoppedAfter !== undefined) text += `; stopped after ${count(s.stoppedAfter, "error")} (--max-errors)`;
  return text;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
