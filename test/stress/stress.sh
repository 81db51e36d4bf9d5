#!/usr/bin/env bash
# Heavy robustness runs, by hand (never in npm test): multi-GB logs, a 300 MB line, a slow reader,
# | head -n1 on a multi-GB stream, and the fuzz/property suites with many more runs. Prints one
# Markdown line per measurement; docs/RELIABILITY.md records the figures of a run.
#
#   npm run build && bash test/stress/stress.sh              # everything (~30 minutes, ~6 GB of /tmp)
#   bash test/stress/stress.sh roundtrip longline            # some sections
#   SIZE=4G LINE_MB=490 FUZZ_RUNS=1000 bash test/stress/stress.sh
#
# Sections: roundtrip (filter gives back a SIZE log byte for byte, file and pipe), longline (a
# LINE_MB line through every command; rejected above --max-line-bytes; above V8's longest string),
# head (| head -n1 on a SIZE stream), slow (a slow reader over 300 MB and SIZE), fuzz (the property
# and fuzz tests with FUZZ_RUNS runs each), open (OPEN_CALLS calls that start and never complete,
# and OPEN_BIG calls with 5 KB of args, through every command), lanes (the HTML page of LANE_CALLS
# calls, 4 at a time, and SIGINT in the middle of making it), blank (4 MiB of newlines, and of
# spaces, through every command).
set -euo pipefail
cd "$(dirname "$0")/../.."

