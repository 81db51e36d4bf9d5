import type { DiagnosticFormat } from "./diagnostic-format.js";
import { INVISIBLE } from "../sanitize.js";

/** Characters JSON.stringify leaves raw that a terminal could act on: DEL, C1 controls, the invisible ones (bidi, zero-width, LS/PS). */
const UNSAFE = new RegExp(`[\\u007f-\\u009f${INVISIBLE}]`, "g");

function jsonLine(value: object): string {
  return JSON.stringify(value).replace(UNSAFE, (ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0")) + "\n";
}

/**
 * One JSON object per line, for machines:
 *   {"type":"diagnostic","file","line","severity":"error"|"warning","rule","keyword","path","message","schemaPath","related"}
 *   {"type":"summary","files","lines","valid","invalid","errors","warnings","stoppedAfter"}   (last line)
 * keyword and schemaPath are null except for rule "schema"; related lists other lines involved.
 */
export const jsonFormat: DiagnosticFormat = {
  finding(f) {
    return jsonLine({
      type: "diagnostic",
      file: f.file,
      line: f.line,
      severity: f.severity,
      rule: f.rule,
      keyword: f.keyword ?? null,
      path: f.path,
      message: f.message,
      schemaPath: f.schemaPath ?? null,
      related: f.related ?? [],
    });
  },
  summary(s) {
    return jsonLine({
      type: "summary",
      files: s.files,
      lines: s.lines,
      valid: s.valid,
      invalid: s.invalid,
      errors: s.errors,
      warnings: s.warnings,
      stoppedAfter: s.stoppedAfter ?? null,
    });
  },
};
