#!/usr/bin/env bash
# Benchmark cursorlog against jq / miller on a generated cursor-agent stream-json log.
#
#   bash bench/run.sh [SIZE] [RUNS]          # defaults: 200M 5
#   JOBS="filter-tool_call json" bash bench/run.sh 50M 3
#   CURSORLOG="node bench/standin.mjs" bash bench/run.sh 5M 3
#
# Environment:
#   CURSORLOG      command that runs cursorlog (default: "node bin/cursorlog.js", from the repo root;
#                  the startup job's default is "bin/cursorlog.js", the executable as installed)
#   JOBS           space-separated subset of: filter-tool_call filter-exclude-thinking
#                  filter-where-regex json text timeline validate startup jobs jobs-text jobs-many
#                  scale (default: all)
#                  jobs-many: json --jobs 1 vs 2 over a folder of MANY_FILES one-session logs
#                  scale runs every command once on a 1 GB log (BIG): MB/s to compare with the
#                  200 MB rows, and peak RSS
#   STARTUP_RUNS   runs for the startup job (default: 20)
#   SCALE_RUNS     runs for each command of the scale job (default: 1)
#   SEED           generator seed for the main log (default: 1)
#   MANY_FILES     files in the folder of the jobs-many job (default: 2000)
#
# Never installs anything: a missing peer (jq, mlr, hyperfine, GNU time) is skipped with a note.
# Writes the Markdown table to stdout and to bench/results/<date>.md. No timing assertions.
set -euo pipefail

SIZE=${1:-200M}
RUNS=${2:-5}
STARTUP_RUNS=${STARTUP_RUNS:-20}
SEED=${SEED:-1}
MANY_FILES=${MANY_FILES:-2000}
ALL_JOBS="filter-tool_call filter-exclude-thinking filter-where-regex json text timeline validate startup jobs jobs-text jobs-many scale"
JOBS=${JOBS:-$ALL_JOBS}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# startup times what a user runs: the executable (its sh line, then node), not `node bin/...`.
STARTUP_CURSORLOG=${CURSORLOG:-bin/cursorlog.js}
CURSORLOG=${CURSORLOG:-node bin/cursorlog.js}
DATA=bench/.data
RESULTS=bench/results
mkdir -p "$DATA" "$RESULTS"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cursorlog-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

log() { printf '%s\n' "$*" >&2; }
die() { log "run.sh: $*"; exit 2; }

[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer (got '$RUNS')"
[[ $STARTUP_RUNS =~ ^[1-9][0-9]*$ ]] || die "STARTUP_RUNS must be a positive integer"
[[ $MANY_FILES =~ ^[1-9][0-9]*$ ]] || die "MANY_FILES must be a positive integer"
for j in $JOBS; do
  [[ " $ALL_JOBS " == *" $j "* ]] || die "unknown job '$j' (known: $ALL_JOBS)"
done
command -v node >/dev/null 2>&1 || die "node is required (the generator is bench/gen.mjs)"

to_bytes() { # 200M -> 209715200 (K/M/G are 1024-based, like gen.mjs)
  local s=$1
  [[ $s =~ ^([0-9]+)([KkMmGg]?)$ ]] || die "SIZE must look like 500K, 200M, 1G or a byte count (got '$s')"
  local n=${BASH_REMATCH[1]} u=${BASH_REMATCH[2]}
  case $u in
    K|k) echo $((n * 1024)) ;;
    M|m) echo $((n * 1024 * 1024)) ;;
    G|g) echo $((n * 1024 * 1024 * 1024)) ;;
    *) echo "$n" ;;
  esac
}
SIZE_BYTES=$(to_bytes "$SIZE")

NOTES=()
note() { NOTES+=("$*"); log "note: $*"; }

# ---------------------------------------------------------------- data

gen() { # gen OUTFILE SIZE SEED  (only when missing; atomic rename)
  local out=$1 size=$2 seed=$3
  if [[ -s $out ]]; then return 0; fi
  log "generating $out (size $size, seed $seed) ..."
  node bench/gen.mjs --size "$size" --seed "$seed" --out "$out.tmp"
  mv "$out.tmp" "$out"
}

needs_main=0 needs_parts=0 needs_small=0 needs_big=0 needs_many=0
for j in $JOBS; do
  case $j in
    startup) needs_small=1 ;;
    jobs | jobs-text) needs_parts=1 ;;
    jobs-many) needs_small=1 needs_many=1 ;;
    scale) needs_big=1 ;;
    *) needs_main=1 ;;
  esac
done

