/**
 * Unified diff hunks between two versions of a file, as `diff -u` and `git diff` write them: three
 * lines of context, `@@ -a,b +c,d @@` headers, `\ No newline at end of file` after a last line that
 * has none. Used by `cursorlog diff` and by `show --diff`.
 */

/** Past this many differing lines (after the common head and tail) the middle is one hunk of removals and additions. */
const MAX_EDIT_DISTANCE = 2000;
const NO_EOL = "\\ No newline at end of file";

interface Side {
  lines: string[];
  /** The last line has no newline. */
  noEol: boolean;
}

function split(text: string): Side {
  if (text === "") return { lines: [], noEol: false };
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") {
    lines.pop();
    return { lines, noEol: false };
  }
  return { lines, noEol: true };
}

type Op = 0 | 1 | 2; // keep, remove, add

/**
 * The edit script (keep/remove/add per line) from `a` to `b`: Myers' O(ND) algorithm over the
 * lines between the common head and tail, or, past MAX_EDIT_DISTANCE, all of them removed and added.
 */
function editScript(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = new Array<Op>(head).fill(0);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const middle = n === 0 || m === 0 ? undefined : myers(a.slice(head, head + n), b.slice(head, head + m));
  if (middle !== undefined) for (const op of middle) ops.push(op);
  else {
    for (let i = 0; i < n; i++) ops.push(1);
    for (let i = 0; i < m; i++) ops.push(2);
  }
  for (let i = 0; i < tail; i++) ops.push(0);
  return ops;
}

function myers(a: string[], b: string[]): Op[] | undefined {
  // Lines as numbers: comparisons are then cheap.
  const ids = new Map<string, number>();
  const id = (s: string): number => {
    let v = ids.get(s);
    if (v === undefined) ids.set(s, (v = ids.size));
    return v;
  };
  const x = a.map(id);
  const y = b.map(id);
  const n = x.length;
  const m = y.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let i = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[off + k] = i;
      if (i >= n && j >= m) return backtrack(trace, v, off, n, m, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], last: Int32Array, off: number, n: number, m: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let i = n;
  let j = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!; // the values before step d
    const k = i - j;
    const down = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!);
    const pk = down ? k + 1 : k - 1;
    const pi = v[off + pk]!;
    const pj = pi - pk;
    while (i > (down ? pi : pi + 1) && j > (down ? pj + 1 : pj)) {
      ops.push(0);
      i--;
      j--;
    }
    ops.push(down ? 2 : 1);
    if (down) j--;
    else i--;
  }
  while (i > 0 && j > 0) {
    ops.push(0);
    i--;
    j--;
  }
  void last;
  return ops.reverse();
}

export interface Hunks {
  /** The hunk lines, each without its newline. Empty when the versions are equal. */
  lines: string[];
  added: number;
  removed: number;
}

/**
 * The hunks that turn `before` into `after` (either may be "" for a file created or deleted).
 * A last line without a newline is a different line from the same text with one, as in diff.
 */
export function unifiedHunks(before: string, after: string, context = 3): Hunks {
  const a = split(before);
  const b = split(after);
  // A last line without its newline compares unequal to the same text with one.
  const keyA = a.noEol ? [...a.lines.slice(0, -1), a.lines[a.lines.length - 1] + "\n"] : a.lines;
  const keyB = b.noEol ? [...b.lines.slice(0, -1), b.lines[b.lines.length - 1] + "\n"] : b.lines;
  const ops = editScript(keyA, keyB);
  const out: string[] = [];
  let added = 0;
  let removed = 0;
  // Positions of each op in a and b.
  const ai: number[] = [];
  const bi: number[] = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    ai.push(i);
    bi.push(j);
    if (op !== 2) i++;
    if (op !== 1) j++;
  }
  let p = 0;
  while (p < ops.length) {
    if (ops[p] === 0) {
      p++;
      continue;
    }
    // A hunk: from `context` keeps before this change to `context` keeps after the last change
    // that is at most 2*context keeps away from the one before it.
    const start = Math.max(0, p - context);
    let end = p;
    for (;;) {
      while (end < ops.length && ops[end] !== 0) end++;
      let keeps = 0;
      while (end + keeps < ops.length && ops[end + keeps] === 0) keeps++;
      if (end + keeps < ops.length && keeps <= 2 * context) {
        end += keeps;
        continue;
      }
      end = Math.min(ops.length, end + context);
      break;
    }
    let aCount = 0;
    let bCount = 0;
    for (let q = start; q < end; q++) {
      if (ops[q] !== 2) aCount++;
      if (ops[q] !== 1) bCount++;
    }
    const aStart = aCount === 0 ? ai[start]! : ai[start]! + 1;
    const bStart = bCount === 0 ? bi[start]! : bi[start]! + 1;
    out.push(`@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@`);
    for (let q = start; q < end; q++) {
      const op = ops[q]!;
      if (op === 0) {
        out.push(" " + a.lines[ai[q]!]);
        if (a.noEol && ai[q] === a.lines.length - 1) out.push(NO_EOL);
      } else if (op === 1) {
        removed++;
        out.push("-" + a.lines[ai[q]!]);
        if (a.noEol && ai[q] === a.lines.length - 1) out.push(NO_EOL);
      } else {
        added++;
        out.push("+" + b.lines[bi[q]!]);
        if (b.noEol && bi[q] === b.lines.length - 1) out.push(NO_EOL);
      }
    }
    p = end;
  }
  return { lines: out, added, removed };
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/**
 * The hunks of a logged `diffString`, without its `---`/`+++` header lines, and the lines it adds
 * and removes. What the log has when it lacks the whole files.
 */
export function loggedHunks(diffString: string): Hunks {
  const all = diffString.split("\n");
  if (all[all.length - 1] === "") all.pop();
  let k = 0;
  while (k < all.length && !all[k]!.startsWith("@@")) k++;
  const lines = all.slice(k);
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.startsWith("+")) added++;
    else if (l.startsWith("-")) removed++;
  }
  return { lines, added, removed };
}
