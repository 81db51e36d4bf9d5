import type { Finding, Summary } from "./finding.js";

/** How `cursorlog validate` writes its diagnostics and its summary (one line each, with "\n"). */
export interface DiagnosticFormat {
  finding(f: Finding): string;
  summary(s: Summary): string;
}

export type FormatName = "text" | "json" | "github";
