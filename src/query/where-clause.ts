import type { JsonObject } from "../input/record.js";
import { FilterSyntaxError } from "./syntax-error.js";
import { jsonEqual } from "./json-equal.js";
import { compileLinearRegex } from "../regex/index.js";
import { someValueAt } from "./path-lookup.js";
import { parsePath } from "./path-query.js";

const OPERATOR = /==|!=|<=|>=|<|>|~|exists(?=\s|$)/y;
const OPERATORS = "==, !=, <, <=, >, >=, ~ or exists";

/**
 * Compiles one `--where 'PATH OP VALUE'` clause into a test on an event. PATH is parsePath's
 * syntax; OP is `==`, `!=`, `<`, `<=`, `>`, `>=`, `~` (regex) or `exists`; VALUE is JSON when it
 * parses as JSON (`0`, `true`, `null`, `"a string"`), else the rest of the text as a string.
 * With a `*` in the path the clause holds when some reached value satisfies it; `!=` is exactly
 * "not ==" (so a missing path is `!=` anything). `<`/`>` compare numbers with numbers and strings
 * with strings (code-unit order), `~` tests strings only; other types never match.
 */
export function parseWhere(text: string): (ev: JsonObject) => boolean {
  let pos = skipSpace(text, 0);
  if (pos === text.length) {
    throw new FilterSyntaxError(`expected 'PATH OP VALUE', e.g. 'tool_call.shellToolCall.result.failure.exitCode > 0' or 'model exists'`);
  }
  if (/[=!<>~]/.test(text[pos]!)) throw new FilterSyntaxError(`expected a path before the operator at column ${pos + 1}`);
  const pathStart = pos;
  const { segments, end } = parsePath(text, pos);
  const pathText = text.slice(pathStart, end);
  pos = skipSpace(text, end);
  OPERATOR.lastIndex = pos;
  const op = OPERATOR.exec(text)?.[0];
  if (op === undefined) {
    if (pos === text.length) throw new FilterSyntaxError(`the path ${JSON.stringify(pathText)} needs an operator: ${OPERATORS}`);
    const found = /\S+/.exec(text.slice(pos))![0];
    const hint = found.startsWith("=") ? ' (did you mean "=="?)' : "";
    throw new FilterSyntaxError(`unknown operator ${JSON.stringify(found)} at column ${pos + 1}${hint}; use ${OPERATORS}`);
  }
  const raw = text.slice(pos + op.length).trim();
  if (op === "exists") {
    if (raw !== "") throw new FilterSyntaxError(`"exists" takes no value, found ${JSON.stringify(raw)}`);
    return (ev) => someValueAt(ev, segments, () => true);
  }
  if (raw === "") throw new FilterSyntaxError(`"${op}" needs a value after it (JSON such as 0, true, "text", or a bare string)`);
  const value = parseValue(raw);
  switch (op) {
    case "==":
      return (ev) => someValueAt(ev, segments, (v) => jsonEqual(v, value));
    case "!=":
      return (ev) => !someValueAt(ev, segments, (v) => jsonEqual(v, value));
    case "~": {
      const matches = compileLinearRegex(typeof value === "string" ? value : raw);
      return (ev) => someValueAt(ev, segments, (v) => typeof v === "string" && matches(v));
    }
    default: {
      if (typeof value !== "number" && typeof value !== "string") {
        throw new FilterSyntaxError(`"${op}" compares numbers or strings, not ${JSON.stringify(value)}`);
      }
      const cmp = compare(op);
      return (ev) => someValueAt(ev, segments, (v) => typeof v === typeof value && cmp(v as number | string, value));
    }
  }
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function compare(op: string): (a: number | string, b: number | string) => boolean {
  switch (op) {
    case "<":
      return (a, b) => a < b;
    case "<=":
      return (a, b) => a <= b;
    case ">":
      return (a, b) => a > b;
    default:
      return (a, b) => a >= b;
  }
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  return pos;
}
