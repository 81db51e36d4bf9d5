import assert from "node:assert/strict";

/** The elements the page may hold: ours and markdown-it's (no form, iframe, img, object, embed, base, link, meta refresh). */
const ALLOWED = new Set(
  "html head meta title style script body section h1 h2 h3 h4 h5 h6 a dl dt dd div p b code pre span details summary footer ul ol li em strong del s blockquote hr br table thead tbody tr th td".split(" "),
);

export interface PageFacts {
  ids: string[];
  hrefs: string[];
  scripts: number;
}

/**
 * A strict reading of a page `show --format html` wrote: every tag is one of ALLOWED, no attribute
 * is an event handler (`on…`), a style or a src, every href is http(s), mailto or an anchor of the
 * page, ids are unique, exactly one <script> (the page's own, in the head), no raw control, bidi or
 * zero-width character anywhere, and the text between tags holds no `<`.
 */
export function checkPage(page: string, what = "page"): PageFacts {
  assert.match(page, /^<!DOCTYPE html>\n<html lang="en">\n<head>\n/, `${what}: the page's own head first`);
  assert.ok(page.endsWith("</body>\n</html>\n"), `${what}: the page's end last`);
  assert.doesNotMatch(page, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/, `${what}: no raw control, bidi or zero-width character`);
  const ids: string[] = [];
  const hrefs: string[] = [];
  let scripts = 0;
  // The style and script elements' text is ours: skipped as a whole.
  const body = page.replace(/<style>[\s\S]*?<\/style>/, "<style></style>").replace(/<script>[\s\S]*?<\/script>/, () => {
    scripts++;
    return "<script></script>";
  });
  const tag = /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[^\s=>\/]+(?:="[^"<>]*")?)*)\s*(\/?)>|<!DOCTYPE html>/g;
  let at = 0;
  for (const m of body.matchAll(tag)) {
    const text = body.slice(at, m.index);
    assert.ok(!text.includes("<") && !text.includes(">"), `${what}: text between tags holds no < or > (${JSON.stringify(text.slice(0, 120))})`);
    at = m.index! + m[0].length;
    if (m[2] === undefined) continue;
    const name = m[2].toLowerCase();
    assert.ok(ALLOWED.has(name), `${what}: element <${name}> is not one the page writes`);
    if (name === "script" && m[1] === "") scripts += 0;
    for (const a of (m[3] ?? "").matchAll(/\s+([^\s=>\/]+)(?:="([^"]*)")?/g)) {
      const attr = a[1]!.toLowerCase();
      const value = a[2] ?? "";
      assert.ok(!attr.startsWith("on"), `${what}: no event handler attribute (${attr})`);
      assert.ok(!["style", "src", "srcset", "action", "formaction", "background", "xlink:href"].includes(attr), `${what}: no ${attr} attribute`);
      if (attr === "id") ids.push(value);
      if (attr === "href") {
        hrefs.push(value);
        assert.match(value, /^(?:https?:|mailto:|#[A-Za-z0-9_.-]+$|[A-Za-z0-9_-][A-Za-z0-9_.-]*\.html$)/i, `${what}: a safe href (${value})`);
      }
      if (attr === "http-equiv") assert.equal(value, "Content-Security-Policy", `${what}: no meta refresh`);
    }
  }
  assert.ok(!body.slice(at).includes("<"), `${what}: nothing after the last tag`);
  // Only the page's own script: one <script> element in all, and no other `<script` text.
  assert.equal(page.match(/<script/gi)?.length ?? 0, 1, `${what}: one <script> (the page's own)`);
  assert.equal(scripts, 1, `${what}: the page's own script`);
  const seen = new Set<string>();
  for (const id of ids) {
    assert.ok(!seen.has(id), `${what}: id ${id} is unique`);
    seen.add(id);
  }
  for (const h of hrefs) if (h.startsWith("#")) assert.ok(seen.has(h.slice(1)), `${what}: the anchor ${h} is on the page`);
  return { ids, hrefs, scripts };
}
