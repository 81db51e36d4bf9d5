import type { Reporter } from "../../diagnostics.js";
import { ExitCode } from "../../exit-codes.js";
import { isTooDeep } from "../../input/too-deep.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import { joinPieces, type Stage } from "../../stream/stage.js";
import type { DiagnosticFormat } from "../../validate/diagnostic-format.js";
import type { Finding, Summary } from "../../validate/finding.js";
import { LifecycleChecker } from "../../validate/lifecycle.js";
import { quote } from "../../validate/quote.js";
import { schemaErrors } from "../../validate/schema/findings.js";
import type { UnknownFields } from "../../validate/unknown-fields.js";
import type { Validators } from "../../validate/validators.js";

/** A schema set as validate uses it: its validators and, with --strict, its field walk. */
export interface SchemaSetInUse {
  validators: Validators;
  unknownFields?: UnknownFields | undefined;
}

/**
 * The bundled schema sets, by their entry's `$id` (Dialect.schemaEntryId), each loaded when a file
 * of its dialect first needs it (Stage.ready): a cursor-agent validate never loads Claude Code's.
 */
export interface DialectSchemas {
  /** The set whose entry is `id`, once loaded. */
  get(id: string): SchemaSetInUse | undefined;
  load(id: string): Promise<void>;
}

export interface ValidateReportOptions {
  /** Every file's schemas (--schema); with `bundled`, unused but for its type. */
  validators: Validators;
  /**
   * The bundled sets: each file is checked against its own dialect's (decided at its first event,
   * as every command decides, or `agent`). Undefined: `validators` checks every file (--schema).
   */
  bundled?: DialectSchemas | undefined;
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  format: DiagnosticFormat;
  /** Unknown types and kinds are errors, not warnings. */
  strict: boolean;
  /** --strict: also report the fields no schema names (with `validators`; a bundled set has its own). */
  unknownFields?: UnknownFields;
  /** Session checks across events (--no-lifecycle turns them off). */
  lifecycle: boolean;
  /** Stop after this many errors; 0 means no limit. */
  maxErrors: number;
  /** --allow-empty: a file without any session is not a lifecycle error. */
  allowEmpty?: boolean;
}

export interface ValidateReport extends Stage {
  /** --max-errors was reached: nothing more is checked, and the input need not be read further. */
  readonly stopped: boolean;
}

import { KIND_KEYS_PATH, toolKindKeys } from "../../dialects/cursor/tool-call.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import type { Dialect } from "../../dialects/dialect.js";
import { dialectFor, forcedDialect } from "../../dialects/index.js";
import { duplicateKeys } from "../../validate/duplicate-keys.js";
import { firstInvalidUtf8 } from "../../validate/invalid-utf8.js";

/**
 * A value this shallow cannot exhaust the stack by itself (a schema that recurses into the value,
 * like `"properties": {"a": {"$ref": "#"}}`, validates 4,000 levels); when validating it does, the
 * schema recurses without reading the value: `{"$ref": "#"}`, two `allOf`s naming each other.
 */
const SHALLOW = 256;
const SCHEMA_LOOPS =
  'schema recurses without end: a "$ref" loop that never goes into the value (such as {"$ref":"#"}) cannot validate anything';
const NOT_ONE_PER_LINE = "not one JSON object per line: this value spans several lines or shares its line with another";

/**
 * `cursorlog validate`: each line to its type's validator, then the unknown type / kind / field
 * and lifecycle checks; one diagnostic per problem on stdout in the chosen format, a summary at
 * the end. Unparseable lines are diagnostics like any other (validate always goes on past them);
 * an unreadable file goes to the reporter (stderr, exit 2). The first error makes the exit status 1.
 *
 * A valid event costs one Map lookup and one precompiled validator call, and allocates nothing here.
 */
