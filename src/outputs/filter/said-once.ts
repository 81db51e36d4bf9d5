/**
 * What ends filter's one warning about the agent CLI's own text (lines that are not events, so
 * never written): the stage says it at the first such line only. A `--jobs` run's files are read
 * by separate stages, each saying it at its own first; the run keeps the first of those, found by
 * this ending (run-command.ts), so that its messages are those of a run in one thread.
 */
export const SAID_ONCE = " (not an event, not written; further lines of its text are not reported)";

/** `write`, passing on only the first line that ends as filter's warning about the agent CLI's text does. */
export function saidOnce(write: (text: string) => void): (text: string) => void {
  const tail = SAID_ONCE + "\n";
  let said = false;
  return (text) => {
    if (!text.includes(tail)) return write(text);
    let out = "";
    for (let at = 0; at < text.length; ) {
      const nl = text.indexOf("\n", at);
      const end = nl < 0 ? text.length : nl + 1;
      const line = text.slice(at, end);
      at = end;
      if (line.endsWith(tail)) {
        if (said) continue;
        said = true;
      }
      out += line;
    }
    if (out !== "") write(out);
  };
}
