import { closeSync, constants, lstatSync, mkdirSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, join } from "node:path";
import { htmlRenderer, PAGE_TAIL, pageHead } from "./page.js";
import type { ContentBudget } from "./content.js";
import { html } from "./escape.js";
import { INDEX_COLUMNS, indexRow, type IndexRow } from "./index-row.js";
import type { Renderer, SessionHead } from "../render.js";

/**
 * A file of the folder written under a temporary name (created, never opened if it exists: no
 * symbolic link followed, no device written into), renamed over its name when whole. A name that
 * holds something other than a regular file (a folder, a link, a device) is not replaced.
 */
class TempFile {
  private readonly fd: number;
  private readonly temp: string;
  private open = true;
  private static readonly live = new Set<TempFile>();
  private static hooked = false;

  constructor(
    private readonly dir: string,
    readonly name: string,
  ) {
    this.temp = join(dir, `.${name}.cursorlog-${process.pid}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    this.fd = openSync(this.temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
    TempFile.live.add(this);
    // Interrupted or failed: no temporary file left behind.
    if (!TempFile.hooked) {
      TempFile.hooked = true;
      process.on("exit", () => {
        for (const f of TempFile.live) f.discard();
      });
    }
  }

  write(s: string): void {
    if (s === "") return;
    const b = Buffer.from(s, "utf8");
    let at = 0;
    while (at < b.length) at += writeSync(this.fd, b, at, b.length - at);
  }

  /** Whole: it takes its name (what was there, a regular file, replaced). */
  commit(): void {
    closeSync(this.fd);
    this.open = false;
    const final = join(this.dir, this.name);
    let st;
    try {
      st = lstatSync(final);
    } catch {
      st = undefined;
    }
    if (st !== undefined && !st.isFile()) {
      this.discard();
      throw new Error(`cannot write ${final}: it is not a regular file (left as it is)`);
    }
    renameSync(this.temp, final);
    TempFile.live.delete(this);
  }

  discard(): void {
    TempFile.live.delete(this);
    if (this.open) {
      this.open = false;
      try {
        closeSync(this.fd);
      } catch {
        // closed already
      }
    }
    try {
      unlinkSync(this.temp);
    } catch {
      // gone already
    }
  }
}

/**
 * `show --format html -o DIR`: the folder the pages go to. Each page's name comes from its input's
 * file name (never from the log): letters, digits, `.`, `_`, `-` kept, anything else `_`, its
 * extension (.ndjson, .jsonl, .json, .gz) removed, no leading dot, then `-<run>.html`.
 */
export class PageDir {
  private readonly used = new Set<string>(["index.html"]);

  private constructor(readonly path: string) {}

  /** DIR, an existing folder (a name ending in `/` is created), at the end of its links; throws why it cannot be written into. */
  static open(path: string): PageDir {
    let st;
    try {
      st = statSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || !path.endsWith("/")) throw err;
      mkdirSync(path, 0o777);
      st = statSync(path);
    }
    if (!st.isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
    return new PageDir(realpathSync(path));
  }

  pageName(file: string, index: number): string {
    let base = basename(file)
      .replace(/\.gz$/i, "")
      .replace(/\.(ndjson|jsonl|json|log)$/i, "")
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .replace(/^[.]+/, "")
      .slice(0, 100);
    if (base === "" || file === "<stdin>") base = file === "<stdin>" ? "stdin" : "run";
    let name = `${base}-${index}.html`;
    for (let n = 2; this.used.has(name); n++) name = `${base}-${index}-${n}.html`;
    this.used.add(name);
    return name;
  }

  create(name: string): TempFile {
    return new TempFile(this.path, name);
  }
}

const INDEX_STYLE_NOTE = "The runs of this folder's pages, in the order read.";

/**
 * The renderer of `-o DIR`: each run's blocks go to its own page (a new htmlRenderer per run,
 * written as they come, renamed into place when the run's footer is written), and a row per run
 * to index.html, which links to each page and is renamed into place when the whole input is read.
 * Every method writes to the files and returns "" (nothing on stdout).
 */
export function dirRenderer(dir: PageDir, budget?: ContentBudget): Renderer {
  const index = dir.create("index.html");
  index.write(pageHead("cursorlog show: runs") + `<h1>Runs</h1>\n<p class="more">${INDEX_STYLE_NOTE}</p>\n<div class="index"><table>\n<thead><tr>${INDEX_COLUMNS.map((c) => `<th>${c}</th>`).join("")}</tr></thead>\n<tbody>\n`);
  let page: { r: Renderer; file: TempFile; head: SessionHead } | undefined;

  const put = (s: string): string => {
    page?.file.write(s);
    return "";
  };

  function row(r: IndexRow, name: string): string {
    const cells = INDEX_COLUMNS.map((c) => {
      const v = html(r[c]);
      if (c === "file") return `<td><a href="${name}">${v}</a></td>`;
      return `<td class="${c}">${v === "" ? "—" : v}</td>`;
    });
    return `<tr>${cells.join("")}</tr>\n`;
  }

  const nestedOf = (depth: number): Renderer => ({
    head: top.head,
    foot: top.foot,
    prompt: (text) => put(page?.r.nested(depth).prompt(text) ?? ""),
    message: (text, final) => put(page?.r.nested(depth).message(text, final) ?? ""),
    thinking: (text) => put(page?.r.nested(depth).thinking(text) ?? ""),
    call: (v) => put(page?.r.nested(depth).call(v) ?? ""),
    event: (mark, text, tail) => put(page?.r.nested(depth).event(mark, text, tail) ?? ""),
    nested: nestedOf,
  });

  const top: Renderer = {
    head(h) {
      if (page !== undefined) {
        // A run whose footer never came (not expected: show writes one for every run).
        page.file.write(page.r.end!());
        page.file.commit();
      }
      budget?.reset();
      const name = dir.pageName(h.file, h.index);
      const r = htmlRenderer();
      page = { r, file: dir.create(name), head: h };
      return put(r.head(h, true));
    },
    foot(f) {
      if (page === undefined) return "";
      const p = page;
      p.file.write(p.r.foot(f) + p.r.end!());
      p.file.commit();
      page = undefined;
      index.write(row(indexRow(p.head, f), p.file.name));
      return "";
    },
    prompt: (text) => put(page?.r.prompt(text) ?? ""),
    message: (text, final) => put(page?.r.message(text, final) ?? ""),
    thinking: (text) => put(page?.r.thinking(text) ?? ""),
    call: (v) => put(page?.r.call(v) ?? ""),
    event: (mark, text, tail) => put(page?.r.event(mark, text, tail) ?? ""),
    nested: (depth) => (depth === 0 ? top : nestedOf(depth)),
    end() {
      if (page !== undefined) {
        page.file.write(page.r.end!());
        page.file.commit();
        page = undefined;
      }
      index.write(`</tbody>\n</table></div>\n${PAGE_TAIL}`);
      index.commit();
      return "";
    },
  };
  return top;
}
