import { readFileSync } from "node:fs";

/** What a hostile log writes into every value a page shows: markup, handlers, bidi and zero-width characters, controls, a bad link. */
export const HOSTILE =
  ' <script>document.title="pwned"</script></details></pre></div></section><img src=x onerror="document.title=1"> "onerror=alert(1) \'x\' ' +
  "\u202e\u2066 bidi\u2069 \u200b zero-width \u0007 bell \u001b[31m red [link](javascript:alert(1)) ![i](https://example.com/x.png) &#x202E; <!-- c -->";

/** Keys whose string values are text a page shows (not structure a dialect dispatches on). */
const TEXT_KEYS = new Set(
  "text thinking command cmd stdout stderr output content result model cwd file_path path pattern query url description prompt message error errorMessage aggregated_output title reason detail summary old_string new_string".split(
    " ",
  ),
);
/** Keys of ids: given the same suffix everywhere, so a call's start and end still pair. */
const ID_KEYS = new Set("id tool_use_id call_id toolCallId session_id sessionId callId parent_tool_use_id task_id thread_id".split(" "));
const ID_SUFFIX = '"><script>x</script>\u202e';

function walk(v: unknown, key: string | undefined): unknown {
  if (typeof v === "string") {
    if (key !== undefined && TEXT_KEYS.has(key)) return v + HOSTILE;
    if (key !== undefined && ID_KEYS.has(key)) return v + ID_SUFFIX;
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => walk(x, key));
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
    return out;
  }
  return v;
}

/** A fixture with HOSTILE appended to every text value and ID_SUFFIX to every id (its other lines as they are). */
export function hostileOf(path: string): string {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{")) return line;
      try {
        return JSON.stringify(walk(JSON.parse(line), undefined));
      } catch {
        return line;
      }
    })
    .join("\n");
}
