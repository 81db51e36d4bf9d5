/** A value from a schema or the log for a message: JSON-quoted (a newline shows as \n), cut to a readable length. */
export function quote(v: unknown, max = 60): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}
