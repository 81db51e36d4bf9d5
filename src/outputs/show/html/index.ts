import { ContentBudget } from "./content.js";
import { dirRenderer, PageDir } from "./dir.js";
import { htmlRenderer } from "./page.js";
import type { Renderer } from "../render.js";

/**
 * What `show --format html` hands show: the renderer (of one page, or with `dir`, of a page per run
 * and index.html in that folder: dir.ts) and the budget of each call's arguments and output.
 */
export function htmlShow(dir?: PageDir): { renderer: Renderer; content: ContentBudget } {
  const content = new ContentBudget();
  return { renderer: dir === undefined ? htmlRenderer() : dirRenderer(dir, content), content };
}

export { PageDir };
