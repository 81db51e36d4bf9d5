#!/usr/bin/env node
// Deterministic generator of synthetic cursor-agent `--output-format stream-json` logs
// (NDJSON), for benchmarking cursorlog. Plain Node ESM, no dependencies.
//
//   node bench/gen.mjs --size 200M --seed 1 > /tmp/big.ndjson
//   node bench/gen.mjs --size 5M --seed 7 --out /tmp/small.ndjson
//   node bench/gen.mjs --size 50M --era 2025 > /tmp/old.ndjson
//
// Same arguments => byte-identical output (all randomness comes from a seeded sfc32 PRNG;
// no clock, no environment). Output is streamed in ~1 MB chunks with backpressure.
// Shapes follow /work/shared/FORMAT.md (2026 shape by default).

import fs from 'node:fs';

// ---------------------------------------------------------------- arguments

const USAGE = `usage: node bench/gen.mjs [--size N[K|M|G]] [--seed N] [--era 2026|2025] [--out FILE] [--verbose]
  --size   approximate output size in bytes (default 10M; K/M/G = 1024-based)
  --seed   integer seed (default 1); same arguments give byte-identical output
  --era    2026 (default: thinking, model_call_id, tool_call metadata) or 2025
  --out    write to FILE instead of stdout
  --verbose  print a summary to stderr when done`;

function parseSize(s) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(String(s).trim());
  if (!m) throw new Error(`bad --size: ${s}`);
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
  return Math.round(Number(m[1]) * mult);
}

function parseArgs(argv) {
  const o = { size: parseSize('10M'), seed: 1, era: 2026, out: null, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let v;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) { v = a.slice(eq + 1); a = a.slice(0, eq); }
    const val = () => (v !== undefined ? v : argv[++i]);
    switch (a) {
      case '--size': case '-s': o.size = parseSize(val()); break;
      case '--seed': o.seed = Number.parseInt(val(), 10); break;
      case '--era': o.era = Number.parseInt(val(), 10); break;
      case '--out': case '-o': o.out = val(); break;
      case '--verbose': case '-v': o.verbose = true; break;
      case '--help': case '-h': process.stdout.write(USAGE + '\n'); process.exit(0); break;
      default: process.stderr.write(`gen.mjs: unknown argument ${a}\n${USAGE}\n`); process.exit(2);
    }
  }
  if (!Number.isFinite(o.seed)) { process.stderr.write('gen.mjs: --seed must be an integer\n'); process.exit(2); }
  if (o.era !== 2026 && o.era !== 2025) { process.stderr.write('gen.mjs: --era must be 2026 or 2025\n'); process.exit(2); }
  return o;
}

// ---------------------------------------------------------------- PRNG (sfc32, 128-bit state)

function makeRng(seed) {
  // splitmix32 to expand the seed into four state words
  let s = (seed >>> 0) ^ 0x9e3779b9;
  const mix = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = mix(), b = mix(), c = mix(), d = mix();
  const u32 = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 16; i++) u32();
  const r = {
    u32,
    float: () => u32() / 4294967296,
    int: (lo, hi) => lo + Math.floor((u32() / 4294967296) * (hi - lo + 1)), // inclusive
    chance: (p) => u32() / 4294967296 < p,
    pick: (arr) => arr[Math.floor((u32() / 4294967296) * arr.length)],
    hex8: () => u32().toString(16).padStart(8, '0'),
    uuid: () => {
      const h = r.hex8() + r.hex8() + r.hex8() + r.hex8();
      const v = '89ab'[u32() & 3];
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${v}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    alnum: (n) => {
      const cs = 'abcdefghijklmnopqrstuvwxyz0123456789';
      let s2 = '';
      for (let i = 0; i < n; i++) s2 += cs[u32() % 36];
      return s2;
    },
    base62: (n) => {
      const cs = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      let s2 = '';
      for (let i = 0; i < n; i++) s2 += cs[u32() % 62];
      return s2;
    },
    shuffle: (arr) => {
      for (let i = arr.length - 1; i > 0; i--) {
        const j = u32() % (i + 1);
        const t = arr[i]; arr[i] = arr[j]; arr[j] = t;
      }
      return arr;
    },
  };
  return r;
}

// ---------------------------------------------------------------- vocabularies

const WORDS = ('the a to of and in for this that it is we need should check look at file function test '
  + 'parser stream line event tool call result session output input error handle case type string value '
  + 'field key missing update read write edit shell command run build fix change config module import export '
  + 'return async await buffer chunk json schema validate option flag default path directory src lib index '
  + 'first then next after before maybe probably likely seems okay so now let me I will first see where how '
  + 'why user wants the current implementation uses but also could instead simpler better approach plan step '
  + 'timestamp duration usage tokens model cache newline escape quote unicode offset range start end count').split(' ');

const HEADINGS = ['Planning the change', 'Inspecting the parser', 'Checking test coverage', 'Reviewing the diff',
  'Investigating the failure', 'Considering edge cases', 'Summarizing findings', 'Exploring the repository',
  'Verifying the build', 'Tracing the call path'];

const MODELS = ['Auto', 'Claude 4.5 Sonnet', 'Claude 4.5 Opus Thinking', 'GPT-5.2 High', 'Grok 4.7 256K Extra High',
  'Composer 1', 'Gemini 3 Pro', 'Kimi K2.7 Code'];

