/** The page's stylesheet: system fonts only, nothing fetched; phones (no horizontal scroll but in <pre>) and print (folded blocks open). */
export const HTML_STYLE = `
:root { --ok: #1a7f37; --fail: #cf222e; --refused: #9a6700; --bg-ok: #dafbe1; --bg-fail: #ffebe9; --ink: #1f2328;
  --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa; --link: #0969da; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 62rem; padding: 16px 14px 40px; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif;
  overflow-wrap: anywhere; }
code, pre, .target, .sid { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: 13px; }
code, .target, .sid, .facts dd, .event, .line { unicode-bidi: isolate; }
pre { margin: 6px 0; padding: 8px 10px; background: var(--panel); border-radius: 6px; overflow-x: auto; white-space: pre; max-width: 100%; }
a { color: var(--link); }
h1 { font-size: 20px; margin: 0 0 12px; }
.run { border-top: 3px solid var(--line); padding-top: 10px; margin-top: 24px; }
.run:first-of-type { margin-top: 0; }
.run > h2 { font-size: 18px; margin: 0 0 6px; }
.run > h2 a { color: inherit; text-decoration: none; }
.sid { font-weight: normal; color: var(--muted); font-size: 13px; }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0 0 12px; font-size: 14px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.prompt { margin: 12px 0; padding: 8px 12px; border-left: 4px solid var(--link); background: #ddf4ff; white-space: pre-wrap; }
.prompt::before { content: "Prompt"; display: block; font-size: 12px; font-weight: 600; color: var(--muted); }
.msg { margin: 10px 0; }
.msg > :first-child { margin-top: 0; }
.msg table { border-collapse: collapse; display: block; overflow-x: auto; }
.msg th, .msg td { border: 1px solid var(--line); padding: 3px 8px; }
.msg.final { border-left: 4px solid var(--ok); padding-left: 12px; }
.msg.final::before { content: "Final answer"; display: block; font-size: 12px; font-weight: 600; color: var(--muted); }
.thinking summary, .call summary { cursor: pointer; color: var(--muted); font-size: 13px; }
.call { margin: 4px 0; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
.call:target { outline: 3px solid var(--link); }
.call.failed { border-color: var(--fail); background: #fff8f7; }
.call.refused { border-color: var(--refused); }
.call.running { border-style: dashed; }
.line .mark { text-decoration: none; font-weight: 700; }
.ok .mark, .event.ended .mark { color: var(--ok); }
.failed .mark { color: var(--fail); }
.refused .mark { color: var(--refused); }
.background .mark, .subagent .mark, .running .mark { color: var(--link); }
.target { white-space: pre-wrap; }
.more, .cut { color: var(--muted); font-size: 13px; }
.call details { margin: 2px 0; }
.diff .add { color: var(--ok); background: var(--bg-ok); }
.diff .del { color: var(--fail); background: var(--bg-fail); }
.diff .hunk { color: var(--link); }
.event { margin: 6px 0; }
.sub { border-left: 3px solid var(--line); padding-left: 10px; margin-left: 4px; }
.d2 { margin-left: 18px; } .d3 { margin-left: 32px; } .d4 { margin-left: 46px; }
.outcome { margin: 14px 0 4px; padding: 8px 12px; border-radius: 6px; background: var(--panel); }
.outcome.finished { background: var(--bg-ok); }
.outcome.error, .outcome.unfinished { background: var(--bg-fail); }
.index { overflow-x: auto; }
.index table { border-collapse: collapse; font-size: 13px; }
.index th, .index td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
.index td.outcome { font-weight: 600; }
footer { margin-top: 28px; color: var(--muted); font-size: 12px; }
@media (max-width: 600px) { body { padding: 10px 8px 30px; font-size: 14px; } .facts { grid-template-columns: minmax(0, 1fr); } .facts dt { margin-top: 4px; } }
@media print {
  body { max-width: none; padding: 0; }
  details::details-content { content-visibility: visible; display: contents; }
  pre { white-space: pre-wrap; overflow: visible; }
  .call { break-inside: avoid-page; }
}
`;
