import { CHART_SCRIPT } from "./chart-script.js";
import { HOVER_SCRIPT } from "./hover-script.js";

/**
 * The page's one inline script: reads the JSON block, builds each session's summary, chart and
 * call table, wires the tooltip, and marks <body data-rendered="ok"> when it is done ("error" if
 * anything threw, so a test can tell). Strings from the log are only ever set as textContent or
 * attribute values, never parsed as HTML. No network, no eval, no timers: CSP allows it as is.
 */
export const PAGE_SCRIPT = `(function () {
"use strict";
var body = document.body, ALL = [];
window.addEventListener("error", function () { body.setAttribute("data-rendered", "error"); });

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== null && text !== undefined) e.textContent = String(text);
  return e;
}
function plural(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }
function statusText(st) { return st === "" ? "no result" : st; }
${CHART_SCRIPT}
function summary(s) {
  var dl = el("dl", "summary");
  function row(name, value) {
    dl.appendChild(el("dt", null, name));
    var dd = el("dd");
    if (typeof value === "string") dd.textContent = value; else dd.appendChild(value);
    dl.appendChild(dd);
  }
  row("Prompt", s.prompt === null ? "not logged" : s.prompt);
  row("Model", s.model === null ? "not logged" : s.model);
  if (s.cwd !== null) row("Folder", el("span", "mono", s.cwd));
  row("Started", s.startedAt === null ? "not logged" : s.startedAt.replace("T", " ").replace("Z", " UTC"));
  row("Wall time", s.durationMs === null ? "not logged" :
    fmtMs(s.durationMs) + (s.durationSource === "timestamps" ? " (first to last logged time; no result)" : (s.words.duration === null ? " (the result's)" : " (the result's " + s.words.duration + ")")));
  var chips = el("span", "chips"), i;
  chips.appendChild(el("span", null, s.calls.length + (s.lanes > 1 ? " (drawn in " + s.lanes + " lanes)" : "") + (s.byStatus.length ? " \\u2014" : "")));
  for (i = 0; i < s.byStatus.length; i++) {
    var chip = el("span", "chip");
    chip.appendChild(el("span", "swatch s-" + clsOf(s, s.byStatus[i][0])));
    chip.appendChild(el("span", null, s.byStatus[i][1] + " " + statusText(s.byStatus[i][0])));
    chips.appendChild(chip);
  }
  row("Tool calls", chips);
  if (s.outcome === "cut_off") row("Result", el("span", "cut", "cut off: no result event; the log ends at line " + s.lastLine));
  else row("Result", s.outcome === "error" ? "error (" + s.words.failed + ")" : s.resultSubtype === null ? "finished" : s.resultSubtype);
  if (s.agentMessage !== null) row("The agent CLI said", el("span", "cut", s.agentMessage));
  row("Log", s.file + ", lines " + s.firstLine + "\\u2013" + s.lastLine);
  return dl;
}

function clsOf(s, status) {
  for (var i = 0; i < s.calls.length; i++) if (s.calls[i].status === status) return s.calls[i].cls;
  return "none";
}

function table(s) {
  var d = el("details", "calls"), t = el("table"), cg = el("colgroup"), head = el("tr"), tb = el("tbody"), i;
  if (s.calls.length <= 100) d.open = true;
  d.appendChild(el("summary", null, plural(s.calls.length, "tool call") + ", in start order"));
  var cols = [["c-seq", "#", "n"], ["c-lane", "lane", "n"], ["c-start", "start", "n"], ["c-dur", "duration", "n"],
    ["c-status", "status"], ["c-action", "action"], ["c-target", "target"]];
  for (i = 0; i < cols.length; i++) {
    cg.appendChild(el("col", cols[i][0]));
    head.appendChild(el("th", cols[i][2] || null, cols[i][1]));
  }
  t.appendChild(cg);
  t.appendChild(el("thead")).appendChild(head);
  for (i = 0; i < s.calls.length; i++) {
    var c = s.calls[i], tr = el("tr"), st = el("td");
    tr.setAttribute("data-seq", String(c.seq));
    tr.appendChild(el("td", "n", c.seq));
    tr.appendChild(el("td", "n", s.axis === "time" ? c.lane + 1 : "\u2014"));
    tr.appendChild(el("td", "n", s.axis === "time" && (!c.approx || c.missing === "end") ? "+" + fmtMs(c.x0) : "\\u2014"));
    tr.appendChild(el("td", "n", c.ms === null ? "\\u2014" : fmtMs(c.ms)));
    st.appendChild(el("span", "swatch s-" + c.cls));
    st.appendChild(document.createTextNode(" " + statusText(c.status) + (c.exit !== null ? ", exit " + c.exit : "")));
    tr.appendChild(st);
    tr.appendChild(el("td", null, c.action + (c.parent !== undefined ? " (subagent of #" + c.parent + ")" : "")));
    var tg = el("td", "target", c.path ? null : c.target), cut = c.path ? c.target.search(/[^\\/\\\\]*$/) : 0;
    // A path is cut in its middle: its folders give way, its file name stays.
    if (c.path) tg.appendChild(el("span", "path")).append(el("span", "dir", c.target.slice(0, cut)), el("span", "base", c.target.slice(cut)));
    tg.title = c.target;
    tr.appendChild(tg);
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  d.appendChild(t);
  return d;
}

function render(run) {
  var main = document.getElementById("sessions"), files = [], calls = 0, none = false, bars = false, i, j;
  for (i = 0; i < run.sessions.length; i++) {
    var s = run.sessions[i];
    ALL.push(s);
    calls += s.calls.length;
    if (s.axis === "time" && s.calls.length > 0) bars = true;
    if (files.indexOf(s.file) < 0) files.push(s.file);
    for (j = 0; j < s.calls.length; j++) if (s.calls[j].cls === "none") none = true;
    var sec = el("section", "session");
    sec.setAttribute("data-session", String(i));
    var h = el("h2", null, "Session " + s.index);
    if (s.sessionId !== null) h.appendChild(el("span", "sid", s.sessionId));
    sec.appendChild(h);
    sec.appendChild(summary(s));
    if (s.axis === "sequence" && s.calls.length > 0) {
      sec.appendChild(el("p", "note", "This log holds no times (cursor-agent's 2025 format, Claude Code's before mid-2026, Codex's): no chart is drawn. The calls are listed below in the order they started; how long each took, and which ran at the same time, is not in the log."));
    }
    if (s.calls.some(function (c) { return c.bg !== undefined; })) {
      sec.appendChild(el("p", "note", "Hatched: a background shell's command running on after its call completed, up to the " + (s.words.taskEnd === null ? "line" : s.words.taskEnd) + " that ended it."));
    }
    if (s.calls.some(function (c) { return c.approx; })) {
      sec.appendChild(el("p", "note", "Dashed bars: the log lacks the call's start or end time. A call with one of the two is drawn at that time, with the least width; one with neither at the start of the call before it."));
    }
    if (s.calls.length === 0) sec.appendChild(el("p", "empty", "No tool calls in this session."));
    else {
      if (s.axis === "time") drawChart(s, sec);
      sec.appendChild(table(s));
    }
    main.appendChild(sec);
  }
  document.querySelector(".legend .opt-none").hidden = !none;
  document.getElementById("overview").textContent = run.sessions.length === 0 ? "No sessions in the input." :
    plural(run.sessions.length, "session") + ", " + plural(calls, "tool call") + " from " +
    (files.length > 4 ? files.slice(0, 3).join(", ") + " and " + (files.length - 3) + " more files" : files.join(", ")) +
    "." + (bars ? " Hover or focus a bar for its details." : "");
}

${HOVER_SCRIPT}
try {
  render(JSON.parse(document.getElementById("timeline-data").textContent));
  if (body.getAttribute("data-rendered") !== "error") body.setAttribute("data-rendered", "ok");
} catch (err) {
  body.setAttribute("data-rendered", "error");
  document.getElementById("sessions").appendChild(el("p", "failed", "Could not draw the timeline: " + (err && err.message)));
}
})();
`;
