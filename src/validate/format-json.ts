import type { DiagnosticFormat } from "./diagnostic-format.js";

/** Characters JSON.stringify leaves raw that a terminal could act on: DEL, C1 controls, bidi overrides, line separators. */
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

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
