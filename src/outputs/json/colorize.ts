/** jq's default colours (JQ_COLORS): null, false, true, numbers, strings, arrays, objects, object keys. */
const NULL = "\u001b[1;30m";
const PLAIN = "\u001b[0;39m";
const STRING = "\u001b[0;32m";
const PUNCT = "\u001b[1;39m";
const KEY = "\u001b[34;1m";
const RESET = "\u001b[0m";

/**
 * JSON text (compact or indented, valid) with jq's colours, for a terminal: keys blue, strings
 * green, null grey, brackets and punctuation bold. The text between the colour codes is unchanged,
 * so removing the escape sequences gives back the input exactly.
 */
export function colorizeJson(text: string): string {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      j++;
      // A key is a string followed (after blanks) by a colon.
      let k = j;
      while (k < n && (text[k] === " " || text[k] === "\n" || text[k] === "\t" || text[k] === "\r")) k++;
      out += (text[k] === ":" ? KEY : STRING) + text.slice(i, j) + RESET;
      i = j;
    } else if (c === "{" || c === "}" || c === "[" || c === "]" || c === ":" || c === ",") {
      out += PUNCT + c + RESET;
      i++;
    } else if (c === " " || c === "\n" || c === "\t" || c === "\r") {
      out += c;
      i++;
    } else {
      let j = i;
      while (j < n && !' \n\t\r,:]}'.includes(text[j]!)) j++;
      const word = text.slice(i, j);
      out += (word === "null" ? NULL : PLAIN) + word + RESET;
      i = j;
    }
  }
  return out;
}
