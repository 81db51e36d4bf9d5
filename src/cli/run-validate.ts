import type { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { toValidateReport, type DialectSchemas, type SchemaSetInUse } from "../outputs/validate-report/index.js";
import { DEFAULT_DIALECT, forcedDialect } from "../dialects/index.js";
import { BUNDLED_SETS } from "../validate/bundled-schemas.js";
import { loadBundledValidators } from "../validate/bundled-validators.js";
import type { DiagnosticFormat, FormatName } from "../validate/diagnostic-format.js";
import { githubFormat } from "../validate/format-github.js";
import { jsonFormat } from "../validate/format-json.js";
import { textFormat } from "../validate/format-text.js";
import { readSchemaSet, SchemaSetError } from "../validate/schema/set.js";
import type { UnknownFields } from "../validate/unknown-fields.js";
import type { Validators } from "../validate/validators.js";
import { colorsFor, resolveColor, type SharedRaw } from "./config.js";
import type { Io } from "./io.js";
import { LogInputs } from "./log-inputs.js";
import { refuseOtherAgents } from "../stream/refuse-other-agents.js";
import { lazy } from "../lazy.js";

const unknownFieldsModule = lazy(() => import("../validate/unknown-fields.js"));
const compileValidatorsModule = lazy(() => import("../validate/compile-validators.js"));
const patternsModule = lazy(() => import("../validate/schema/patterns.js"));

export interface ValidateRaw extends SharedRaw {
  format?: FormatName;
  strict?: boolean;
  lifecycle?: boolean;
  schema?: string;
  maxErrors?: number;
  allowEmpty?: boolean;
}

/**
 * `cursorlog validate`: schemas first (bundled and precompiled, or --schema compiled now; one that
 * cannot be read or compiled ends the run before any input is opened), then every input through
 * the validate-report stage: files and directories of logs as every other command reads them
 * (log-inputs.ts). Input is read leniently (bad lines are diagnostics) and stops early once
 * --max-errors is reached.
 */
export async function runValidate(io: Io, files: string[], raw: ValidateRaw): Promise<ExitCode> {
  // Directories, the terminal, the progress line and unreadable inputs: as every command that reads logs.
  const inputs = new LogInputs(io, files, { ...raw, lenient: true });
  if (inputs.refuseTerminal("validate")) return ExitCode.USAGE_OR_IO;
  const reporter = inputs.reporter;
  // Schemas first: one that cannot be read or compiled ends the run before any input is opened.
  // The bundled ones: each file's dialect's set (the default dialect's, or --agent's, loaded now;
  // another when a file of its dialect comes).
  let validators: Validators;
  let unknownFields: UnknownFields | undefined;
  let bundled: BundledSchemas | undefined;
  try {
    if (raw.schema === undefined) {
      bundled = new BundledSchemas(raw.strict === true);
      const first = (forcedDialect(raw.agent) ?? DEFAULT_DIALECT).schemaEntryId;
      await bundled.load(first);
      validators = bundled.get(first)!.validators;
    } else {
      validators = await compileUserSchemas(raw.schema, reporter);
      // The field walk reads the schema files themselves: only --strict loads it.
      if (raw.strict) unknownFields = new (await unknownFieldsModule()).UnknownFields(validators.schemaSet());
    }
  } catch (err) {
    if (!(err instanceof SchemaSetError)) throw err;
    reporter.report({ severity: "error", ...(err.file !== undefined && { file: err.file }), message: err.message, code: err.code });
    return reporter.code;
  }
  const stage = toValidateReport(
    {
      validators,
      bundled,
      agent: raw.agent,
      format: formatFor(raw.format ?? "text", resolveColor(raw.color, io.env, io.stdoutIsTTY)),
      strict: raw.strict === true,
      ...(unknownFields !== undefined && { unknownFields }),
      lifecycle: raw.lifecycle !== false,
      maxErrors: raw.maxErrors ?? 0,
      allowEmpty: raw.allowEmpty === true,
    },
    reporter,
  );
  // Another agent's log is refused against the bundled schemas (yours may be written for it).
  return inputs.read(raw.schema === undefined ? refuseOtherAgents(stage, reporter, raw.agent) : stage, () => stage.stopped);
}

/**
 * The bundled schema sets (BUNDLED_SETS), each loaded once, when first asked: its precompiled
 * validators and, with --strict, the walk of its files for the fields no schema names.
 */
class BundledSchemas implements DialectSchemas {
  private readonly sets = new Map<string, SchemaSetInUse>();
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly strict: boolean) {}

  get(id: string): SchemaSetInUse | undefined {
    return this.sets.get(id);
  }

  load(id: string): Promise<void> {
    let p = this.loading.get(id);
    if (p === undefined) {
      p = (async () => {
        const validators = await loadBundledValidators(id);
        const unknownFields = this.strict ? new (await unknownFieldsModule()).UnknownFields(validators.schemaSet()) : undefined;
        this.sets.set(id, { validators, unknownFields });
      })();
      this.loading.set(id, p);
    }
    return p;
  }
}

/** The entry file names of the bundled sets, cursor-agent's first: the entry of a --schema directory that holds one. */
const ENTRY_FILES = BUNDLED_SETS.map((s) => s.entryFile);

/** ajv (and its compile time) and re2js (for the schema's patterns) are loaded only for --schema. */
async function compileUserSchemas(path: string, reporter: Reporter): Promise<Validators> {
  const [{ compileValidators }, { schemaPatternEngine }] = await Promise.all([compileValidatorsModule(), patternsModule()]);
  const set = readSchemaSet(path, ENTRY_FILES);
  return compileValidators(
    set,
    (message) => reporter.report({ severity: "warning", file: path, message: `schema: ${message}`, code: ExitCode.OK }),
    schemaPatternEngine,
  );
}

function formatFor(name: FormatName, color: boolean): DiagnosticFormat {
  if (name === "json") return jsonFormat;
  if (name === "github") return githubFormat;
  return textFormat(colorsFor(color));
}
