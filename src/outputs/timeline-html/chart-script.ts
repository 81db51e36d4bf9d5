import { MIN_BAR } from "../shared/lanes.js";
import { LANE_PX } from "./style.js";

/**
 * The part of the page's script that draws one session's chart (a session with times: without
 * any, the page lists its calls and draws none): lanes, bars, grid and axis. Plain
 * ES5-style functions (it runs inside PAGE_SCRIPT's closure, which defines `el`); positions are
 * percentages of the axis, so the chart follows the window's width. Log text goes in with
 * textContent only (through `el`) or as attribute values.
 */
export const CHART_SCRIPT = `
var LANE = ${LANE_PX}, MIN_PCT = ${MIN_BAR * 100};
var STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5, 108e5, 216e5, 432e5, 864e5];

function fmtMs(ms) {
  var sign = ms < 0 ? "-" : "", a = Math.abs(ms);
  if (a < 1000) return sign + Math.round(a) + " ms";
  if (a < 10000) return sign + (a / 1000).toFixed(2) + " s";
  if (a < 60000) return sign + (a / 1000).toFixed(1) + " s";
  var s = Math.round(a / 1000);
  if (s < 3600) return sign + Math.floor(s / 60) + " min " + (s % 60) + " s";
  return sign + Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

function tickLabel(v, step) {
  if (step < 1000) return v < 1000 ? v + " ms" : (v / 1000).toFixed(step >= 100 ? 1 : step >= 10 ? 2 : 3) + " s";
  if (step < 60000) return v / 1000 + " s";
  if (v < 36e5 || v % 36e5 !== 0) return v / 60000 + " min";
  return v / 36e5 + " h";
}

function niceStep(raw, steps) {
  for (var i = 0; i < steps.length; i++) if (steps[i] >= raw) return steps[i];
  return Math.ceil(raw / steps[steps.length - 1]) * steps[steps.length - 1];
}

function pct(v, span) { return (v / span) * 100; }

/** [position on the axis, text] pairs. */
function ticks(s, view) {
  var out = [], i, step = niceStep(view / 9, STEPS);
  for (i = 0; i <= view; i += step) out.push([i, i === 0 ? "0" : tickLabel(i, step)]);
  return out;
}

function drawChart(s, section) {
  var chart = el("div", "chart"), gutter = el("div", "gutter"), plot = el("div", "plot"), axis = el("div", "axis");
  var height = s.lanes * LANE, i, open = s.calls.some(function (c) { return c.cls === "incomplete"; });
  // Calls still open at the end run on past it, into a short tail after a dashed end line.
  var view = open ? s.span * 1.04 : s.span;
  plot.style.height = height + "px";
  gutter.style.height = height + "px";
  if (s.lanes > 1) gutter.appendChild(el("span", "head", "lane"));
  for (i = 0; i < s.lanes; i++) {
    var lab = el("span", null, String(i + 1));
    lab.style.top = i * LANE + "px";
    gutter.appendChild(lab);
    if (i > 0) {
      var sep = el("div", "lane-sep");
      sep.style.top = i * LANE + "px";
      plot.appendChild(sep);
    }
  }
  var tk = ticks(s, view);
  for (i = 0; i < tk.length; i++) {
    var x = pct(tk[i][0], view);
    if (i > 0) {
      var g = el("div", "grid");
      g.style.left = x + "%";
      plot.appendChild(g);
    }
    var t = el("span", i === 0 ? "first" : x > 97 ? "last" : null, tk[i][1]);
    t.style.left = x + "%";
    axis.appendChild(t);
  }
  if (open) {
    var end = el("div", "end-mark");
    end.style.left = pct(s.span, view) + "%";
    plot.appendChild(end);
  }
  for (i = 0; i < s.calls.length; i++) {
    if (s.calls[i].bg !== undefined) plot.appendChild(drawBackground(s, s.calls[i], view));
    plot.appendChild(drawBar(s, s.calls[i], view));
  }
  chart.appendChild(gutter);
  chart.appendChild(plot);
  chart.appendChild(axis);
  chart.appendChild(el("p", "axis-title", "time since the session's first logged event" + (open ? "; dashed line: the session's end" : "")));
  section.appendChild(chart);
}

// A background shell's command ran on after its call completed: a hatched part, up to its end.
function drawBackground(s, c, view) {
  var g = el("div", "bg s-" + c.cls), left = pct(c.x1, view), w = Math.max(pct(c.bg - c.x1, view), MIN_PCT);
  g.style.left = Math.min(left, 100 - w) + "%";
  g.style.width = w + "%";
  g.style.top = c.lane * LANE + 4 + "px";
  g.setAttribute("data-seq", String(c.seq));
  g.setAttribute("aria-hidden", "true");
  return g;
}

function drawBar(s, c, view) {
  var b = el("div", "bar s-" + c.cls + (c.approx ? " approx" : ""));
  // An open call ends at the session's end (the dashed line), not at the end of the drawn axis.
  var x1 = c.x1;
  var w = Math.max(pct(x1 - c.x0, view), MIN_PCT), left = Math.min(pct(c.x0, view), 100 - w);
  b.style.left = left + "%";
  b.style.width = w + "%";
  b.style.top = c.lane * LANE + 4 + "px";
  b.setAttribute("data-call-id", c.id);
  b.setAttribute("data-seq", String(c.seq));
  b.setAttribute("tabindex", "0");
  // A line without text (no target) is left out: "Ran subagent task; error", not "…task; ; error".
  b.setAttribute("aria-label", tipLines(s, c).filter(function (l) { return l !== ""; }).join("; "));
  var label = el("span", "label");
  label.appendChild(el("span", "n", c.seq));
  label.appendChild(el("span", "txt", " \\u00b7 " + (c.target.split("\\n")[0] || c.action)));
  b.appendChild(label);
  return b;
}
`;
