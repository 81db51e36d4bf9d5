import type { Colors } from "picocolors/types.js";
import { escapeControls } from "../sanitize.js";
import type { DiagnosticFormat } from "./diagnostic-format.js";
import { summaryText } from "./summary-text.js";

/**
 * grep style, so editors and CI logs link to the line:
 *   run.ndjson:17: /tool_call/shellToolCall/args/command: must be string (type)
 *   run.ndjson:12: warning: unknown event type "hologram" (unknown-type)
 * In parentheses: the failed schema keyword, or the rule for other checks. Everything from the log
 * (file names, keys in the path, values in the message) is shown with control characters escaped.
 */
export function textFormat(c: Colors): DiagnosticFormat {
  return {
    finding(f) {
      const severity = f.severity === "warning" ? `${c.yellow("warning")}: ` : "";
      const path = f.path !== "" ? `${escapeControls(f.path)}: ` : "";
      return `${escapeControls(f.file)}:${f.line}: ${severity}${path}${escapeControls(f.message)} ${c.dim(`(${f.keyword ?? f.rule})`)}\n`;
    },
    summary(s) {
      return summaryText(s) + "\n";
    },
  };
}
