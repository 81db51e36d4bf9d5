#!/usr/bin/env bash
# The --jobs figures of docs/RELIABILITY.md, by hand (never in npm test: minutes, ~1.2 GB of /tmp).
# Prints one Markdown line per measurement.
#
#   npm run build && bash test/stress/jobs.sh                 # everything
#   bash test/stress/jobs.sh many big                         # some sections
#   RUNS=5 PART=256M MANY="2000 10000" bash test/stress/jobs.sh
#
# Sections:
#   many   MANY (default "2000 10000") one-session logs of 1 KB in a folder: json --jobs 1 vs 2,
#          median of RUNS, and the outputs' sha256 (must be equal)
#   big    4 logs of PART (default 256M): json and text --jobs 1 vs 2, and as a control two
#          processes of two files each at once (the speed-up the machine gives), run in turn in
#          each of RUNS rounds (the three see the same load): medians, each round's ratios, sha256
#   cap    --jobs 400 over 8 files: the note, the threads started (peak of /proc/PID/status
#          Threads), peak RSS
#   full   json --jobs 2 with a 1 MB tmpfs as TMPDIR (root only): status 2 and the message, the
#          output before the failed file whole
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-3}
PART=${PART:-256M}
MANY=${MANY:-2000 10000}
TMP=${TMPDIR:-/tmp}/cursorlog-stress-jobs
# CURSORLOG: another build to measure (a scratch copy with a changed bin/, say); default this checkout.
BIN=${CURSORLOG:-node bin/cursorlog.js}
mkdir -p "$TMP"
[ -f dist/bundle/main.js ] || { echo "run npm run build first" >&2; exit 2; }