export function toValidateReport(opts: ValidateReportOptions, reporter: Reporter): ValidateReport {
  const forced = forcedDialect(opts.agent);
  const lifecycle = opts.lifecycle ? new LifecycleChecker(opts.allowEmpty === true, forced) : undefined;
  const given: SchemaSetInUse = { validators: opts.validators, unknownFields: opts.unknownFields };
  /**
   * The schemas the current file is checked against, and whether its lines have cursor-agent's
   * tool-kind keys (toolKindKeys reads `tool_call` lines: no other agent's); decided at the file's
   * first event, undefined before it.
   */
  let file: { set: SchemaSetInUse; kinds: boolean; repeated: ReadonlySet<string> | undefined } | undefined;
  const dialectOf = (rec: JsonRecord): Dialect => forced ?? dialectFor(rec.value);
  function fileOf(rec: JsonRecord): { set: SchemaSetInUse; kinds: boolean; repeated: ReadonlySet<string> | undefined } {
    const d = dialectOf(rec);
    const set = opts.bundled === undefined ? given : opts.bundled.get(d.schemaEntryId);
    if (set === undefined) throw new Error(`the schemas of ${d.name} are not loaded (Stage.ready was not asked)`);
    return { set, kinds: d === cursorDialect, repeated: d.repeatedKeys };
  }
  const unknownSeverity: Finding["severity"] = opts.strict ? "error" : "warning";
  /** The files read: a file that could not be opened or read before its first line is not one. */
  let files = 0;
  /** A file whose records came but whose end did not (yet): counted in the summary when --max-errors cut it. */
  let inFile = false;
  /** The current file failed (missing, unreadable, EIO) before a line of it came. */
  let unread = false;
  let lines = 0;
  let invalid = 0;
  let errors = 0;
  let warnings = 0;
  let stopped = false;
  /** Errors of the session lifecycle (no-result, …), counted in `errors` too. */
  let sessionErrors = 0;
  /** Set by checkLine: the line has an error of its own. */
  let lineBad = false;
  /** The schema looped on a line (one message, status 3): nothing more is checked, no summary. */
  let schemaLoops = false;

  function emit(f: Finding): string {
    if (stopped) return "";
    if (f.severity === "error") {
      if (++errors === 1) reporter.raise(ExitCode.NEGATIVE);
      if (opts.maxErrors > 0 && errors >= opts.maxErrors) stopped = true;
    } else {
      warnings++;
    }
    return opts.format.finding(f);
  }

  /**
   * The lifecycle's findings' lines: a string for an array, pieces for a generator (a session's
   * many open calls). Their errors are about a session, not one line (the summary tells them apart).
   */
  function emitAll(list: Iterable<Finding> | undefined): string | Iterable<string> {
    if (list === undefined) return "";
    if (!Array.isArray(list)) return emitPieces(list);
    let out = "";
    for (const f of list) out += emitSession(f);
    return out;
  }

  function emitSession(f: Finding): string {
    const before = errors;
    const out = emit(f);
    if (errors > before) sessionErrors++;
    return out;
  }

  function* emitPieces(list: Iterable<Finding>): Generator<string> {
    let out = "";
    for (const f of list) {
      if (stopped) break;
      out += emitSession(f);
      if (out.length >= 1 << 16) {
        yield out;
        out = "";
      }
    }
    if (out !== "") yield out;
  }

  /** The checks of one line on its own: their diagnostics; lineBad tells whether one was an error. */
  function checkLine(rec: JsonRecord, { set, kinds: kindKeys, repeated }: { set: SchemaSetInUse; kinds: boolean; repeated: ReadonlySet<string> | undefined }): string {
    const { byType, entry, types, toolKinds } = set.validators;
    const unknownFields = set.unknownFields;
    const ev = rec.value;
    const type = ev.type;
    const own = typeof type === "string" ? byType.get(type) : undefined;
    const validate = own ?? entry;
    let out = "";
    lineBad = false;
    if (rec.reassembled === true) {
      lineBad = true;
      out += emit({ file: rec.file, line: rec.line, severity: "error", rule: "parse", path: "", message: NOT_ONE_PER_LINE });
    }
    if (rec.bytes !== undefined) {
      lineBad = true;
      const at = firstInvalidUtf8(rec.bytes);
      const what = at < 0 ? "" : ` at byte ${at + 1} (0x${rec.bytes[at]!.toString(16).padStart(2, "0")})`;
      out += emit({ file: rec.file, line: rec.line, severity: "error", rule: "utf8", path: "", message: `not valid UTF-8${what}: read as U+FFFD` });
    }
    // A key the format itself writes twice (Dialect.repeatedKeys: Codex's web_search id) is the format, not a finding.
    let dup = duplicateKeys(rec.text, ev, rec.keys);
    if (dup !== undefined && repeated !== undefined) {
      dup = dup.filter((d) => !repeated.has(`${d.path} ${d.key}`));
      if (dup.length === 0) dup = undefined;
    }
    if (dup !== undefined) {
      for (const d of dup) {
        const message = `duplicate key ${quote(d.key)}: the last value is used, as JSON.parse and jq do`;
        out += emit({ file: rec.file, line: rec.line, severity: unknownSeverity, rule: "duplicate-key", path: d.path, message });
      }
      if (opts.strict) lineBad = true;
    }
    if (!runValidator(validate, rec, set.validators)) {
      lineBad = true;
      for (const e of schemaErrors(validate.errors)) {
        const f: Finding = { file: rec.file, line: rec.line, severity: "error", rule: "schema", path: e.path, message: e.message, keyword: e.keyword };
        f.schemaPath = e.schemaPath;
        out += emit(f);
      }
    }
    if (typeof type !== "string") return out;
    if (own === undefined && types !== undefined && !types.has(type)) {
      out += emit({ file: rec.file, line: rec.line, severity: unknownSeverity, rule: "unknown-type", path: "", message: `unknown event type ${quote(type)}` });
      if (opts.strict) lineBad = true;
      return out;
    }
    // The line's own tool-kind keys (the dialect reads them), checked against the schemas'.
    const kinds = toolKinds === undefined || !kindKeys ? undefined : toolKindKeys(ev);
    for (const key of kinds ?? []) {
      if (toolKinds!.has(key)) continue;
      out += emit({ file: rec.file, line: rec.line, severity: unknownSeverity, rule: "unknown-kind", path: KIND_KEYS_PATH, message: `unknown tool kind ${quote(key)}` });
      if (opts.strict) lineBad = true;
    }
    if (unknownFields !== undefined) {
      for (const u of unknownFields.find(ev)) {
        const path = `${u.parent}/${u.key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        out += emit({ file: rec.file, line: rec.line, severity: "error", rule: "unknown-field", path, message: `unknown field ${quote(u.key)}` });
        lineBad = true;
      }
    }
    return out;
  }

  /** The validator's answer; a stack overflow on a shallow value is the schema's fault (status 3). */
  function runValidator(validate: Validators["entry"], rec: JsonRecord, validators: Validators): boolean {
    try {
      return validate(rec.value);
    } catch (err) {
      // A deep value: the line's own problem, reported at its position (to-transform.ts).
      if (!isTooDeep(err) || !shallowerThan(rec.value, SHALLOW)) throw err;
      schemaLoops = stopped = true;
      let file: string | undefined;
      try {
        file = validators.schemaSet().entry.path;
      } catch {
        // the bundled set could not be read: the message stands without a file
      }
      reporter.report({ severity: "error", ...(file !== undefined && { file }), message: `${SCHEMA_LOOPS} (it did on ${rec.file}:${rec.line})`, code: ExitCode.SCHEMA });
      return true;
    }
  }

  return {
    keys: true,
    get stopped() {
      return stopped;
    },
    ready(rec: JsonRecord) {
      // At a file's first event: its dialect's bundled schemas, loaded if they are not yet.
      if (file !== undefined || opts.bundled === undefined || stopped) return undefined;
      const id = dialectOf(rec).schemaEntryId;
      return opts.bundled.get(id) === undefined ? opts.bundled.load(id) : undefined;
    },
    record(rec: JsonRecord) {
      if (stopped) return undefined;
      inFile = true;
      file ??= fileOf(rec);
      // A line too deep for the validator throws out of checkLine and comes back through problem(),
      // which counts it: counted here first, it was "2 lines, 1 valid".
      const out = checkLine(rec, file);
      if (schemaLoops) return undefined;
      lines++;
      if (lineBad) invalid++;
      const found = lifecycle?.observe(rec);
      const text = found === undefined ? out : joinPieces([out, emitAll(found)]);
      return text === "" ? undefined : text;
    },
    problem(p: Problem) {
      if (p.kind === "io") {
        if (!inFile && p.warning !== true) unread = true;
        reporter.problem(p);
        return undefined;
      }
      if (stopped) return undefined;
      inFile = true;
      lines++;
      invalid++;
      return emit({ file: p.file, line: p.line ?? 0, severity: "error", rule: "parse", path: "", message: p.message });
    },
    said(p: Problem) {
      if (stopped) return undefined;
      inFile = true;
      lifecycle?.said(p.file, p.line ?? 0, p.message);
      return emit({ file: p.file, line: p.line ?? 0, severity: "warning", rule: "agent-message", path: "", message: `the agent CLI said: ${quote(p.message, 2000)}` });
    },
    fileEnd(name: string, lastLine: number, unreadable?: boolean) {
      file = undefined;
      if (stopped) return undefined;
      if (!unread) files++;
      unread = false;
      inFile = false;
      const out = lifecycle !== undefined ? emitAll(lifecycle.endFile(name, lastLine, unreadable === true)) : "";
      return out === "" ? undefined : out;
    },
    finish() {
      if (schemaLoops) return undefined;
      const summary: Summary = { files: files + (inFile ? 1 : 0), lines, valid: lines - invalid, invalid, errors, warnings, sessionErrors };
      if (stopped) summary.stoppedAfter = errors;
      return opts.format.summary(summary);
    },
  };
}

/** Whether `value` nests fewer than `limit` arrays and objects (walked without recursion). */
function shallowerThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= limit) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return true;
}
