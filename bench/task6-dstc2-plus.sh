#!/usr/bin/env bash
# bAbI task 6 (DSTC2), issue 18: `rules-dstc2` (the paper's rule baseline) against `dstc2-plus`
# (the same rules, each response worded as the dialog's earlier wording makes most probable; other
# variants and their figures: docs/notes/hcn-dstc6-task6.md). Both models are deterministic (no seed).
# Prints per-response accuracy for three selection signals that use trn and dev only — trn 80 % → the other 20 % of trn (every fifth dialog held out), trn → dev (another
# mix of DSTC2 system versions), dev → trn (the other direction) — then trn → tst, once.
# Not part of `npm run bench`; ~15 s.
#
#   bash bench/task6-dstc2-plus.sh [../shared/data/dialog-bAbI-tasks] [work-dir]
set -euo pipefail
D=${1:-../shared/data/dialog-bAbI-tasks}
W=${2:-$(mktemp -d)}
CLI="node $(dirname "$0")/../dist/src/cli/index.js"
P="$D/dialog-babi-task6-dstc2"
# Held-out trn: dialogs are separated by blank lines; every fifth (0, 5, 10, …) is held out.
awk -v RS= -v ORS='\n\n' -v fit="$W/fit.txt" -v held="$W/held.txt" '{ print > ((NR - 1) % 5 == 0 ? held : fit) }' "$P-trn.txt"
acc() { # model train data
  $CLI eval --model "$1" --train "$2" --data "$3" --kb "$P-kb.txt" --json 2>/dev/null \
    | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log((100*JSON.parse(s).perResponse).toFixed(2)))'
}
printf '%-12s %14s %10s %10s %10s\n' model 'trn80->trn20' 'trn->dev' 'dev->trn' 'trn->tst'
for m in rules-dstc2 dstc2-plus; do
  printf '%-12s %14s %10s %10s %10s\n' "$m" "$(acc $m "$W/fit.txt" "$W/held.txt")" "$(acc $m "$P-trn.txt" "$P-dev.txt")" \
    "$(acc $m "$P-dev.txt" "$P-trn.txt")" "$(acc $m "$P-trn.txt" "$P-tst.txt")"
done