FILE=$DATA/log-$SIZE.ndjson
SMALL=$DATA/log-1K.ndjson
BIG=$DATA/log-1G.ndjson
PARTS=()
((needs_main)) && gen "$FILE" "$SIZE" "$SEED"
((needs_small)) && gen "$SMALL" 1K "$SEED"
((needs_big)) && gen "$BIG" 1G "$SEED"
if ((needs_parts)); then
  # part files are regenerated when SIZE changes (the stamp records the size they were made for)
  stamp=$DATA/parts.size
  if [[ ! -f $stamp || $(cat "$stamp") != "$SIZE" ]]; then
    rm -f "$DATA"/part-{1..4}.ndjson "$stamp"
  fi
  for i in 1 2 3 4; do
    gen "$DATA/part-$i.ndjson" $((SIZE_BYTES / 4)) $((100 + i))
    PARTS+=("$DATA/part-$i.ndjson")
  done
  echo "$SIZE" > "$stamp"
fi
MANY=$DATA/many-$MANY_FILES
if ((needs_many)) && [[ ! -d $MANY ]]; then
  # MANY_FILES copies of the 1 KB one-session log: the cost per file, not per byte.
  log "making $MANY ($MANY_FILES files) ..."
  rm -rf "$MANY.tmp" && mkdir -p "$MANY.tmp"
  for ((i = 0; i < MANY_FILES; i++)); do printf -v name 'run-%05d.ndjson' "$i"; cp "$SMALL" "$MANY.tmp/$name"; done
  mv "$MANY.tmp" "$MANY"
fi

file_mb() { # total size in MB (10^6 bytes) of the given files
  local total=0 f
  for f in "$@"; do total=$((total + $(wc -c < "$f"))); done
  awk -v b="$total" 'BEGIN { printf "%.1f", b / 1e6 }'
}

# ---------------------------------------------------------------- tools

GNU_TIME=""
if [[ -x /usr/bin/time ]] && /usr/bin/time -f '%M' -o "$TMP/probe" true 2>/dev/null; then
  GNU_TIME=/usr/bin/time
else
  note "GNU time (/usr/bin/time) not found: peak RSS not measured (install with: apt-get install time)"
fi
have() { command -v "$1" >/dev/null 2>&1; }
first_error() { # the most telling line of a stderr file, shortened
  local l
  l=$(grep -m 1 -iE 'error|not found|no such' "$1" 2>/dev/null || head -n 1 "$1" 2>/dev/null || true)
  printf '%s' "${l:0:200}"
}
have jq || note "jq not found: jq rows skipped (apt-get install jq)"
have mlr || note "mlr (Miller 6) not found: mlr row skipped (apt-get install miller)"
have rg || note "rg (ripgrep) not found: the filter ceiling row skipped (apt-get install ripgrep)"

CURSORLOG_OK=1
if ! eval "$CURSORLOG --help" >/dev/null 2>"$TMP/probe.err"; then
  CURSORLOG_OK=0
  note "cursorlog does not run (CURSORLOG=\"$CURSORLOG\" --help: $(first_error "$TMP/probe.err")): cursorlog rows skipped"
fi