const PROJECTS = ['acme-api', 'web-dashboard', 'billing-service', 'data-pipeline', 'cli-tools', 'mobile-app',
  'infra-terraform', 'docs-site', 'search-indexer', 'auth-gateway'];
const USERS = ['dev', 'alice', 'bob', 'ci', 'runner'];

const DIRS = ['src', 'src/lib', 'src/commands', 'src/util', 'src/api', 'src/models', 'test', 'test/fixtures',
  'scripts', 'packages/core/src', 'packages/web/src', 'internal/server', 'cmd/tool', 'app/routes'];
const BASENAMES = ['index', 'parser', 'stream', 'config', 'logger', 'client', 'server', 'handler', 'router',
  'schema', 'types', 'utils', 'format', 'reader', 'writer', 'cache', 'queue', 'worker', 'session', 'auth',
  'metrics', 'retry', 'timeline', 'filter', 'render', 'main', 'db', 'migrate'];
const EXTS = ['.ts', '.ts', '.ts', '.tsx', '.js', '.py', '.go', '.rs', '.json', '.md'];

const PROMPTS = [
  'Fix the failing tests in the parser module and make sure `npm test` passes.',
  'Add a --json flag to the export command that prints machine-readable output.',
  'Refactor the retry logic in the HTTP client to use exponential backoff with jitter.',
  'Investigate why the build is slow and propose a fix.',
  'Write unit tests for the session store, covering expiry and concurrent writes.',
  'Rename `fetchUser` to `loadUser` everywhere and update the docs.',
  'The CSV export drops rows with unicode names (e.g. "José", "日本"). Please fix it.',
  'Add structured logging to the worker and remove the console.log calls.',
  'Upgrade the config loader to support YAML and keep JSON backwards compatible.',
  'Find and remove dead code in src/util, then run the linter.',
  'Implement pagination for the /users endpoint and add an integration test.',
  'Please review the error handling in the stream reader and make it robust to truncated input.',
];

const ASSIST_MID = [
  "I'll start by looking at the relevant files.",
  'Let me check how this is currently implemented.',
  'Now I will run the tests to see what fails.',
  'Let me search for other usages before changing anything.',
  "I'll update the implementation and then re-run the build.",
  'Reading the configuration first.',
  'Let me look at the test fixtures.',
  "I'll make the edit now.",
  'Checking the directory layout.',
  'Let me update the todo list to track progress.',
];
const ASSIST_FINAL = [
  'Done. I updated the parser to handle the new event shape and all tests pass.',
  'The change is in place: the command now accepts the new flag, and I added tests for it.',
  'I fixed the bug — the reader was dropping the last line when the input had no trailing newline.',
  'Summary of changes:\n\n- Refactored the retry loop\n- Added jitter\n- Added 4 unit tests\n\nAll checks pass ✅',
  'Finished. The CSV writer now escapes quotes and keeps non-ASCII names such as "José" and "日本語" intact.',
  'I could not reproduce the failure locally; the tests pass. See the notes above for what I checked.',
  'Renamed the function across 7 files and updated the README. Build and lint are clean.',
  'Done — café ☕ break earned. The endpoint is paginated and documented.',
];

const SHELL_CMDS = [
  ['npm', 'test'], ['npm', 'run', 'build'], ['npx', 'tsc', '--noEmit'], ['git', 'status'], ['git', 'diff', '--stat'],
  ['ls', '-la', 'src'], ['rg', '-n', 'TODO', 'src'], ['pytest', '-q'], ['go', 'test', './...'], ['cargo', 'check'],
  ['npm', 'run', 'lint'], ['node', 'scripts/check.mjs'], ['make', 'test'], ['git', 'log', '--oneline', '-20'],
  ['cat', 'package.json'], ['wc', '-l', 'src/parser.ts'],
];

const MCP_TOOLS = [['github', 'search_issues'], ['github', 'get_pull_request'], ['linear', 'list_issues'],
  ['sentry', 'get_issue'], ['postgres', 'query'], ['docs', 'search']];

// ---------------------------------------------------------------- text corpora

// One big string of fake source code lines with line-start offsets, so that a "file" of N lines
// is a cheap slice. Occasional non-ASCII comments and string literals.
function buildCorpus(rng, nLines, lineFn) {
  const parts = [];
  const starts = new Int32Array(nLines + 1);
  let off = 0;
  for (let i = 0; i < nLines; i++) {
    starts[i] = off;
    const l = lineFn(rng, i) + '\n';
    parts.push(l);
    off += l.length;
  }
  starts[nLines] = off;
  return { text: parts.join(''), starts, n: nLines };
}

const IDENTS = ['value', 'result', 'line', 'event', 'session', 'count', 'buffer', 'chunk', 'options', 'config',
  'handler', 'callId', 'payload', 'record', 'items', 'index', 'offset', 'retries', 'timeout', 'logger', 'stream',
  'parser', 'cache', 'entry', 'key', 'state', 'ctx', 'req', 'res', 'err'];
const FUNCS = ['parseLine', 'readEvents', 'formatRow', 'loadConfig', 'handleRequest', 'validate', 'flush',
  'retryWithBackoff', 'toCsv', 'normalizePath', 'mergeOptions', 'createServer', 'writeChunk', 'splitLines'];
