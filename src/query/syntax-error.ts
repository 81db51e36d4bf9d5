/**
 * A predicate the user wrote (a `--where` clause, a path, a regex, a time) that cannot be used.
 * The message says what is wrong and where; the CLI reports it as a usage error (exit 2).
 */
export class FilterSyntaxError extends Error {
  override name = "FilterSyntaxError";
}
