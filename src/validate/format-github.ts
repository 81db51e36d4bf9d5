import { STDIN_NAME } from "../input/read-inputs.js";
import { escapeControls } from "../sanitize.js";
import type { DiagnosticFormat } from "./diagnostic-format.js";
import { summaryText } from "./summary-text.js";

/** Workflow-command escaping of the message (after `::`). */
function data(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Workflow-command escaping of a property value (`file=…`), where `:` and `,` are separators. */
function property(s: string): string {
  return data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/**
 * GitHub Actions annotations, shown on the log file's line in the pull request:
 *   ::error file=logs/run.ndjson,line=17,title=cursorlog validate::/tool_call/…/command: must be string (type)
 * Standard input has no file to point at: its annotations carry `<stdin>:17:` in the message.
 * The summary is a plain line for the job log.
 */
export const githubFormat: DiagnosticFormat = {
  finding(f) {
    const command = f.severity === "error" ? "error" : "warning";
    const body = `${f.path !== "" ? `${f.path}: ` : ""}${f.message} (${f.keyword ?? f.rule})`;
    if (f.file === STDIN_NAME) {
      return `::${command} title=cursorlog validate::${data(escapeControls(`${f.file}:${f.line}: ${body}`))}\n`;
    }
    return `::${command} file=${property(escapeControls(f.file))},line=${f.line},title=cursorlog validate::${data(escapeControls(body))}\n`;
  },
  summary(s) {
    return summaryText(s) + "\n";
  },
};
