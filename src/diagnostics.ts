import type { Colors } from "picocolors/types.js";
import { ExitCode, worse } from "./exit-codes.js";
import type { Problem } from "./input/record.js";
import { escapeControls } from "./sanitize.js";

export interface Diagnostic {
  severity: "error" | "warning";
  file?: string;
  line?: number;
  message: string;
  /** The exit status this finding calls for (warnings: OK). */
  code: ExitCode;
}

export const PROGRAM = "cursorlog";

/** `cursorlog: error (at logs/run.ndjson:17): message`, jq's grammar; log text shown escaped. */
export function formatDiagnostic(d: Diagnostic, c: Colors, lead?: string): string {
  const where = d.file === undefined ? "" : d.line === undefined ? ` (at ${d.file})` : ` (at ${d.file}:${d.line})`;
  const head = lead ?? (d.severity === "error" ? c.red("error") : c.yellow("warning"));
  return `${PROGRAM}: ${head}${escapeControls(where)}: ${escapeControls(d.message)}\n`;
}

/**
 * The per-run collector of findings: writes each one to stderr as it happens and keeps the exit
 * status (the most severe finding wins). No global state: one Reporter per run.
 */
export class Reporter {
  code: ExitCode = ExitCode.OK;
  errors = 0;
  warnings = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly colors: Colors,
    private readonly lenient: boolean,
  ) {}

  report(d: Diagnostic): void {
    if (d.severity === "error") this.errors++;
    else this.warnings++;
    this.code = worse(this.code, d.code);
    this.write(formatDiagnostic(d, this.colors));
  }

  /** An input problem: unreadable files go on to the next file; a malformed line is fatal unless --lenient. */
  problem(p: Problem): void {
    const code = p.kind === "io" ? ExitCode.USAGE_OR_IO : ExitCode.MALFORMED;
    const d: Diagnostic = { severity: p.warning ? "warning" : "error", file: p.file, message: p.message, code };
    if (p.line !== undefined) d.line = p.line;
    if (p.kind === "malformed" && this.lenient) {
      this.errors++;
      this.code = worse(this.code, code);
      this.write(formatDiagnostic(d, this.colors, "ignoring invalid line"));
      return;
    }
    this.report(d);
  }

  /**
   * A line of the agent CLI's own text (stderr merged into the log) that no session claimed: a
   * warning, quoted whole and escaped; the exit status is left as it is.
   */
  said(p: Problem): undefined {
    const d: Diagnostic = { severity: "warning", file: p.file, message: `the agent CLI said: ${p.message}`, code: ExitCode.OK };
    if (p.line !== undefined) d.line = p.line;
    this.report(d);
    return undefined;
  }

  /** Raise the exit status without a message (e.g. a result with is_error:true). */
  raise(code: ExitCode): void {
    this.code = worse(this.code, code);
  }
}
