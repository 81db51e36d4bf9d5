#!/usr/bin/env node
// Stand-in for `cursorlog`, used only to test bench/run.sh while bin/cursorlog.js is not built:
//   CURSORLOG="node bench/standin.mjs" bash bench/run.sh 5M 3
// It accepts the subcommands the bench uses (filter, json, text, timeline, validate) and does a
// naive readline + JSON.parse pass, so its numbers are a rough "plain Node" reference, nothing more.
// `--fail` makes it exit 1 (to test the runner's failure reporting).
import fs from 'node:fs';
import readline from 'node:readline';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('--version')) { process.stdout.write('standin 0\n'); process.exit(0); }
if (argv.includes('--fail')) { process.stderr.write('standin: failing on purpose\n'); process.exit(1); }
const cmd = argv[0];
const files = [];
let type = null, exclude = null;
for (let i = 1; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--type') type = argv[++i];
  else if (a === '--exclude-type') exclude = argv[++i];
  else if (a === '--jobs') i++;
  else files.push(a);
}
const out = [];
let pending = 0;
const emit = (s) => { out.push(s); if ((pending += s.length) > 1 << 20) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; pending = 0; } };
for (const f of files) {
  const rl = readline.createInterface({ input: fs.createReadStream(f), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    const o = JSON.parse(line);
    switch (cmd) {
      case 'filter': if ((!type || o.type === type) && o.type !== exclude) emit(line); break;
      case 'json': if (o.type === 'result') emit(JSON.stringify(o)); break;
      case 'text':
        if (o.type === 'tool_call' && o.subtype === 'completed') emit(Object.keys(o.tool_call).find((k) => k.endsWith('ToolCall')));
        break;
      case 'timeline':
        if (o.type === 'tool_call' && o.subtype === 'completed') emit(JSON.stringify([o.session_id, o.call_id, o.timestamp_ms]));
        break;
      case 'validate': break;
      default: process.stderr.write(`standin: unknown command ${cmd}\n`); process.exit(2);
    }
  }
}
if (out.length) process.stdout.write(out.join('\n') + '\n');
