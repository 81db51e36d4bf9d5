import type { Summary } from "./finding.js";

/** `checked 51 lines in 1 file: 49 valid, 2 invalid; 4 errors, 3 warnings`. */
export function summaryText(s: Summary): string {
  let text =
    `checked ${count(s.lines, "line")} in ${count(s.files, "file")}: ${s.valid} valid, ${s.invalid} invalid; ` +
    `${count(s.errors, "error")}, ${count(s.warnings, "warning")}`;
  if (s.stoppedAfter !== undefined) text += `; stopped after ${count(s.stoppedAfter, "error")} (--max-errors)`;
  return text;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