now() { # seconds with microseconds
  if [[ -n ${EPOCHREALTIME:-} ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi
}

median() { # numbers on stdin -> median
  sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# ---------------------------------------------------------------- measuring

ROWS=()      # formatted table rows
declare -A BASE_S   # group -> baseline median seconds

md_escape() { local s=$1; s=${s//|/\\|}; printf '%s' "$s"; }

# expand a display template into the command that is run
expand() {
  local t=$1 parts
  parts=$(printf '%q ' "${PARTS[@]+"${PARTS[@]}"}")
  t=${t//FILE/$(printf '%q' "$FILE")}
  t=${t//SMALL/$(printf '%q' "$SMALL")}
  t=${t//BIG/$(printf '%q' "$BIG")}
  t=${t//MANY/$(printf '%q' "$MANY")}
  t=${t//PARTS/${parts% }}
  if [[ $t == cursorlog\ * ]]; then t="$CURSORLOG ${t#cursorlog }"; fi
  printf '%s' "$t"
}

# measure GROUP TEMPLATE RUNS MB [baseline]
#   runs the command RUNS times (stdout to /dev/null) and appends a table row.
#   The first row measured in a GROUP with "baseline" is the reference for the ratio column.
measure() {
  local group=$1 tpl=$2 runs=$3 mb=$4 is_base=${5:-}
  local cmd; cmd=$(expand "$tpl")
  local times=() cpus=() rss_max=0 i t0 t1 rc status=ok
  local err="$TMP/err"
  log "[$group] $tpl  (x$runs)"
  for ((i = 0; i < runs; i++)); do
    rc=0
    t0=$(now)
    if [[ -n $GNU_TIME ]]; then
      eval "$GNU_TIME -f '%U %S %M' -o \"\$TMP/rss\" $cmd" >/dev/null 2>"$err" || rc=$?
    else
      eval "$cmd" >/dev/null 2>"$err" || rc=$?
    fi
    t1=$(now)
    if ((rc != 0)); then
      status="failed (exit $rc)"
      note "$group: \`$tpl\` failed with exit $rc: $(first_error "$err")"
      break
    fi
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
    if [[ -n $GNU_TIME ]]; then
      local last kb; last=$(tail -n 1 "$TMP/rss"); kb=${last##* }
      [[ $kb =~ ^[0-9]+$ ]] && ((kb > rss_max)) && rss_max=$kb
      cpus+=("$(awk '{ printf "%.2f", $1 + $2 }' <<<"$last")")
    fi
  done
  local med="" mbs="-" ratio="-" rss="n/a" cpu="n/a"
  if [[ $status == ok ]]; then
    med=$(printf '%s\n' "${times[@]}" | median)
    if [[ $mb != - ]]; then mbs=$(awk -v m="$mb" -v s="$med" 'BEGIN { printf "%.1f", m / s }'); fi
    [[ -n $GNU_TIME ]] && rss=$(awk -v k="$rss_max" 'BEGIN { printf "%.0f", k / 1024 }')
    [[ -n $GNU_TIME ]] && cpu=$(printf '%s\n' "${cpus[@]}" | median)
    if [[ -n $is_base ]]; then BASE_S[$group]=$med; fi
    if [[ -n ${BASE_S[$group]:-} ]]; then
      ratio=$(awk -v s="$med" -v b="${BASE_S[$group]}" 'BEGIN { printf "%.2f", s / b }')
    fi
    med=$(awk -v s="$med" 'BEGIN { printf "%.3f", s }')
  else
    med=$status
  fi
  ROWS+=("| $group | \`$(md_escape "$tpl")\` | $med | $cpu | $mbs | $ratio | $rss | $(verdict "$ratio" "$rss") |")
}

# The issue's targets (issue 16), beside the figure they judge. TARGET, set before a row is
# measured: "ratio>=10" (the peer's median over cursorlog's: cursorlog at least 10x faster),
# "ratio>=0.25" (cursorlog within 4x of the peer), "rss<=120" (peak RSS in MB), or empty.
TARGET=""
verdict() { # verdict RATIO RSS -> "target: met|MISSED" or "-"
  local ratio=$1 rss=$2 what op want have
  [[ -z $TARGET ]] && { printf -- '-'; return; }
  what=${TARGET%%[<>]=*}; op=${TARGET#"$what"}; want=${op:2}; op=${op:0:2}
  if [[ $what == ratio ]]; then have=$ratio; else have=$rss; fi
  if [[ ! $have =~ ^[0-9.]+$ ]]; then printf '%s %s: not measured' "$what" "$op$want"; return; fi
  if awk -v h="$have" -v w="$want" -v o="$op" 'BEGIN { exit !((o == ">=") ? h >= w : h <= w) }'; then
    printf '%s %s: met' "$what" "$op$want"
  else
    printf '%s %s: **MISSED**' "$what" "$op$want"
  fi
}
target() { TARGET=$1; }

# cursorlog row of a group: measured first, it is the ratio baseline
cl() {
  local group=$1 tpl=$2 runs=$3 mb=$4
  if ((CURSORLOG_OK)); then
    measure "$group" "$tpl" "$runs" "$mb" baseline
  else
    ROWS+=("| $group | \`$(md_escape "$tpl")\` | skipped | - | - | - | - | - |")
  fi
}
peer() { # peer TOOL GROUP TEMPLATE RUNS MB
  local tool=$1; shift
  if have "$tool"; then measure "$@"; else ROWS+=("| $1 | \`$(md_escape "$2")\` | skipped ($tool missing) | - | - | - | - | - |"); fi
}

# startup: hyperfine when available (better at short commands), else the measure() loop
startup() {
  local tpls=("cursorlog json SMALL" "node -e 0")
  # `cursorlog` here is the command as installed: bin/cursorlog.js executed, whose first line starts
  # sh (to see a stdout closed by the shell) and execs node; expand() reads this CURSORLOG.
  local CURSORLOG=$STARTUP_CURSORLOG
  note "startup: \`cursorlog\` is \`$CURSORLOG\` (executed as installed: sh, then node)"
  # cursorlog's start-up at most 1.35x node's: node's median over cursorlog's at least 1/1.35
  if ! have hyperfine; then
    note "hyperfine not found: startup timed with a shell loop ($STARTUP_RUNS runs)"
    cl startup "${tpls[0]}" "$STARTUP_RUNS" -
    measure startup "${tpls[1]}" "$STARTUP_RUNS" -
    return
  fi
  local tpl first=1
  for tpl in "${tpls[@]}"; do
    if [[ $tpl == cursorlog* ]] && ((!CURSORLOG_OK)); then
      ROWS+=("| startup | \`$tpl\` | skipped | - | - | - | - | - |"); first=0; continue
    fi
    local cmd; cmd=$(expand "$tpl")
    log "[startup] $tpl  (hyperfine, $STARTUP_RUNS runs)"
    local med="" rss="n/a" rc=0
    hyperfine -N --warmup 3 --runs "$STARTUP_RUNS" --export-json "$TMP/hf.json" "$cmd" >/dev/null 2>"$TMP/err" || rc=$?
    if ((rc != 0)); then
      note "startup: \`$tpl\` failed under hyperfine (non-zero exit): $(first_error "$TMP/err")"
      ROWS+=("| startup | \`$(md_escape "$tpl")\` | failed | - | - | - | - | - |"); first=0; continue
    fi
    med=$(node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).results[0]; console.log(r.median)' "$TMP/hf.json")
    if [[ -n $GNU_TIME ]]; then
      eval "$GNU_TIME -f '%M' -o \"\$TMP/rss\" $cmd" >/dev/null 2>&1 || true
      local kb; kb=$(tail -n 1 "$TMP/rss")
      [[ $kb =~ ^[0-9]+$ ]] && rss=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
    fi
    if ((first)) && [[ $tpl == cursorlog* ]]; then BASE_S[startup]=$med; fi
    if [[ $tpl == node* ]]; then target "ratio>=0.74"; else target ""; fi
    local ratio="-"
    [[ -n ${BASE_S[startup]:-} ]] && ratio=$(awk -v s="$med" -v b="${BASE_S[startup]}" 'BEGIN { printf "%.2f", s / b }')
      ROWS+=("| startup | \`$(md_escape "$tpl")\` | $(awk -v s="$med" 'BEGIN { printf "%.3f", s }') | - | - | $ratio | $rss | $(verdict "$ratio" "$rss") |")
    first=0
  done
}

# ---------------------------------------------------------------- jobs

MB_MAIN=-; ((needs_main)) && MB_MAIN=$(file_mb "$FILE")
MB_PARTS=-; ((needs_parts)) && MB_PARTS=$(file_mb "${PARTS[@]}")
MB_BIG=-; ((needs_big)) && MB_BIG=$(file_mb "$BIG")

for j in $JOBS; do
  target ""
  case $j in
    filter-tool_call)
      cl "$j" "cursorlog filter --type tool_call FILE" "$RUNS" "$MB_MAIN"
      target "ratio>=10"; peer jq "$j" "jq -c 'select(.type==\"tool_call\")' FILE" "$RUNS" "$MB_MAIN"
      # the ceiling: the same lines (a type-first tool_call line) written by a byte search
      target "ratio>=0.25"; peer rg "$j" "rg -F '{\"type\":\"tool_call\"' FILE" "$RUNS" "$MB_MAIN" ;;
    filter-exclude-thinking)
      cl "$j" "cursorlog filter --exclude-type thinking FILE" "$RUNS" "$MB_MAIN"
      peer jq "$j" "jq -c 'select(.type!=\"thinking\")' FILE" "$RUNS" "$MB_MAIN" ;;
    filter-where-regex)
      cl "$j" "cursorlog filter --where 'text ~ (?i)error|timeout' FILE" "$RUNS" "$MB_MAIN"
      peer jq "$j" "jq -c 'select(.text? | strings | test(\"error|timeout\"; \"i\"))' FILE" "$RUNS" "$MB_MAIN" ;;
    json)
      cl "$j" "cursorlog json FILE" "$RUNS" "$MB_MAIN"
      target "ratio>=10"; peer jq "$j" "jq -c 'select(.type==\"result\")' FILE" "$RUNS" "$MB_MAIN" ;;
    text)
      cl "$j" "cursorlog text FILE" "$RUNS" "$MB_MAIN"
      target "ratio>=7"; peer jq "$j" "jq -r 'select(.type==\"tool_call\" and .subtype==\"completed\") | .tool_call | keys[] | select(endswith(\"ToolCall\"))' FILE" "$RUNS" "$MB_MAIN" ;;
    timeline)
      cl "$j" "cursorlog timeline FILE" "$RUNS" "$MB_MAIN"
      target "ratio>=7"; peer jq "$j" "jq -r 'select(.type==\"tool_call\" and .subtype==\"completed\") | [.session_id, .call_id, (.tool_call|keys[]|select(endswith(\"ToolCall\"))), .timestamp_ms] | @csv' FILE" "$RUNS" "$MB_MAIN"
      target ""; peer mlr "$j" "mlr --ijsonl --ocsv filter '\$type==\"tool_call\"' then cut -f session_id,call_id,subtype,timestamp_ms FILE" "$RUNS" "$MB_MAIN" ;;
    validate)
      cl "$j" "cursorlog validate FILE" "$RUNS" "$MB_MAIN"
      target "ratio>=6"; peer jq "$j" "jq -c . FILE" "$RUNS" "$MB_MAIN" ;;
    startup)
      startup ;;
    jobs | jobs-text)
      c=json; [[ $j == jobs-text ]] && c=text
      cl "$j" "cursorlog $c --jobs 1 PARTS" "$RUNS" "$MB_PARTS"
      if ((CURSORLOG_OK)); then measure "$j" "cursorlog $c --jobs 2 PARTS" "$RUNS" "$MB_PARTS"
      else ROWS+=("| $j | \`cursorlog $c --jobs 2 PARTS\` | skipped | - | - | - | - | - |"); fi ;;
    jobs-many)
      cl "$j" "cursorlog json --jobs 1 MANY" "$RUNS" -
      if ((CURSORLOG_OK)); then measure "$j" "cursorlog json --jobs 2 MANY" "$RUNS" -
      else ROWS+=("| $j | \`cursorlog json --jobs 2 MANY\` | skipped | - | - | - | - | - |"); fi ;;
    scale)
      if ((CURSORLOG_OK)); then
        target "rss<=120"
        for c in "json" "text" "timeline" "filter --type tool_call" "filter --exclude-type thinking" "validate" "stats"; do
          measure "$j" "cursorlog $c BIG" "${SCALE_RUNS:-1}" "$MB_BIG"
        done
      fi ;;
  esac
done

# ---------------------------------------------------------------- report

ver() { "$@" 2>/dev/null | head -n 1 || true; }
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo "uncommitted")
{
  echo "# cursorlog benchmark — $(date -u +'%Y-%m-%d %H:%M UTC')"
  echo
  echo "- data: \`$FILE\` ($MB_MAIN MB, seed $SEED); parts: 4 × SIZE/4 (${MB_PARTS} MB total); BIG: ${MB_BIG} MB; runs: $RUNS (startup: $STARTUP_RUNS, scale: ${SCALE_RUNS:-1})"
  echo "- machine: $(nproc 2>/dev/null || echo '?') cores${cpu:+, $cpu}, $(awk '/MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)"
  echo "- versions: node $(node --version), $(ver jq --version), $(ver mlr --version), $(ver hyperfine --version); cursorlog \`$CURSORLOG\` at $rev"
  echo "- FILE = \`$FILE\`, SMALL = \`$SMALL\`, PARTS = \`$DATA/part-{1..4}.ndjson\`, BIG = \`$BIG\`"
  echo "- median s: median wall time; CPU s: median user + sys time (GNU time), steadier than wall time on a shared machine; MB/s: input MB (10^6 bytes) / median s; ratio: median s / median s of the group's first (cursorlog) row, so > 1 means slower than cursorlog; peak RSS: max over runs (GNU time %M)"
  echo
  echo "- target: issue 16's goal for the row's ratio (or, on the 1 GB rows, its peak RSS), and whether this run met it"
  echo
  echo "| job | command | median s | CPU s | MB/s | ratio to cursorlog | peak RSS MB | target |"
  echo "|---|---|---:|---:|---:|---:|---:|---|"
  printf '%s\n' "${ROWS[@]}"
  if ((${#NOTES[@]})); then
    echo
    echo "Notes:"
    echo
    for n in "${NOTES[@]}"; do echo "- $n"; done
  fi
} > "$TMP/report.md"

out=$RESULTS/$(date +%F).md
[[ -e $out ]] && out=$RESULTS/$(date +%F-%H%M%S).md
cp "$TMP/report.md" "$out"
cat "$TMP/report.md"
log "saved $out"
