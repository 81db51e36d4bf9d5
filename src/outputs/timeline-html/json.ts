import type { HtmlRun } from "./types.js";

const UNSAFE_IN_SCRIPT_G = /[<\u2028\u2029]/g;

/**
 * The run as JSON that can stand inside `<script type="application/json">`: every `<` is written
 * `\u003c`, so no string from a log can close the element (`</script`) or open a comment (`<!--`);
 * U+2028/U+2029 are escaped too, for tools that would read it as JavaScript. One session summary,
 * and then one call, per line, so a diff of two pages reads call by call. JSON.parse gives `run`.
 */
export function runJson(run: HtmlRun): string {
  const parts = run.sessions.map(({ calls, ...summary }) => {
    const head = JSON.stringify(summary).slice(0, -1) + ',"calls":[';
    return calls.length === 0 ? head + "]}" : head + "\n" + calls.map((c) => JSON.stringify(c)).join(",\n") + "]}";
  });
  const json = parts.length === 0 ? '{"sessions":[]}' : '{"sessions":[\n' + parts.join(",\n") + "]}";
  return json.replace(UNSAFE_IN_SCRIPT_G, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
