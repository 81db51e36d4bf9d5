import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

// The layout rules of the project (issue 11), checked on the sources as they are: a name prefix
// shared by four or more files of a folder is a folder that is missing; the regex engine is not part
// of the event model; no module of src/ imports, however indirectly, itself.

const SRC = resolve("src");

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function folders(dir: string, out: string[] = []): string[] {
  out.push(dir);
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) folders(path, out);
  }
  return out;
}

/** Folders (relative to src/) holding 4 or more files whose names share the part before their first `-`. */
export function crowdedPrefixes(root: string): string[] {
  const found: string[] = [];
  for (const dir of folders(root)) {
    const byPrefix = new Map<string, string[]>();
    for (const name of readdirSync(dir)) {
      if (statSync(join(dir, name)).isDirectory() || !name.includes("-")) continue;
      const prefix = name.slice(0, name.indexOf("-"));
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
    }
    for (const [prefix, names] of byPrefix) {
      if (names.length >= 4) found.push(`${relative(root, dir) || "."}: ${prefix}-* (${names.sort().join(", ")})`);
    }
  }
  return found;
}

/**
 * Every module specifier a TypeScript source names: static imports and re-exports (type-only
 * too), side-effect imports, dynamic import() calls. Comments are removed first.
 */
export function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*\s{},$]*?)\s+from\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1]!);
  return out;
}

/** The src/ module a relative specifier names (.js written for .ts), or undefined (a package, a file outside src/). */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")]) {
    if (candidate.startsWith(SRC) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The import cycles of a module graph: each as the path that closes it, e.g. a → b → a. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of walk(SRC).filter((f) => f.endsWith(".ts"))) {
    const deps = specifiers(readFileSync(file, "utf8"))
      .map((s) => resolveImport(file, s))
      .filter((d): d is string => d !== undefined);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

test("layout: no folder under src/ holds 4 or more files sharing a name prefix", () => {
  assert.deepEqual(crowdedPrefixes(SRC), []);
});

test("layout: no regex-* file in src/dialects/", () => {
  assert.deepEqual(
    readdirSync(join(SRC, "dialects", "cursor")).filter((n) => n.startsWith("regex-")),
    [],
  );
});

test("layout: no import cycle among the modules of src/ (static, dynamic and type-only imports)", () => {
  const graph = importGraph();
  assert.ok(graph.size > 50, `only ${graph.size} modules found`);
  // The graph is really read: the CLI reaches the job pool only through a dynamic import.
  assert.ok(graph.get(join(SRC, "cli/run-command.ts"))?.includes(join(SRC, "jobs/pool.ts")));
  const names = cycles(graph).map((c) => c.map((f) => relative(SRC, f)).join(" → "));
  assert.deepEqual(names, []);
});

test("layout checks: each one finds what it is there to find", () => {
  // Prefixes: four files named run-* are a crowd (in a subfolder too), three are not, names without - never count.
  const root = mkdtempSync(join(tmpdir(), "cursorlog-layout-"));
  try {
    mkdirSync(join(root, "sub/run-x"), { recursive: true });
    for (const f of ["sub/run-a.ts", "sub/run-b.ts", "sub/run-c.ts", "sub/run-d.md", "sub/runner.ts", "x-1.ts", "x-2.ts", "x-3.ts", "xx.ts"]) {
      writeFileSync(join(root, f), "");
    }
    assert.deepEqual(crowdedPrefixes(root), ["sub: run-* (run-a.ts, run-b.ts, run-c.ts, run-d.md)"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  // Specifiers: every form of import is seen; comments are not imports.
  assert.deepEqual(
    specifiers(
      [
        'import { a } from "./a.js";',
        'import type { B } from "./b.js";',
        'import type {\n  C,\n  D,\n} from "./c.js";',
        'export { e } from "./e.js";',
        'export type { F } from "./f.js";',
        'export * from "./g.js";',
        'import "./h.js";',
        'const i = await import("./i.js");',
        '// import { j } from "./j.js";',
        '/* import("./k.js") */',
        "import x, { y } from './l.js';",
      ].join("\n"),
    ).sort(),
    ["./a.js", "./b.js", "./c.js", "./e.js", "./f.js", "./g.js", "./h.js", "./i.js", "./l.js"],
  );
  // Cycles: a direct one, a long one through a dynamic import, none in a diamond.
  assert.deepEqual(cycles(new Map([["a", ["b"]], ["b", ["a"]]])), [["a", "b", "a"]]);
  assert.deepEqual(
    cycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["d"]], ["d", ["b"]]])),
    [["b", "c", "d", "b"]],
  );
  assert.deepEqual(cycles(new Map([["a", ["b", "c"]], ["b", ["d"]], ["c", ["d"]], ["d", []]])), []);
});