SIZE=${SIZE:-2G}
LINE_MB=${LINE_MB:-300}
FUZZ_RUNS=${FUZZ_RUNS:-300}
OPEN_CALLS=${OPEN_CALLS:-1000000}
OPEN_BIG=${OPEN_BIG:-200000}
LANE_CALLS=${LANE_CALLS:-1000000}
TMP=${TMPDIR:-/tmp}/cursorlog-stress
BIN="node bin/cursorlog.js"
RSS="node test/stress/peak-rss.mjs"
COMMANDS=$(node --input-type=module -e '
  import { buildProgram } from "./dist/cli/program.js";
  const p = buildProgram({ io: undefined, setRun() {} }, "0");
  console.log(p.commands.filter((c) => c.registeredArguments.some((a) => a.name() === "files")).map((c) => c.name()).join(" "));')
mkdir -p "$TMP"
[ -f dist/cli/main.js ] || { echo "run npm run build first" >&2; exit 2; }

ms() { date +%s%3N; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
say() { printf '%s\n' "$*"; }

roundtrip() {
  local log="$TMP/log-$SIZE.ndjson"
  [ -f "$log" ] || node bench/gen.mjs --size "$SIZE" --seed 1 --out "$log"
  local bytes; bytes=$(stat -c %s "$log")
  local want; want=$(sha256sum < "$log" | cut -d' ' -f1)
  local t0; t0=$(ms)
  local got; got=$($RSS "$TMP/rss" filter "$log" | sha256sum | cut -d' ' -f1)
  local t1; t1=$(ms)
  [ "$got" = "$want" ] && ok=equal || ok="DIFFERENT ($got)"
  say "| roundtrip | filter $SIZE file ($bytes bytes) | sha256 $ok | $((t1 - t0)) ms | peak RSS $(mib "$(cat "$TMP/rss")") MiB |"
  t0=$(ms)
  got=$(node bench/gen.mjs --size "$SIZE" --seed 1 | $RSS "$TMP/rss" filter | sha256sum | cut -d' ' -f1)
  t1=$(ms)
  [ "$got" = "$want" ] && ok=equal || ok="DIFFERENT ($got)"
  say "| roundtrip | gen $SIZE \| filter (pipe) | sha256 $ok | $((t1 - t0)) ms | peak RSS $(mib "$(cat "$TMP/rss")") MiB |"
}

longline() {
  local want; want=$(node test/stress/long-line-log.mjs "$LINE_MB" | sha256sum | cut -d' ' -f1)
  for c in $COMMANDS; do
    local t0; t0=$(ms)
    local out; out=$(node test/stress/long-line-log.mjs "$LINE_MB" | $RSS "$TMP/rss" "$c" 2>"$TMP/err" | sha256sum | cut -d' ' -f1) || true
    local t1; t1=$(ms)
    local extra=""
    [ "$c" = filter ] && { [ "$out" = "$want" ] && extra=", output sha256 = input" || extra=", OUTPUT DIFFERS"; }
    say "| longline | $c, one ${LINE_MB} MiB line | $(head -c 120 "$TMP/err" | tr '\n' ' ')$extra | $((t1 - t0)) ms | peak RSS $(mib "$(cat "$TMP/rss")") MiB |"
  done
  local t0; t0=$(ms)
  node test/stress/long-line-log.mjs "$LINE_MB" | $RSS "$TMP/rss" json --lenient --max-line-bytes 1M >/dev/null 2>"$TMP/err" || true
  say "| longline | json --lenient --max-line-bytes 1M, ${LINE_MB} MiB line | $(head -c 160 "$TMP/err" | tr '\n' ' ') | $(($(ms) - t0)) ms | peak RSS $(mib "$(cat "$TMP/rss")") MiB |"
  t0=$(ms)
  node test/stress/long-line-log.mjs 600 | $RSS "$TMP/rss" text --lenient --max-line-bytes 1G >/dev/null 2>"$TMP/err" || true
  say "| longline | text --lenient --max-line-bytes 1G, 600 MiB line (> V8's longest string) | $(head -c 160 "$TMP/err" | tr '\n' ' ') | $(($(ms) - t0)) ms | peak RSS $(mib "$(cat "$TMP/rss")") MiB |"
}

head1() {
  local t0; t0=$(ms)
  node bench/gen.mjs --size 300M --seed 9 | $BIN text > /dev/null
  local full=$(($(ms) - t0))
  say "| head | full read of 300M by text (for scale) | | $full ms | |"
  for c in $COMMANDS; do
    t0=$(ms)
    set +o pipefail
    node bench/gen.mjs --size "$SIZE" --seed 9 | node test/stress/count-bytes.mjs "$TMP/count" | $BIN "$c" 2>"$TMP/err" | head -n1 > /dev/null
    local st=${PIPESTATUS[2]}
    set -o pipefail
    say "| head | gen $SIZE \| $c \| head -n1 | exit $st, stderr $(wc -c < "$TMP/err") bytes, read $(( $(cat "$TMP/count") / 1048576 )) MiB | $(($(ms) - t0)) ms | |"
  done
}

slow() {
  for size in 300M "$SIZE"; do
    local log="$TMP/log-$size.ndjson"
    [ -f "$log" ] || node bench/gen.mjs --size "$size" --seed 1 --out "$log"
    for input in file pipe; do
      local r
      r=$(node --input-type=module -e '
        import { spawn } from "node:child_process";
        import { readFileSync, createReadStream } from "node:fs";
        const [log, input] = process.argv.slice(1);
        const child = spawn("node", ["bin/cursorlog.js", "filter", ...(input === "file" ? [log] : [])], { stdio: [input === "file" ? "ignore" : "pipe", "pipe", "inherit"] });
        if (input === "pipe") createReadStream(log).pipe(child.stdin);
        const rss = [];
        const t = setInterval(() => { try { rss.push(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024); } catch {} }, 50);
        let got = 0, paused = [];
        child.stdout.on("data", (d) => {
          const before = got; got += d.length;
          if (Math.floor(before / (16 << 20)) !== Math.floor(got / (16 << 20))) {
            child.stdout.pause();
            const long = Math.floor(got / (16 << 20)) % 8 === 0;
            const from = rss.length;
            setTimeout(() => { if (long) paused.push(rss.slice(from)); child.stdout.resume(); }, long ? 1000 : 20);
          }
        });
        child.on("close", (code) => {
          clearInterval(t);
          const p = paused.flat();
          console.log(`exit ${code}, ${(got / 2 ** 20).toFixed(0)} MiB out | peak ${Math.max(...rss).toFixed(0)} MiB, while paused ${Math.min(...p).toFixed(0)}-${Math.max(...p).toFixed(0)} MiB`);
        });' "$log" "$input")
      say "| slow | filter $size ($input) read slowly, 1 s pauses | $r |"
    done
  done
}

# One command over one file: time, peak RSS, exit status.
measure() {
  local what=$1 log=$2; shift 2
  local t0; t0=$(ms)
  local st=0
  $RSS "$TMP/rss" "$@" "$log" > /dev/null 2>"$TMP/err" || st=$?
  say "| $what | $* ($(basename "$log")) | exit $st | $(($(ms) - t0)) ms | peak RSS $(mib "$(cat "$TMP/rss")") MiB |"
}

OPEN_COMMANDS=("json" "text" "stats" "timeline" "timeline --format html" "filter --pair --tool read" "validate")

open_calls() {
  local log="$TMP/open-$OPEN_CALLS.ndjson" big="$TMP/open-$OPEN_BIG-5k.ndjson"
  [ -f "$log" ] || node test/stress/calls-log.mjs "$OPEN_CALLS" --open > "$log"
  [ -f "$big" ] || node test/stress/calls-log.mjs "$OPEN_BIG" --open --args-bytes 5000 > "$big"
  for f in "$log" "$big"; do
    for c in "${OPEN_COMMANDS[@]}"; do
      # shellcheck disable=SC2086
      measure open "$f" $c
    done
  done
}

lanes() {
  local log="$TMP/calls-$LANE_CALLS.ndjson"
  [ -f "$log" ] || node test/stress/calls-log.mjs "$LANE_CALLS" --overlap 4 > "$log"
  measure lanes "$log" timeline --format html
  local r
  r=$(node --input-type=module -e '
    import { spawn } from "node:child_process";
    import { readdirSync, readlinkSync } from "node:fs";
    const log = process.argv[1];
    const child = spawn("node", ["bin/cursorlog.js", "timeline", "--format", "html", log], { stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.resume();
    const reading = () => { try { return readdirSync(`/proc/${child.pid}/fd`).some((f) => { try { return readlinkSync(`/proc/${child.pid}/fd/${f}`) === log; } catch { return false; } }); } catch { return false; } };
    const t = setInterval(() => {
      if (reading()) { seen = true; return; }
      if (!seen) return;
      clearInterval(t);
      const sent = Date.now();
      child.kill("SIGINT");
      child.on("close", (code) => console.log(`exit ${code} ${Date.now() - sent} ms after SIGINT`));
    }, 20);
    let seen = false;' "$log")
  say "| lanes | SIGINT once the log of $LANE_CALLS calls is read (the page being made) | $r | | |"
}

blank() {
  head -c 4194304 /dev/zero | tr '\0' '\n' > "$TMP/newlines.ndjson"
  head -c 4194304 /dev/zero | tr '\0' ' ' > "$TMP/spaces.ndjson"
  for f in "$TMP/newlines.ndjson" "$TMP/spaces.ndjson"; do
    for c in $COMMANDS; do
      [ "$c" = diff ] && continue
      measure blank "$f" "$c"
    done
  done
}

fuzz() {
  local t0; t0=$(ms)
  FUZZ_RUNS=$FUZZ_RUNS node --import tsx --test test/robust-chunking.test.ts test/robust-fuzz.test.ts test/robust-lossless.test.ts test/robust-hostile.test.ts test/robust-inputs.test.ts > "$TMP/fuzz.tap" 2>&1 || true
  say "| fuzz | FUZZ_RUNS=$FUZZ_RUNS property and fuzz suites | $(grep -E '^# (pass|fail|todo)' "$TMP/fuzz.tap" | tr '\n' ' ') | $(($(ms) - t0)) ms | |"
}

say "| section | run | result | time | memory |"
say "| --- | --- | --- | --- | --- |"
for s in "${@:-roundtrip longline head slow fuzz open lanes blank}"; do
  for one in $s; do
    case $one in
      roundtrip) roundtrip ;;
      longline) longline ;;
      head) head1 ;;
      slow) slow ;;
      fuzz) fuzz ;;
      open) open_calls ;;
      lanes) lanes ;;
      blank) blank ;;
      *) echo "unknown section $one" >&2; exit 2 ;;
    esac
  done
done
