#!/usr/bin/env bash
# Interleaved A/B: in-house vs re2js build, same 200 MB log, medians of ROUNDS.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROUNDS=${ROUNDS:-7}
F=bench/.data/log-200M.ndjson
W=('text ~ (?i)error|timeout' 'tool_call.*.args.path ~ \.tsx?$' 'text ~ (error|fail).{0,300}(timeout|refused)' 'text ~ \b(fail|error)\w*\b.*\bline \d+' 'text == "x"')
declare -A T O
for ((r = 0; r < ROUNDS; r++)); do
  for i in "${!W[@]}"; do
    for b in inhouse re2js; do
      bin=bin/cursorlog.js; [[ $b == re2js ]] && bin=bench/regex-engines/cursorlog-re2js.js
      s=$EPOCHREALTIME
      out=$(node $bin filter -c --where "${W[$i]}" $F)
      e=$EPOCHREALTIME
      T[$i,$b]+="$(echo "$e - $s" | bc) "
      O[$i,$b]=$out
    done
  done
done
med() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for i in "${!W[@]}"; do
  a=$(echo ${T[$i,inhouse]} | med); b=$(echo ${T[$i,re2js]} | med)
  echo "| \`filter -c --where '${W[$i]}'\` | ${a} s | ${b} s | $(echo "scale=2; $b / $a" | bc)x | ${O[$i,inhouse]} / ${O[$i,re2js]} |"
  echo "  inhouse: ${T[$i,inhouse]}  re2js: ${T[$i,re2js]}"
done
