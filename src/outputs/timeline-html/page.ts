import { createHash } from "node:crypto";
import { runJsonPieces } from "./json.js";
import { PAGE_SCRIPT } from "./script.js";
import { PAGE_STYLE } from "./style.js";
import type { HtmlRun } from "./types.js";

/** `'sha256-…'`: a CSP source that allows the one inline script or style with exactly this text. */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * No network at all, and no inline code but the page's own: its one script and its one style
 * element are allowed by their hashes, not by 'unsafe-inline', so nothing a log could smuggle
 * into the page (a tag, a handler, a style attribute) would run even if it got past the escaping.
 */
const CSP = `default-src 'none'; style-src ${hashSource(PAGE_STYLE)}; script-src ${hashSource(PAGE_SCRIPT)}`;

/**
 * The whole page: a fixed skeleton (nothing from the log), the run's data as one JSON block, and
 * the script that draws it. Deterministic: the same input gives the same bytes (no generation
 * date, no randomness, no locale-dependent formatting). In pieces (see runJsonPieces).
 */
export function* timelineHtmlPage(run: HtmlRun): Generator<string> {
  yield PAGE_HEAD;
  yield* runJsonPieces(run);
  yield PAGE_TAIL;
}

const PAGE_HEAD = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cursorlog timeline --format html">
<title>cursorlog timeline</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Tool calls over time</h1>
<p id="overview"></p>
<ul class="legend">
<li><span class="swatch s-success"></span>success</li>
<li><span class="swatch s-failure"></span>failure (non-zero exit)</li>
<li><span class="swatch s-refused"></span>rejected or permission denied</li>
<li><span class="swatch s-error"></span>error or timeout</li>
<li><span class="swatch s-incomplete"></span>incomplete: still running when the session ended</li>
<li class="opt-none" hidden><span class="swatch s-none"></span>no result</li>
</ul>
</header>
<main id="sessions"></main>
<div id="tip" role="tooltip" hidden></div>
<noscript><p class="failed">This page draws its charts with an inline script: allow JavaScript to see them.</p></noscript>
<script type="application/json" id="timeline-data">`;

const PAGE_TAIL = `</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
