import type { EventEmitter } from "node:events";
import { Help, type Command } from "commander";

/** Help is wrapped at this width whatever the terminal (as jq and rg); a test keeps every line within it. */
export const HELP_WIDTH = 80;

/** The examples moved out of each command's before-help text (commander keeps them as listeners). */
const examples = new WeakMap<Command, string>();
/**
 * The text after the options (formats, columns, exit status), as written; reflowed to HELP_WIDTH
 * the first time help is printed, not at every start (it took ~1.5 ms of each run).
 */
const afterText = new WeakMap<Command, { text: string; reflowed: boolean }>();

function afterHelpText(cmd: Command): string {
  const after = afterText.get(cmd);
  if (after === undefined) return "";
  if (!after.reflowed) Object.assign(after, { text: reflow(after.text, HELP_WIDTH), reflowed: true });
  return after.text;
}

function listenerText(cmd: Command, event: string): string {
  let text = "";
  // addHelpText(position, …) registers a "<position>Help" listener that writes the text it was given.
  for (const listener of (cmd as unknown as EventEmitter).listeners(event)) listener({ error: false, command: cmd, write: (s: string) => (text += s) });
  return text;
}

/**
 * The text a command's addHelpText("before", …) gave: its examples. After layoutHelp() they are
 * printed below the description instead of above the usage line.
 */
export function beforeHelpText(cmd: Command): string {
  const moved = examples.get(cmd);
  if (moved !== undefined) return moved;
  return listenerText(cmd, "beforeHelp");
}

/**
 * Every command's help in the order of jq and rg: `Usage:` first, then the description, then the
 * examples, then the options; wrapped at 80 columns.
 */
export function layoutHelp(cmd: Command): void {
  examples.set(cmd, beforeHelpText(cmd));
  afterText.set(cmd, { text: listenerText(cmd, "afterHelp"), reflowed: false });
  (cmd as unknown as EventEmitter).removeAllListeners("beforeHelp");
  (cmd as unknown as EventEmitter).removeAllListeners("afterHelp");
  cmd.configureHelp({
    formatHelp(c: Command, helper: Help): string {
      const base = Help.prototype.formatHelp.call(helper, c, helper) + afterHelpText(c);
      const ex = examples.get(c)?.trimEnd();
      if (!ex) return base;
      const lines = base.split("\n");
      // "Usage: …", "", then the description's lines up to a blank line.
      let at = 2;
      if (c.description() !== "") {
        while (at < lines.length && lines[at] !== "") at++;
        at++;
      }
      lines.splice(at, 0, ex, "");
      return lines.join("\n");
    },
  });
  for (const sub of cmd.commands) layoutHelp(sub);
}

/** A row of a two-column table: indent, a term, two or more blanks, its text. */
const TABLE_ROW = /^( {0,4})(\S(?:\S| (?! ))*)( {2,})(?=\S)/;

/**
 * Text written for a wider screen, reflowed to `width` columns: a block (consecutive lines whose
 * text starts at the same column: a paragraph, or a table row and its continuation lines) is
 * wrapped again only when one of its lines is too long; every other line is left as written.
 */
export function reflow(text: string, width: number): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = lines[i]!;
    const row = TABLE_ROW.exec(first);
    const col = row ? row[0].length : first.length - first.trimStart().length;
    let end = i + 1;
    while (first.trim() !== "" && end < lines.length) {
      const l = lines[end]!;
      const indent = l.length - l.trimStart().length;
      if (l.trim() === "" || indent !== col || (col <= 4 && TABLE_ROW.test(l))) break;
      end++;
    }
    const block = lines.slice(i, end);
    if (first.trim() === "" || block.every((l) => [...l].length <= width)) {
      out.push(...block);
    } else {
      const words = block.map((l, k) => (k === 0 ? l.slice(col) : l.trimStart())).join(" ").split(/ +/);
      let line = first.slice(0, col);
      let empty = true;
      for (const w of words) {
        if (!empty && [...line].length + 1 + [...w].length > width) {
          out.push(line);
          line = " ".repeat(col);
          empty = true;
        }
        line += (empty ? "" : " ") + w;
        empty = false;
      }
      out.push(line);
    }
    i = end;
  }
  return out.join("\n");
}