say() { printf '%s\n' "$*"; }
now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# timed RUNS ARGS...: median wall seconds of `cursorlog ARGS > /dev/null`
timed() {
  local i t0 t1 ts=()
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now)
    $BIN "$@" > /dev/null 2>"$TMP/err" || true
    t1=$(now)
    ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${ts[@]}" | median
}
# timed1 ARGS...: wall seconds of one `cursorlog ARGS > /dev/null`
timed1() {
  local t0 t1
  t0=$(now)
  $BIN "$@" > /dev/null 2>"$TMP/err" || true
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
sha() { $BIN "$@" 2>/dev/null | sha256sum | cut -c1-16; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

many() {
  local small="$TMP/one.ndjson" n dir
  node bench/gen.mjs --size 1K --seed 1 --out "$small"
  for n in $MANY; do
    dir="$TMP/many-$n"
    if [ ! -d "$dir" ]; then
      mkdir -p "$dir.tmp"
      for ((i = 0; i < n; i++)); do printf -v f '%s/run-%05d.ndjson' "$dir.tmp" "$i"; cp "$small" "$f"; done
      mv "$dir.tmp" "$dir"
    fi
    local one two same
    one=$(timed json --jobs 1 "$dir")
    two=$(timed json --jobs 2 "$dir")
    [ "$(sha json --jobs 1 "$dir")" = "$(sha json --jobs 2 "$dir")" ] && same="equal" || same="DIFFERENT"
    say "| many | json, $n files of 1 KB in a folder | --jobs 1: ${one} s | --jobs 2: ${two} s | ratio $(ratio "$two" "$one") | output sha256 $same |"
  done
}

big() {
  local parts=() i c
  for i in 1 2 3 4; do
    parts+=("$TMP/part-$PART-$i.ndjson")
    [ -f "${parts[-1]}" ] || node bench/gen.mjs --size "$PART" --seed $((100 + i)) --out "${parts[-1]}"
  done
  for c in json text; do
    # Each round runs --jobs 1, --jobs 2 and the control one after the other, so that the three
    # see the same load (the machine is shared): the ratios are of one round's times, medians over
    # RUNS rounds. The control is the machine's own ceiling: two processes, two files each, at
    # once (what xargs -P 2 gets).
    local one=() two=() both=() r1=() r2=() t0 t1 same load
    for ((i = 0; i < RUNS; i++)); do
      one+=("$(timed1 $c --jobs 1 "${parts[@]}")")
      two+=("$(timed1 $c --jobs 2 "${parts[@]}")")
      t0=$(now)
      $BIN $c "${parts[0]}" "${parts[1]}" > /dev/null 2>&1 & $BIN $c "${parts[2]}" "${parts[3]}" > /dev/null 2>&1 || true
      wait || true
      t1=$(now)
      both+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
      r1+=("$(ratio "${two[-1]}" "${one[-1]}")")
      r2+=("$(ratio "${both[-1]}" "${one[-1]}")")
    done
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    local m1 m2 mb
    m1=$(printf '%s\n' "${one[@]}" | median)
    m2=$(printf '%s\n' "${two[@]}" | median)
    mb=$(printf '%s\n' "${both[@]}" | median)
    [ "$(sha $c --jobs 1 "${parts[@]}")" = "$(sha $c --jobs 2 "${parts[@]}")" ] && same="equal" || same="DIFFERENT"
    say "| big | $c, 4 files of $PART | --jobs 1: ${m1} s | --jobs 2: ${m2} s | ratio $(ratio "$m2" "$m1") (per round: median $(printf '%s\n' "${r1[@]}" | median), all ${r1[*]}) | output sha256 $same |"
    say "| big | $c, 4 files of $PART, control: 2 processes of 2 files at once | one process: ${m1} s | two: ${mb} s | ratio $(ratio "$mb" "$m1") (per round: median $(printf '%s\n' "${r2[@]}" | median), all ${r2[*]}) | load average $load |"
  done
}

cap() {
  local files=() i
  for i in 1 2 3 4 5 6 7 8; do files+=("$TMP/part-$PART-1.ndjson"); done
  [ -f "${files[0]}" ] || node bench/gen.mjs --size "$PART" --seed 101 --out "${files[0]}"
  $BIN json --jobs 400 "${files[@]}" > /dev/null 2>"$TMP/err" &
  local pid=$! threads=0 rss=0 t r
  while kill -0 "$pid" 2>/dev/null; do
    t=$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
    r=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${t:-0}" -gt "$threads" ] && threads=$t
    [ "${r:-0}" -gt "$rss" ] && rss=$r
    sleep 0.05
  done
  wait "$pid" || true
  say "| cap | json --jobs 400, 8 files, $(nproc) CPUs | $(grep -m1 'note' "$TMP/err" || echo 'NO NOTE') | peak OS threads $threads (Node's own included) | peak RSS $((rss / 1024)) MiB |"
}

full() {
  if [ "$(id -u)" != 0 ]; then say "| full | skipped: mounting a tmpfs needs root |"; return; fi
  local mnt="$TMP/tmpfs" big="$TMP/many-sessions.ndjson"
  mkdir -p "$mnt"
  mount -t tmpfs -o size=1m tmpfs "$mnt"
  node -e 'const fs = require("fs"); const s = fs.readFileSync("test/fixtures/two-sessions.ndjson", "utf8"); fs.writeFileSync(process.argv[1], s.repeat(Math.ceil((12 << 20) / s.length)))' "$big"
  local status=0
  TMPDIR="$mnt" $BIN json --jobs 2 test/fixtures/2026-long.ndjson "$big" test/fixtures/two-sessions.ndjson > "$TMP/out" 2>"$TMP/err" || status=$?
  umount "$mnt"
  local first; first=$($BIN json test/fixtures/2026-long.ndjson | sha256sum | cut -c1-16)
  say "| full | json --jobs 2, 1 MB tmpfs as TMPDIR, 2.3 MB of output | status $status | $(head -c 160 "$TMP/err" | tr '\n' ' ') | stdout = first file's output: $([ "$(sha256sum < "$TMP/out" | cut -c1-16)" = "$first" ] && echo yes || echo NO) |"
}

sections=${*:-many big cap full}
for s in $sections; do "$s"; done
