#!/usr/bin/env bash
# Issue 7's DSTC6 line, end to end: train `hcn` per task on dialogym-generated DSTC6 data only
# (a generated KB; 2,500 trn entries + 2,500 entries of a generated restrictions set, tst3-style),
# rank the 20 real test files with their KB (extendedkb1 for tst1/tst3, extendedkb2 for tst2/tst4)
# and print P@1 per file with the official scorer. Not part of `npm run bench` (~15–25 min on 2 cores).
#
#   bash bench/hcn-dstc6.sh [../shared/data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0] [work-dir]
set -euo pipefail
T=${1:-../shared/data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0}
W=${2:-$(mktemp -d)}
CLI="node $(dirname "$0")/../dist/src/cli/index.js"
N=${HCN_DSTC6_EXAMPLES:-2500}
EPOCHS=${HCN_DSTC6_EPOCHS:-4}
mkdir -p "$W/trn" "$W/rst" "$W/models" "$W/ranked"
start=$(date +%s)
$CLI generate dstc6 --task all --set trn --seed 1 --examples "$N" --out "$W/trn" >/dev/null
$CLI generate dstc6 --task all --set tst3 --seed 2 --examples "$N" --kb "$W/trn/extendedkb1.txt" --out "$W/rst" >/dev/null
echo "generated in $(( $(date +%s) - start )) s → $W"
names=(API REFINE OPTIONS INFOS FULL)
printf '%-8s %8s %8s %8s %8s %10s\n' task tst1 tst2 tst3 tst4 train-s
for task in 1 2 3 4 5; do
  name=${names[$((task - 1))]}
  trn=$(ls "$W"/trn/dialog-task${task}${name}-*.json | grep -v answers | head -1)
  rst=$(ls "$W"/rst/dialog-task${task}${name}-*.json | grep -v answers | head -1)
  t0=$(date +%s)
  $CLI train --model hcn --train "$trn,$rst" --kb "$W/trn/extendedkb1.txt" --epochs "$EPOCHS" --out "$W/models/t$task.dgm" >/dev/null 2>&1
  secs=$(( $(date +%s) - t0 ))
  row=()
  for s in 1 2 3 4; do
    kbn=$(( s % 2 == 1 ? 1 : 2 ))
    f=$(ls "$T"/tst$s/dialog-task${task}${name}-*.json | grep -v answers | head -1)
    $CLI dstc6 rank --model "$W/models/t$task.dgm" --kb "$T/extendedkb$kbn.txt" --data "$f" --out "$W/ranked/t$task-tst$s.json" >/dev/null 2>&1
    p1=$($CLI dstc6 score --result "$W/ranked/t$task-tst$s.json" --truth "${f%.json}.answers.json" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).p1.toFixed(3)))')
    row+=("$p1")
  done
  printf '%-8s %8s %8s %8s %8s %10s\n' "task$task" "${row[@]}" "$secs"
done
echo "total $(( $(date +%s) - start )) s"
