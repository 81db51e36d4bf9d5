/**
 * The part of the page's script that explains a call: the tooltip of a bar (on hover or keyboard
 * focus; also the bar's aria-label) and the highlight that links a bar to its row in the table.
 * Runs inside PAGE_SCRIPT's closure (`el`, `ALL`, `fmtMs`, `statusText`); text only via textContent.
 */
export const HOVER_SCRIPT = `
function tipLines(s, c) {
  var lines = ["#" + c.seq + " " + c.action + (c.parent !== undefined ? " (subagent of #" + c.parent + ")" : ""), c.target];
  var st = statusText(c.status) + (c.exit !== null ? ", exit " + c.exit : "");
  if (c.ms !== null) st += " \\u00b7 " + fmtMs(c.ms);
  else if (c.cls === "incomplete") st += " \\u00b7 still running when the session ended";
  else st += " \\u00b7 duration not logged";
  lines.push(st);
  // Where the bar is, in the words of the page's note on dashed bars (only a timed session has bars).
  if (s.axis === "time") {
    if (c.missing === "start") lines.push("start not logged: drawn at its completion, +" + fmtMs(c.x0));
    else if (c.missing === "end") lines.push("started at +" + fmtMs(c.x0) + "; end not logged: drawn with the least width");
    else if (c.missing === "both") lines.push("time not logged: drawn at the start of the call before it");
    else lines.push("started at +" + fmtMs(c.x0));
  }
  if (c.bg !== undefined) {
    lines.push("in the background until +" + fmtMs(c.bg) + (c.bgMs !== null ? " \u00b7 " + fmtMs(c.bgMs) + " from its start" : ""));
  }
  lines.push("lane " + (c.lane + 1) + " \\u00b7 line " + c.line);
  return lines;
}

var tip = document.getElementById("tip"), lit = [];
function callAt(node) {
  var sec = node.closest(".session"), row = node.closest(".bar, tr[data-seq]");
  if (!sec || !row) return null;
  var s = ALL[Number(sec.getAttribute("data-session"))], seq = Number(row.getAttribute("data-seq"));
  return { s: s, c: s.calls[seq - 1], sec: sec, seq: seq, bar: row.classList.contains("bar") };
}
function light(hit) {
  for (var i = 0; i < lit.length; i++) lit[i].classList.remove("hl");
  lit = hit ? Array.prototype.slice.call(hit.sec.querySelectorAll('[data-seq="' + hit.seq + '"]')) : [];
  for (i = 0; i < lit.length; i++) lit[i].classList.add("hl");
}
function show(hit, x, y) {
  tip.textContent = "";
  var lines = tipLines(hit.s, hit.c);
  tip.appendChild(el("strong", null, lines[0]));
  if (lines[1]) tip.appendChild(el("div", "t target", lines[1]));
  for (var i = 2; i < lines.length; i++) tip.appendChild(el("div", "t", lines[i]));
  tip.hidden = false;
  var r = tip.getBoundingClientRect();
  tip.style.left = Math.max(4, Math.min(x + 14, window.innerWidth - r.width - 8)) + "px";
  tip.style.top = (y + 16 + r.height > window.innerHeight ? Math.max(4, y - r.height - 10) : y + 16) + "px";
}
function over(e) {
  var hit = e.target instanceof Element ? callAt(e.target) : null;
  light(hit);
  if (!hit || !hit.bar) { tip.hidden = true; return; }
  var r = e.target.getBoundingClientRect();
  show(hit, e.type === "focusin" ? r.left : e.clientX, e.type === "focusin" ? r.bottom : e.clientY);
}
document.addEventListener("mouseover", over);
document.addEventListener("mousemove", function (e) { if (!tip.hidden) over(e); });
document.addEventListener("focusin", over);
document.addEventListener("focusout", function () { tip.hidden = true; light(null); });

`;
