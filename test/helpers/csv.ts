import assert from "node:assert/strict";

/**
 * A small RFC 4180 reader (quoted fields may hold , " CR LF; "" is a quote); records end in LF or
 * CRLF. Strict: a bare quote inside an unquoted field throws, and an unterminated quoted field or a
 * last record without its line terminator fails an assertion.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (c === '"') (quoted = false), i++;
      else (field += c), i++;
    } else if (c === '"' && field === "") (quoted = true), i++;
    else if (c === ",") row.push(field), (field = ""), i++;
    else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      row.push(field);
      rows.push(row);
      (row = []), (field = ""), (i += c === "\n" ? 1 : 2);
    } else if (c === '"') throw new Error(`bare quote inside an unquoted field at ${i}`);
    else (field += c), i++;
  }
  assert.equal(quoted, false, "unterminated quoted field");
  assert.equal(field === "" && row.length === 0, true, "last record lacks its line terminator");
  return rows;
}
