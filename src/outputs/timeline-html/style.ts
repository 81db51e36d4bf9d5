/** Lane height in px; the script places bars with the same number. */
export const LANE_PX = 30;

/** The page's stylesheet: system fonts only, nothing fetched. */
export const PAGE_STYLE = `
:root { --ok: #2f9e62; --fail: #d64545; --refused: #e9a23b; --err: #8a4fbf; --open: #5b7fa6; --none: #9aa3ad;
  --ink: #1f2328; --muted: #59636e; --line: #d8dee4; --bg: #ffffff; --panel: #f6f8fa; --lane: ${LANE_PX}px; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; padding: 20px 28px 40px; color: var(--ink); background: var(--bg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif; }
.mono, .target, .sid { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace; }
.mono, .target, .sid, .t, .label { unicode-bidi: isolate; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 17px; margin: 0 0 10px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
h2 .sid { font-size: 12px; font-weight: normal; color: var(--muted); }
#overview { margin: 0 0 10px; color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 0 0 18px; padding: 0; list-style: none; font-size: 13px; }
.legend li { display: flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; flex: none; vertical-align: -2px; }
.s-success { background: var(--ok); color: #fff; }
.s-failure { background: var(--fail); color: #fff; }
.s-refused { background: var(--refused); color: #1f2328; }
.s-error { background: var(--err); color: #fff; }
.s-none { background: var(--none); color: #1f2328; }
.s-incomplete { color: #1d3550; background: repeating-linear-gradient(135deg, #c9d9ec 0 5px, #a9c1de 5px 10px); }
.swatch.s-incomplete, .bar.s-incomplete { box-shadow: inset 0 0 0 1px var(--open); }
.session { border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px 14px; margin: 0 0 22px; }
.summary { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0 0 14px; font-size: 13.5px; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; overflow-wrap: anywhere; }
.chips { display: inline-flex; flex-wrap: wrap; gap: 4px 10px; }
.chip { display: inline-flex; align-items: center; gap: 5px; }
.chip .swatch { width: 11px; height: 11px; }
.cut { color: var(--fail); font-weight: 600; }
.note { margin: 0 0 10px; padding: 6px 10px; background: #fff8e5; border-left: 3px solid var(--refused); font-size: 13px; }
.chart { display: grid; grid-template-columns: 52px minmax(0, 1fr); margin: 22px 0 6px; }
.gutter { position: relative; font-size: 11px; color: var(--muted); }
.gutter span { position: absolute; right: 8px; line-height: var(--lane); }
.gutter .head { top: -20px; line-height: 16px; }
.plot { position: relative; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; }
.lane-sep { position: absolute; left: 0; right: 0; border-top: 1px solid #eaeef2; }
.grid { position: absolute; top: 0; bottom: 0; border-left: 1px solid #dfe4ea; }
.end-mark { position: absolute; top: -6px; bottom: -6px; border-left: 2px dashed var(--ink); z-index: 1; }
.bar { position: absolute; height: calc(var(--lane) - 8px); min-width: 3px; border-radius: 3px; cursor: default;
  box-shadow: inset 0 0 0 1px rgba(0, 0, 0, .18); container-type: inline-size; outline-offset: 1px; }
.bg { position: absolute; height: calc(var(--lane) - 8px); border-radius: 0 3px 3px 0; opacity: .45; pointer-events: none;
  background-image: repeating-linear-gradient(135deg, rgba(255, 255, 255, .55) 0 4px, transparent 4px 8px); }
.bar.approx { box-shadow: none; border: 2px dashed #1f2328; opacity: .85; }
.bar.hl, .bar:focus { outline: 2px solid #0969da; z-index: 2; }
.label { display: block; padding: 0 5px; font-size: 12px; line-height: calc(var(--lane) - 8px); white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; text-align: center; }
.label .n { font-weight: 600; }
@container (min-width: 72px) { .label { text-align: left; } }
@container (max-width: 71.9px) { .label .txt { display: none; } }
@container (max-width: 19.9px) { .label { display: none; } }
.axis { grid-column: 2; position: relative; height: 22px; font-size: 11.5px; color: var(--muted); }
.axis span { position: absolute; top: 3px; transform: translateX(-50%); white-space: nowrap; }
.axis span.first { transform: none; }
.axis span.last { transform: translateX(-100%); }
.axis-title { grid-column: 2; margin: 0; font-size: 12px; color: var(--muted); text-align: center; }
details.calls { margin-top: 10px; }
details.calls summary { cursor: pointer; color: var(--muted); font-size: 13px; margin-bottom: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; table-layout: fixed; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eaeef2; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
th { color: var(--muted); font-weight: 600; border-bottom-color: var(--line); }
td.n, th.n { text-align: right; }
td .path { display: flex; min-width: 0; }
td .path .dir { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
td .path .base { flex: 0 0 auto; max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
tr.hl td { background: #ddf4ff; }
col.c-seq { width: 42px; } col.c-lane { width: 48px; } col.c-start { width: 84px; } col.c-dur { width: 84px; }
col.c-status { width: 180px; } col.c-action { width: 210px; }
#tip { position: fixed; z-index: 10; max-width: 520px; padding: 8px 10px; border-radius: 6px; background: #1f2328; color: #f6f8fa;
  font-size: 12.5px; box-shadow: 0 4px 14px rgba(0, 0, 0, .25); pointer-events: none; }
#tip .t { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; }
#tip .target { color: #b6e3ff; max-height: 12em; overflow: hidden; }
#tip strong { display: block; }
.empty { color: var(--muted); font-style: italic; margin: 0; }
.failed { color: var(--fail); font-weight: 600; }
`;
