#!/usr/bin/env bash
# Two builds of cursorlog compared command by command, in turn, on the same logs: the CPU time
# (user + sys) and peak RSS of each run, as GNU time measures them, and the median of each.
# Interleaving A and B run by run is what makes the ratio fair on a shared machine: whatever else
# runs slows both alike. Not part of `make bench` (which compares cursorlog with jq and Miller).
#
#   bash bench/ab.sh A_DIR B_DIR ROUNDS LOG100 CALLS200K
#
#   A_DIR, B_DIR   two checkouts, each built (npm run build): e.g. a worktree of the commit before
#                  a change, and this one
#   LOG100         node bench/gen.mjs --size 100M --seed 1 --out LOG100
#   CALLS200K      node test/stress/calls-log.mjs 200000 > CALLS200K
#
# Prints a Markdown table: command, median CPU s of A and B, B/A, median (max) peak RSS MiB of each.
set -euo pipefail
[[ $# -eq 5 ]] || { sed -n 2,14p "$0" >&2; exit 2; }
A=$1 B=$2 ROUNDS=$3 LOG=$4 CALLS=$5
command -v /usr/bin/time >/dev/null || { echo "ab.sh: GNU time (/usr/bin/time) is required" >&2; exit 2; }
OUT=$(mktemp -d "${TMPDIR:-/tmp}/cursorlog-ab.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

CASES=(
  "json|json $LOG"
  "text -v|text -v $LOG"
  "filter --type tool_call|filter --type tool_call $LOG"
  "timeline|timeline $LOG"
  "validate|validate $LOG"
  "stats|stats $LOG"
  "show|show $LOG"
  "export|export $LOG"
  "timeline (200k calls)|timeline $CALLS"
  "--version|--version"
)

for ((r = 1; r <= ROUNDS; r++)); do
  for k in "${!CASES[@]}"; do
    args=${CASES[$k]#*|}
    for side in A B; do
      dir=$A; [[ $side == B ]] && dir=$B
      # shellcheck disable=SC2086
      /usr/bin/time -o "$OUT/t" -f "%U %S %M" node "$dir/bin/cursorlog.js" $args >/dev/null 2>"$OUT/err" || true
      echo "$(cat "$OUT/t")" >>"$OUT/$k.$side"
    done
  done
done

node - "$OUT" "${#CASES[@]}" "${CASES[@]}" <<'EOF'
const fs = require("node:fs");
const [dir, n, ...cases] = process.argv.slice(2);
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const read = (f) => fs.readFileSync(f, "utf8").trim().split("\n").map((l) => l.split(" ").map(Number)).map(([u, s, m]) => ({ cpu: u + s, rss: m / 1024 }));
console.log("| command | CPU s A | CPU s B | B/A | peak RSS MiB A, median (max) | B |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (let k = 0; k < Number(n); k++) {
  const a = read(`${dir}/${k}.A`), b = read(`${dir}/${k}.B`);
  const ca = med(a.map((x) => x.cpu)), cb = med(b.map((x) => x.cpu));
  const r = (xs) => `${med(xs.map((x) => x.rss)).toFixed(1)} (${Math.max(...xs.map((x) => x.rss)).toFixed(1)})`;
  console.log(`| \`${cases[k].split("|")[0]}\` | ${ca.toFixed(2)} | ${cb.toFixed(2)} | ${(cb / ca).toFixed(2)} | ${r(a)} | ${r(b)} |`);
}
EOF
