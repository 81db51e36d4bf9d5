import assert from "node:assert/strict";
import type { RunResult } from "./run-chunks.js";

// What every run of cursorlog must look like, whatever it was fed (README "EXIT STATUS" and
// "ERROR FORMAT"): an exit status from the table, no stack trace, every message in the one
// grammar, and a message with the input's position for every failure status.

/** README "EXIT STATUS" (130/143 need a signal, which in-process runs never get). */
export const EXIT_STATUSES = new Set([0, 1, 2, 3, 4, 5]);

/** `cursorlog: error (at FILE:LINE): message`, `… (at FILE): …` (a whole file), `ignoring invalid line`, `warning`. */
const DIAGNOSTIC = /^cursorlog: (?:error|warning|ignoring invalid line) \(at ([^\n]*?)(?::(\d+))?\): [^\n]+$/;
const STACK = /^\s+at .*(?:\(.*:\d+:\d+\)|:\d+:\d+)$/m;

export interface Located {
  file: string;
  line: number | undefined;
}

/** The stderr lines of a run, each parsed; a line outside the grammar fails the assertion. */
export function diagnostics(r: RunResult, context: string): Located[] {
  const text = r.stderr;
  assert.doesNotMatch(text, STACK, `${context}: a stack trace on stderr:\n${text}`);
  assert.ok(text === "" || text.endsWith("\n"), `${context}: stderr does not end with a newline: ${JSON.stringify(text.slice(-80))}`);
  const out: Located[] = [];
  for (const line of text.split("\n").slice(0, -1)) {
    const m = DIAGNOSTIC.exec(line);
    assert.ok(m, `${context}: a message outside the grammar (a crash has no position): ${JSON.stringify(line)}`);
    out.push({ file: m[1]!, line: m[2] === undefined ? undefined : Number(m[2]) });
  }
  return out;
}

/**
 * The contract of a run over any input: a status from the table; messages in the grammar, each
 * naming the input; and for statuses 2, 4 and 5 at least one message (which names file:line for
 * 4 and 5). Returns the parsed messages for further checks.
 */
export function assertContract(r: RunResult, context: string, files: readonly string[]): Located[] {
  assert.ok(EXIT_STATUSES.has(r.code), `${context}: exit status ${r.code} is not in the README table`);
  const ds = diagnostics(r, context);
  for (const d of ds) assert.ok(files.includes(d.file), `${context}: a message names ${JSON.stringify(d.file)}, not one of the inputs`);
  // With -e the status is the answer to a question (stats -e: 4 = a session was cut off, said in the report).
  const answer = / (?:-e|--exit-status)(?: |$)/.test(context);
  // Exit 4 for an input with no session at all names the whole file: it has no line to name.
  const noSession = r.code === 4 && /^cursorlog: error \(at [^\n]*\): no session in the input/m.test(r.stderr);
  if (r.code === 5 || (r.code === 4 && !answer && !noSession)) {
    assert.ok(ds.some((d) => d.line !== undefined), `${context}: exit ${r.code} without a message naming file:line:\n${r.stderr}`);
  }
  if (r.code === 2) assert.ok(ds.length > 0, `${context}: exit 2 without a message`);
  return ds;
}

export const isObject = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v);

/** The objects of a line holding several JSON values side by side (`{…} {…}`), or undefined. */
export function valuesOnLine(line: string): unknown[] | undefined {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if (c === "}" || c === "]") {
      if (--depth === 0) {
        try {
          out.push(JSON.parse(line.slice(start, i + 1)));
        } catch {
          return undefined;
        }
      }
    } else if (depth === 0 && !/\s/.test(c!)) return undefined;
  }
  return depth === 0 && out.length > 1 && out.every(isObject) ? out : undefined;
}