const TYPES = ['string', 'number', 'boolean', 'Event', 'Options', 'Buffer', 'Record<string, unknown>',
  'Promise<void>', 'string[]', 'Map<string, number>'];
const COMMENTS = ['TODO: handle the empty case', 'keep this in sync with the schema', 'see issue #2650',
  'fast path for ASCII input', 'call ids may contain a newline', 'do not reorder these fields',
  'café: normalise accents (é, è, ê) before comparing', '日本語のファイル名も扱う', 'ship it 🚀',
  'naïve implementation, good enough for now', 'Ünïcödé-safe slicing', 'emoji 👍 in fixture names'];

function codeLine(rng, i) {
  const k = i % 23;
  const id = rng.pick(IDENTS), id2 = rng.pick(IDENTS), fn = rng.pick(FUNCS), ty = rng.pick(TYPES);
  switch (rng.int(0, 17)) {
    case 0: return k === 0 ? '' : `import { ${fn} } from "./${rng.pick(BASENAMES)}.js";`;
    case 1: return `export function ${fn}(${id}: ${ty}, ${id2}?: ${rng.pick(TYPES)}): ${ty} {`;
    case 2: return `  const ${id} = ${id2}.${rng.pick(FUNCS)}(${rng.int(0, 4096)});`;
    case 3: return `  if (${id} === undefined || ${id}.length === 0) return ${id2};`;
    case 4: return `  // ${rng.pick(COMMENTS)}`;
    case 5: return '}';
    case 6: return '';
    case 7: return `  for (const ${id} of ${id2}) {`;
    case 8: return `    ${id2}.push({ type: "${rng.pick(WORDS)}", ${id}, ts: ${1767225600000 + rng.int(0, 99999999)} });`;
    case 9: return `  throw new Error(\`unexpected ${rng.pick(WORDS)}: \${${id}}\`);`;
    case 10: return `  return await ${fn}(${id}, { retries: ${rng.int(1, 9)}, timeout: ${rng.int(1, 60) * 1000} });`;
    case 11: return `def ${fn.toLowerCase()}(${id}, ${id2}=None):`;
    case 12: return `    return {"${id}": ${id2}, "path": "src\\\\${rng.pick(BASENAMES)}.py"}`;
    case 13: return `func (s *Server) ${fn}(ctx context.Context, ${id} ${rng.pick(['string', 'int', '[]byte'])}) error {`;
    case 14: return `\tif err != nil {\n\t\treturn fmt.Errorf("${rng.pick(WORDS)}: %w", err)\n\t}`;
    case 15: return `  logger.info("${rng.pick(WORDS)} ${rng.pick(WORDS)} done", { ${id}, elapsedMs: ${rng.int(1, 5000)} });`;
    case 16: return `  const label = "${rng.pick(['naïve', 'résumé', 'José', 'Straße', '日本', '東京', '✓ ok', 'données'])}";`;
    default: return `  ${id} = ${id2} ?? ${rng.int(0, 100)}; // ${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
  }
}

function stdoutLine(rng, i) {
  const f = `${rng.pick(DIRS)}/${rng.pick(BASENAMES)}.test.ts`;
  switch (rng.int(0, 11)) {
    case 0: return `PASS ${f} (${(rng.int(5, 4000) / 1000).toFixed(2)} s)`;
    case 1: return `  ✓ ${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.pick(WORDS)} (${rng.int(0, 80)} ms)`;
    case 2: return `  ✓ handles ${rng.pick(WORDS)} with ${rng.pick(WORDS)} input (${rng.int(0, 30)} ms)`;
    case 3: return `${rng.hex8().slice(0, 7)} ${rng.pick(['fix', 'feat', 'chore', 'refactor', 'test'])}: ${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
    case 4: return `-rw-r--r--  1 ${rng.pick(USERS)} staff  ${rng.int(100, 90000)} Jan ${rng.int(1, 28)} 10:${String(rng.int(0, 59)).padStart(2, '0')} ${rng.pick(BASENAMES)}${rng.pick(EXTS)}`;
    case 5: return `${f}:${rng.int(1, 900)}:  // TODO ${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
    case 6: return `npm WARN deprecated ${rng.pick(BASENAMES)}@${rng.int(0, 9)}.${rng.int(0, 20)}.${rng.int(0, 9)}: this package is no longer supported`;
    case 7: return `[${rng.int(1, 40)}/${rng.int(40, 80)}] Compiling ${rng.pick(BASENAMES)} v0.${rng.int(1, 30)}.${rng.int(0, 9)}`;
    case 8: return `ok  \texample.com/${rng.pick(PROJECTS)}/${rng.pick(BASENAMES)}\t${(rng.int(1, 900) / 100).toFixed(3)}s`;
    case 9: return `Tests: ${rng.int(1, 400)} passed, ${rng.int(1, 400)} total`;
    case 10: return rng.chance(0.1) ? `  ✓ résumé/日本 fixture round-trips 🎉 (${rng.int(0, 9)} ms)` : '';
    default: return `    at ${rng.pick(FUNCS)} (${f}:${rng.int(1, 500)}:${rng.int(1, 80)})`;
  }
}

// ---------------------------------------------------------------- output with backpressure

class Out {
  constructor(stream) {
    this.stream = stream;
    this.buf = Buffer.allocUnsafe(Out.CHUNK);
    this.pos = 0;
    this.total = 0; // bytes handed to the stream
    this.lines = 0;
    this.broken = false;
    stream.on('error', (e) => {
      if (e && e.code === 'EPIPE') { this.broken = true; return; }
      process.stderr.write(`gen.mjs: write error: ${e && e.message}\n`);
      process.exit(1);
    });
  }
  get pending() { return this.pos; }
  // append one serialized line (string without the newline); returns its UTF-8 byte size
  raw(s) {
    const max = s.length * 3 + 1; // worst-case UTF-8 size
    if (this.pos + max > this.buf.length) {
      this.spill();
      if (max > this.buf.length) this.buf = Buffer.allocUnsafe(max);
    }
    const n = this.buf.write(s, this.pos);
    this.buf[this.pos + n] = 10;
    this.pos += n + 1;
    this.lines++;
    return n + 1;
  }
  line(obj) { return this.raw(JSON.stringify(obj)); }
  // move the filled part of the buffer to the queue of chunks to write
  spill() {
    if (this.pos === 0) return;
    (this.queue ??= []).push(this.buf.subarray(0, this.pos));
    this.total += this.pos;
    this.buf = Buffer.allocUnsafe(Out.CHUNK);
    this.pos = 0;
  }
  // write queued chunks; returns a promise when the stream wants us to wait for 'drain'
  flush() {
    this.spill();
    const q = this.queue;
    this.queue = null;
    if (!q || this.broken) return null;
    let ok = true;
    for (const c of q) ok = this.stream.write(c);
    if (!ok) {
      return new Promise((resolve) => {
        const done = () => { this.stream.off('drain', done); this.stream.off('close', done); resolve(); };
        this.stream.on('drain', done);
        this.stream.on('close', done);
      });
    }
    return null;
  }
}
Out.CHUNK = 1 << 20;

// ---------------------------------------------------------------- session generator

const EPOCH = 1767225600000; // 2026-01-01T00:00:00Z
const MB = 1024 * 1024;
const DELTA_PRE = '{"type":"thinking","subtype":"delta","text":';

function makeGen(opts) {
  const rng = makeRng(opts.seed);
  const code = buildCorpus(makeRng(opts.seed ^ 0x5eed), 24000, codeLine);
  const sout = buildCorpus(makeRng(opts.seed ^ 0x0dd), 6000, stdoutLine);
  const era25 = opts.era === 2025;
  let now = EPOCH + rng.int(0, 3600000);

  const tick = (lo, hi) => (now += rng.int(lo, hi));

  const sliceLines = (corp, start, n) => {
    const a = start % corp.n;
    const b = Math.min(a + n, corp.n);
    return corp.text.slice(corp.starts[a], corp.starts[b]);
  };
  const randCode = (lo, hi) => sliceLines(code, rng.int(0, code.n - 1), rng.int(lo, hi));
  const countLines = (s) => {
    let n = 0, p = -1;
    while ((p = s.indexOf('\n', p + 1)) !== -1) n++;
    return n;
  };

  const words = (lo, hi) => {
    const n = rng.int(lo, hi);
    let s = '';
    for (let i = 0; i < n; i++) s += (i ? ' ' : '') + WORDS[rng.u32() % WORDS.length];
    return s;
  };

  // ---- one session: a generator yielding after every round so the caller can flush
  function* session(out, budget) {
    const sid = rng.uuid();
    const reqId = rng.uuid();
    const project = rng.pick(PROJECTS);
    const cwd = `/home/${rng.pick(USERS)}/projects/${project}`;
    const files = [];
    const nFiles = rng.int(20, 60);
    for (let i = 0; i < nFiles; i++) files.push(`${rng.pick(DIRS)}/${rng.pick(BASENAMES)}${rng.pick(EXTS)}`);
    const absPath = () => `${cwd}/${rng.pick(files)}`;

    let bytes = 0;
    let modelCall = 0;
    let assistantAll = '';
    let inTok = 0, outTok = 0, cacheRead = 0, cacheWrite = 0;
    tick(60000, 900000);
    const t0 = now;

    const model = rng.pick(MODELS);
    // call id style: OpenAI-style "call-<uuid>-<n>\nfc_…" (escaped newline) for most models,
    // per-session counters like "Read_3" for Kimi (SE captures), "toolu_vrtx_…" in the 2025 era
    const kimiIds = model.startsWith('Kimi');
    let kimiN = 0;
    bytes += out.line({ type: 'system', subtype: 'init', apiKeySource: rng.chance(0.8) ? 'login' : 'env', cwd, session_id: sid, model, permissionMode: 'default' });
    const prompt = rng.pick(PROMPTS) + (rng.chance(0.3) ? `\n\nContext: ${words(10, 40)}.` : '');
    bytes += out.line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] }, session_id: sid });
    inTok += rng.int(8000, 30000);

    const deltaMid = `,"session_id":${JSON.stringify(sid)},"timestamp_ms":`;
    const thinking = (nLo, nHi) => {
      if (era25) return;
      const n = rng.int(nLo, nHi);
      tick(300, 3000);
      for (let i = 0; i < n; i++) {
        let text;
        const r = rng.u32() % 100;
        if (i === 0 && r < 40) text = `**${rng.pick(HEADINGS)}**\n\n`;
        else if (r < 3) text = '\n\n';
        else if (r < 4) text = rng.pick([' café', ' 日本語', ' → ', ' ✅', ' naïve']);
        else text = ' ' + words(1, 4);
        // same bytes as out.line({type, subtype, text, session_id, timestamp_ms}), built faster
        bytes += out.raw(DELTA_PRE + JSON.stringify(text) + deltaMid + tick(5, 60) + '}');
      }
      bytes += out.line({ type: 'thinking', subtype: 'completed', session_id: sid, timestamp_ms: tick(1, 30) });
      outTok += n * 3;
    };

    // tool call ids
    const KIMI_NAMES = { readToolCall: 'Read', editToolCall: 'StrReplace', shellToolCall: 'Shell', grepToolCall: 'Grep', globToolCall: 'Glob', lsToolCall: 'LS', deleteToolCall: 'Delete', updateTodosToolCall: 'TodoWrite', mcpToolCall: 'MCP', writeToolCall: 'Write' };
    const assignCallIds = (calls) => {
      const u = rng.uuid();
      const fcStyle = rng.chance(0.85);
      calls.forEach((c, i) => {
        if (era25) c.id = `toolu_vrtx_01${rng.base62(22)}`;
        else if (kimiIds) c.id = `${KIMI_NAMES[c.kind]}_${kimiN++}`;
        else if (fcStyle) c.id = `call-${u}-${i}\nfc_${u}_0`;
        else c.id = `call-${u}-${i}\nfc_p3${rng.alnum(20)}-aws_ue1_${rng.int(0, 9)}`;
        if (c.args && 'toolCallId' in c.args) c.args.toolCallId = c.id;
      });
    };

    // Builds {kind, args, result, extra, duration} for one tool call.
    const toolCallId = ''; // placeholder, keeps the key position in args; set by assignCallIds
    const makeCall = () => {
      const r = rng.u32() % 100;
      if (r < 30) return readCall();
      if (r < 48) return editCall();
      if (r < 70) return shellCall();
      if (r < 80) return grepCall();
      if (r < 85) return globCall();
      if (r < 89) return lsCall();
      if (r < 91) return deleteCall();
      if (r < 96) return todosCall();
      return mcpCall();
    };

    const readCall = () => {
      const path = absPath();
      const args = rng.chance(0.15) ? { path, offset: rng.int(1, 200), limit: rng.int(50, 400) } : { path };
      if (rng.chance(0.02)) {
        return { kind: 'readToolCall', args, omitArgs: true, result: { error: { errorMessage: 'File not found' } }, dur: rng.int(2, 40) };
      }
      const content = randCode(40, 400);
      const totalLines = countLines(content);
      let success;
      if (era25) {
        success = { content, isEmpty: false, exceededLimit: false, totalLines, totalChars: content.length };
      } else {
        const start = args.offset || 1;
        success = {
          content, isEmpty: false, exceededLimit: false, totalLines,
          fileSize: Buffer.byteLength(content), path,
          readRange: { startLine: start, endLine: start + totalLines - 1 },
          relatedCursorRulePaths: [], relatedCursorRules: [],
        };
      }
      return { kind: 'readToolCall', args, result: { success }, dur: rng.int(3, 120) };
    };

    const editCall = () => {
      const path = absPath();
      const rel = path.slice(cwd.length + 1);
      if (rng.chance(0.35)) { // create
        const content = randCode(30, 250);
        const n = countLines(content);
        if (era25) {
          return {
            kind: 'writeToolCall', args: { path, fileText: content, toolCallId },
            result: { success: { path, linesCreated: n, fileSize: Buffer.byteLength(content) } }, dur: rng.int(5, 80),
          };
        }
        const diffString = `--- /dev/null\n+++ b/${rel}\n@@ -0,0 +1,${n} @@\n+` + content.slice(0, -1).replace(/\n/g, '\n+') + '\n';
        return {
          kind: 'editToolCall', args: { path, streamContent: content },
          result: { success: { path, linesAdded: n, linesRemoved: 0, diffString, afterFullFileContent: content, message: `Wrote contents to ${path}` } },
          dur: rng.int(5, 80),
        };
      }
      // edit of an existing file: replace a few lines in the middle
      const start = rng.int(0, code.n - 1);
      const nBefore = rng.int(40, 300);
      const before = sliceLines(code, start, nBefore);
      const realBefore = countLines(before);
      const at = Math.max(0, Math.min(realBefore - 1, rng.int(3, Math.max(3, realBefore - 10))));
      const nOld = Math.min(rng.int(1, 8), realBefore - at);
      const snippet = randCode(1, 12);
      const nNew = countLines(snippet);
      const oldPart = sliceLines(code, start + at, nOld);
      const head = sliceLines(code, start, at);
      const tail = before.slice(head.length + oldPart.length);
      const after = head + snippet + tail;
      const ctxA = sliceLines(code, start + Math.max(0, at - 3), Math.min(3, at));
      const ctxB = tail.slice(0, tail.split('\n', 3).join('\n').length + 1);
      const pre = (s, c) => (s ? c + s.slice(0, -1).replace(/\n/g, '\n' + c) + '\n' : '');
      const ctxLines = countLines(ctxA) + countLines(ctxB);
      const diffString = `--- a/${rel}\n+++ b/${rel}\n@@ -${at - countLines(ctxA) + 1},${nOld + ctxLines} +${at - countLines(ctxA) + 1},${nNew + ctxLines} @@\n`
        + pre(ctxA, ' ') + pre(oldPart, '-') + pre(snippet, '+') + pre(ctxB, ' ');
      if (era25) {
        return { kind: 'editToolCall', args: { path, oldString: oldPart, newString: snippet }, result: { success: { path, linesAdded: nNew, linesRemoved: nOld, diffString } }, dur: rng.int(5, 80) };
      }
      return {
        kind: 'editToolCall', args: { path, streamContent: snippet },
        result: { success: { path, linesAdded: nNew, linesRemoved: nOld, diffString, beforeFullFileContent: before, afterFullFileContent: after, message: `The file ${path} has been updated.` } },
        dur: rng.int(5, 80),
      };
    };

    const shellCall = () => {
      const argv = rng.pick(SHELL_CMDS);
      const command = argv.join(' ');
      const args = {
        command, workingDirectory: cwd, timeout: 30000, toolCallId, simpleCommands: [argv[0]],
        hasInputRedirect: false, hasOutputRedirect: false,
        parsingResult: {
          parsingFailed: false,
          executableCommands: [{ name: argv[0], args: argv.slice(1).map((v) => ({ type: /^\d+$/.test(v) ? 'number' : 'word', value: v })), fullText: command }],
          hasRedirects: false, hasCommandSubstitution: false, redirects: [],
        },
        fileOutputThresholdBytes: '40000', isBackground: false, skipApproval: false,
        timeoutBehavior: 'TIMEOUT_BEHAVIOR_BACKGROUND', hardTimeout: 600000, closeStdin: true,
        conversationId: sid, adminCommandDenylist: [], requestId: reqId,
      };
      const extra = { description: `Run ${argv[0]} ${argv[1] || ''}`.trim(), isBackground: false };
      const r = rng.u32() % 100;
      if (r < 3) {
        return { kind: 'shellToolCall', args, omitArgs: true, extra, result: { rejected: { command, workingDirectory: cwd, reason: '', isReadonly: false } }, dur: rng.int(1, 20) };
      }
      const stdout = sliceLines(sout, rng.int(0, sout.n - 1), rng.int(20, 250));
      const dur = rng.int(200, 20000);
      if (r < 13) {
        const stderr = `Error: ${words(3, 8)}\n    at ${rng.pick(FUNCS)} (${rng.pick(files)}:${rng.int(1, 400)}:${rng.int(1, 60)})\nnpm ERR! Test failed.  See above for more details.\n`;
        return {
          kind: 'shellToolCall', args, extra,
          result: { failure: { command, workingDirectory: cwd, exitCode: 1, signal: '', stdout, stderr, executionTime: dur, interleavedOutput: stdout + stderr, aborted: false } },
          dur,
        };
      }
      return {
        kind: 'shellToolCall', args, extra,
        result: { success: { command, workingDirectory: cwd, exitCode: 0, signal: '', stdout, stderr: '', executionTime: dur, interleavedOutput: stdout, localExecutionTimeMs: dur - rng.int(0, 50) } },
        dur,
      };
    };

    const grepCall = () => {
      const pattern = rng.pick(FUNCS) + (rng.chance(0.3) ? '\\(' : '');
      const filesMode = rng.chance(0.3);
      const args = { pattern, path: cwd, outputMode: filesMode ? 'files_with_matches' : 'content', caseInsensitive: false, multiline: false, toolCallId, offset: 0 };
      if (rng.chance(0.4)) args.glob = rng.pick(['*.ts', '**/*.py', '*.{js,ts}']);
      let ws;
      if (filesMode) {
        const fl = [];
        const n = rng.int(1, 40);
        for (let i = 0; i < n; i++) fl.push(rng.pick(files));
        ws = { files: { files: fl, totalFiles: n, clientTruncated: false, ripgrepTruncated: false } };
      } else {
        const matches = [];
        let total = 0;
        const nf = rng.int(1, 12);
        for (let i = 0; i < nf; i++) {
          const m = [];
          const nm = rng.int(1, 8);
          let ln = rng.int(1, 50);
          for (let j = 0; j < nm; j++) {
            const li = rng.int(0, code.n - 1);
            const isCtx = rng.chance(0.3);
            m.push({ lineNumber: (ln += rng.int(1, 30)), content: code.text.slice(code.starts[li], code.starts[li + 1] - 1), contentTruncated: false, isContextLine: isCtx });
            if (!isCtx) total++;
          }
          matches.push({ file: rng.pick(files), matches: m });
        }
        ws = { content: { matches, totalLines: total, totalMatchedLines: total, clientTruncated: false, ripgrepTruncated: false } };
      }
      return { kind: 'grepToolCall', args, result: { success: { pattern, path: cwd, outputMode: args.outputMode, workspaceResults: { [cwd]: ws } } }, dur: rng.int(10, 400) };
    };

    const globCall = () => {
      const globPattern = rng.pick(['**/*.ts', 'src/**/*.test.ts', '*.json', '**/*.{md,mdx}', 'test/fixtures/*']);
      const n = rng.int(0, 60);
      const fl = [];
      for (let i = 0; i < n; i++) fl.push(`${cwd}/${rng.pick(files)}`);
      return { kind: 'globToolCall', args: { targetDirectory: cwd, globPattern, toolCallId }, result: { success: { pattern: globPattern, path: cwd, files: fl, totalFiles: n, clientTruncated: false, ripgrepTruncated: false } }, dur: rng.int(5, 200) };
    };

    const lsNode = (abs, depth) => {
      const childrenDirs = [];
      const childrenFiles = [];
      const nd = depth < 2 ? rng.int(0, 4) : 0;
      for (let i = 0; i < nd; i++) childrenDirs.push(lsNode(`${abs}/${rng.pick(['src', 'lib', 'test', 'util', 'api', 'docs', 'scripts'])}${i}`, depth + 1));
      const nf = rng.int(0, 12);
      for (let i = 0; i < nf; i++) childrenFiles.push({ name: `${rng.pick(BASENAMES)}${rng.pick(EXTS)}` });
      let numFiles = nf;
      for (const d of childrenDirs) numFiles += d.numFiles;
      return { absPath: abs, childrenDirs, childrenFiles, childrenWereProcessed: true, fullSubtreeExtensionCounts: { '.ts': rng.int(0, numFiles), '.json': rng.int(0, 3) }, numFiles };
    };
    const lsCall = () => {
      const path = rng.chance(0.5) ? cwd : `${cwd}/${rng.pick(DIRS)}`;
      return { kind: 'lsToolCall', args: { path, ignore: [], toolCallId }, result: { success: { directoryTreeRoot: lsNode(path, 0) } }, dur: rng.int(5, 100) };
    };

    const deleteCall = () => {
      const path = absPath();
      const prev = randCode(5, 80);
      return { kind: 'deleteToolCall', args: { path, toolCallId }, result: { success: { path, deletedFile: path, fileSize: String(Buffer.byteLength(prev)), prevContent: prev } }, dur: rng.int(2, 30) };
    };

    const todosCall = () => {
      const n = rng.int(2, 8);
      const todos = [];
      const ts = String(now);
      const st = ['TODO_STATUS_PENDING', 'TODO_STATUS_IN_PROGRESS', 'TODO_STATUS_COMPLETED', 'TODO_STATUS_CANCELLED'];
      for (let i = 0; i < n; i++) todos.push({ id: String(i + 1), content: `${rng.pick(['Fix', 'Add', 'Update', 'Check', 'Refactor'])} ${words(2, 6)}`, status: st[rng.u32() % (i === 0 ? 3 : 4)], createdAt: ts, updatedAt: ts, dependencies: [] });
      const merge = rng.chance(0.4);
      return { kind: 'updateTodosToolCall', args: { todos, merge }, result: { success: { todos, totalCount: n, wasMerge: merge } }, dur: rng.int(1, 10) };
    };

    const mcpCall = () => {
      const [server, tool] = rng.pick(MCP_TOOLS);
      const text = JSON.stringify({ items: Array.from({ length: rng.int(1, 10) }, (_, i) => ({ id: i + 1, title: words(3, 9), body: words(10, 40) })) }, null, 2);
      return {
        kind: 'mcpToolCall', extra: { description: `${server}: ${tool}` },
        args: { name: `${server}-${tool}`, args: { query: words(1, 4) }, toolCallId, providerIdentifier: server, toolName: tool, smartModeApprovalOnly: false, skipApproval: false, serverIdentifier: server },
        result: { success: { content: [{ text: { text } }], isError: false, systemReminders: [] } },
        dur: rng.int(100, 3000),
      };
    };

    // ---- emit started/completed events
    const emitStarted = (c, mcid) => {
      const inner = { args: c.args };
      if (c.extra) Object.assign(inner, c.extra);
      const tc = { [c.kind]: inner };
      if (era25) {
        bytes += out.line({ type: 'tool_call', subtype: 'started', call_id: c.id, tool_call: tc, session_id: sid });
        return;
      }
      // a mid-turn assistant message carries the timestamp of the first started event
      if (pinTs) { c.startTs = pinTs; pinTs = 0; } else c.startTs = tick(1, 40);
      c.startedAtMs = c.startTs + rng.int(-300, 300);
      tc.hookAdditionalContexts = [];
      tc.toolCallId = c.id;
      tc.startedAtMs = String(c.startedAtMs);
      bytes += out.line({ type: 'tool_call', subtype: 'started', call_id: c.id, tool_call: tc, model_call_id: mcid, session_id: sid, timestamp_ms: c.startTs });
    };
    const emitCompleted = (c, mcid) => {
      const inner = c.omitArgs ? { result: c.result } : { args: c.args, result: c.result };
      if (c.extra) Object.assign(inner, c.extra);
      const tc = { [c.kind]: inner };
      if (era25) {
        bytes += out.line({ type: 'tool_call', subtype: 'completed', call_id: c.id, tool_call: tc, session_id: sid });
        return;
      }
      const ts = Math.max(now + 1, c.startTs + c.dur);
      now = ts;
      tc.hookAdditionalContexts = [];
      tc.toolCallId = c.id;
      tc.startedAtMs = String(c.startedAtMs);
      tc.completedAtMs = String(Math.max(c.startedAtMs + 1, c.startedAtMs + c.dur + rng.int(-5, 5)));
      bytes += out.line({ type: 'tool_call', subtype: 'completed', call_id: c.id, tool_call: tc, model_call_id: mcid, session_id: sid, timestamp_ms: ts });
    };

    const assistantText = (base) => (rng.chance(0.1) ? base + rng.pick([' (café)', ' — 日本語 OK.', ' 🚀', ' Voilà.']) : base);

    let pinTs = 0;
    const reserve = 1500; // for final assistant + result
    while (bytes + reserve < budget) {
      if (budget - bytes < 40000) { // small budgets (e.g. a 1 KB startup log): just a little thinking
        if (era25) break;
        const before = bytes;
        thinking(1, 3);
        if (bytes - before < 10) break;
        continue;
      }
      const mcid = `${reqId}-${modelCall}-${rng.alnum(4)}`;
      thinking(40, 400);
      const r = rng.u32() % 100;
      const k = r < 50 ? 1 : r < 70 ? 2 : r < 85 ? 3 : r < 95 ? 4 : 5;
      const calls = [];
      for (let i = 0; i < k; i++) calls.push(makeCall());
      assignCallIds(calls);
      if (rng.chance(0.45)) {
        const text = assistantText(rng.pick(ASSIST_MID));
        assistantAll += text;
        const msg = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] }, session_id: sid };
        if (!era25) { msg.model_call_id = mcid; msg.timestamp_ms = pinTs = tick(1, 20); }
        bytes += out.line(msg);
        outTok += text.length >> 2;
      }
      if (k > 1 && rng.chance(0.5)) { // parallel: all started, then completed by finish time
        const order = rng.shuffle(calls.slice());
        for (const c of order) emitStarted(c, mcid);
        if (era25) rng.shuffle(order);
        else order.sort((x, y) => (x.startTs + x.dur) - (y.startTs + y.dur));
        for (const c of order) emitCompleted(c, mcid);
      } else {
        for (const c of calls) { emitStarted(c, mcid); emitCompleted(c, mcid); }
      }
      modelCall++;
      inTok += rng.int(200, 4000);
      cacheRead += rng.int(10000, 60000);
      outTok += rng.int(50, 600);
      yield;
    }

    if (budget - bytes > 40000) thinking(5, 60);
    else thinking(1, 2);
    const finalText = assistantText(rng.pick(ASSIST_FINAL));
    assistantAll += finalText;
    bytes += out.line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: finalText }] }, session_id: sid });
    tick(50, 500);
    const dur = now - t0;
    const res = { type: 'result', subtype: 'success', duration_ms: dur, duration_api_ms: dur, is_error: false, result: assistantAll, session_id: sid, request_id: reqId };
    if (!era25) {
      cacheWrite = rng.int(1000, 30000);
      res.usage = { inputTokens: inTok, outputTokens: outTok, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite };
    }
    bytes += out.line(res);
    yield;
  }

  return { session, rng };
}

// ---------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = process.hrtime.bigint();
  // A stdout redirected to a regular file is written through fs.WriteStream (libuv thread pool) so
  // the kernel-side copy overlaps with generation (process.stdout writes files synchronously).
  // Pipes and TTYs use process.stdout.
  let stream;
  let stdoutIsFile = false;
  try { stdoutIsFile = !opts.out && fs.fstatSync(1).isFile(); } catch { /* closed stdout */ }
  if (opts.out) stream = fs.createWriteStream(opts.out, { highWaterMark: 4 * MB });
  else if (stdoutIsFile) stream = fs.createWriteStream(null, { fd: 1, autoClose: false, highWaterMark: 4 * MB });
  else stream = process.stdout;
  const out = new Out(stream);
  const { session, rng } = makeGen(opts);
  let sessions = 0;

  let produced = 0;
  while (produced < opts.size && !out.broken) {
    const remaining = opts.size - produced;
    if (sessions > 0 && remaining < 64 * 1024) break; // close enough: don't append a stub session
    let budget = rng.int(2 * MB, 20 * MB);
    if (remaining - budget < 2 * MB) budget = remaining; // last session takes the rest
    const before = out.total + out.pending;
    for (const _ of session(out, budget)) {
      if (out.queue) {
        const p = out.flush();
        if (p) await p;
        if (out.broken) break;
      }
    }
    sessions++;
    produced += out.total + out.pending - before;
  }
  const p = out.flush();
  if (p) await p;

  const finish = () => {
    if (opts.verbose) {
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      process.stderr.write(`gen.mjs: ${sessions} sessions, ${out.lines} lines, ~${(out.total / 1e6).toFixed(1)} MB in ${s.toFixed(2)} s (${(out.total / 1e6 / s).toFixed(0)} MB/s)\n`);
    }
  };
  if (stream === process.stdout) finish();
  else stream.end(finish);
}

main().catch((e) => {
  process.stderr.write(`gen.mjs: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
