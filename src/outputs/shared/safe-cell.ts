/** A cell a spreadsheet would read as a formula (or DDE): it starts with = + - @ TAB or CR (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * `--safe-csv`: a text cell that a spreadsheet would evaluate gets a leading `'`, so Excel,
 * LibreOffice and Google Sheets show it as text instead of running it. Other cells are unchanged.
 */
export function safeCell(s: string): string {
  return FORMULA_START.test(s) ? "'" + s : s;
}
