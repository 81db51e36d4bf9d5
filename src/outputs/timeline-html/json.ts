import type { HtmlRun } from "./types.js";

const UNSAFE_IN_SCRIPT_G = /[<\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

/**
 * The run as JSON that can stand inside `<script type="application/json">`: every `<` is written
 * `\u003c`, so no string from a log can close the element (`</script`) or open a comment (`<!--`);
 * U+2028/U+2029 are escaped too, for tools that would read it as JavaScript, and so are DEL, the C1
 * controls, and the zero-width and bidi characters (JSON.stringify writes them raw): a value kept
 * exact (a call id) still puts none of them in the page's bytes, for an editor or a terminal that
 * shows the file. One session summary,
 * and then one call, per line, so a diff of two pages reads call by call. JSON.parse gives `run`.
 */
export function runJson(run: HtmlRun): string {
  return [...runJsonPieces(run)].join("");
}

/** Calls written in one piece of runJsonPieces. */
const CALLS_PER_PIECE = 4096;

/**
 * runJson piece by piece (a session's head, then its calls a few thousand at a time): the page
 * of a million calls is never one string, and its writer can let the event loop run in between.
 */
export function* runJsonPieces(run: HtmlRun): Generator<string> {
  if (run.sessions.length === 0) {
    yield '{"sessions":[]}';
    return;
  }
  let before = '{"sessions":[\n';
  for (const { calls, ...summary } of run.sessions) {
    const head = before + JSON.stringify(summary).slice(0, -1) + ',"calls":[';
    before = ",\n";
    if (calls.length === 0) {
      yield safe(head + "]}");
      continue;
    }
    yield safe(head);
    for (let i = 0; i < calls.length; i += CALLS_PER_PIECE) {
      let piece = "";
      const end = Math.min(i + CALLS_PER_PIECE, calls.length);
      for (let k = i; k < end; k++) piece += (k === 0 ? "\n" : ",\n") + JSON.stringify(calls[k]);
      yield safe(piece);
    }
    yield "]}";
  }
  yield "]}";
}

function safe(json: string): string {
  return json.replace(UNSAFE_IN_SCRIPT_G, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
