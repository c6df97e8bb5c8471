#!/usr/bin/env bash
# DSTC6 Track 1 under the challenge's rules (issue 18), end to end: train `hcn` per task on
# dialogym-generated trn-style data only (KB 1 = the real extendedkb1.txt, atmosphere slot, the
# official training-set size of 10,000 entries per task, no restrictions slot anywhere: checked
# below), rank the 20 real test files with their KB (extendedkb1 for tst1/tst3, extendedkb2 for
# tst2/tst4; tst3/tst4 add the restrictions slot the model never saw in a dialog) and print the
# official P@1 per file. Not part of `npm run bench`.
#
#   bash bench/hcn-dstc6.sh [../shared/data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0] [work-dir]
#   HCN_DSTC6_EXAMPLES=2500 HCN_DSTC6_EPOCHS=4 bash bench/hcn-dstc6.sh   # smaller, faster
set -euo pipefail
T=${1:-../shared/data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0}
W=${2:-$(mktemp -d)}
CLI="node $(dirname "$0")/../dist/src/cli/index.js"
N=${HCN_DSTC6_EXAMPLES:-10000}
EPOCHS=${HCN_DSTC6_EPOCHS:-4}
mkdir -p "$W/trn" "$W/models" "$W/ranked"
start=$(date +%s)
$CLI generate dstc6 --task all --set trn --seed 1 --dialogs "$N" --kb "$T/extendedkb1.txt" --out "$W/trn" >/dev/null
# The challenge's training data has no restrictions slot: no question for it, no user saying a
# restrictions value, no api_call with one (KB-result lines do list R_restrictions, as in the real
# trn/tst1 files, since KB 1 has the attribute).
node -e '
const fs = require("fs");
let bad = 0;
for (const f of process.argv.slice(1)) {
  const texts = JSON.parse(fs.readFileSync(f, "utf8")).flatMap((e) => [...e.utterances, ...e.candidates.map((c) => c.utterance), e.answer ? e.answer.utterance : ""]);
  const hits = texts.filter((t) => !/^\S+ r_\w+ /.test(t) && /dietary|restriction|menu options|\b(glutenfree|vegan|vegetarian)\b/.test(t));
  if (hits.length > 0) { console.error(`error: ${f}: the restrictions slot in the training dialogs: ${hits[0]}`); bad++; }
}
process.exit(bad ? 1 : 0);
' "$W"/trn/dialog-*.json
echo "generated in $(( $(date +%s) - start )) s → $W (no restrictions slot in the training dialogs)"
names=(API REFINE OPTIONS INFOS FULL)
printf '%-8s %8s %8s %8s %8s %10s\n' task tst1 tst2 tst3 tst4 train-s
for task in 1 2 3 4 5; do
  name=${names[$((task - 1))]}
  trn=$(ls "$W"/trn/dialog-task${task}${name}-*.json | head -1)
  t0=$(date +%s)
  $CLI train --model hcn --train "$trn" --kb "$T/extendedkb1.txt" --epochs "$EPOCHS" --out "$W/models/t$task.dgm" >/dev/null 2>&1
  secs=$(( $(date +%s) - t0 ))
  row=()
  for s in 1 2 3 4; do
    kbn=$(( s % 2 == 1 ? 1 : 2 ))
    f=$(ls "$T"/tst$s/dialog-task${task}${name}-*.json | grep -v answers | head -1)
    $CLI dstc6 rank --model "$W/models/t$task.dgm" --kb "$T/extendedkb$kbn.txt" --data "$f" --out "$W/ranked/t$task-tst$s.json" >/dev/null 2>&1
    p1=$($CLI dstc6 score --result "$W/ranked/t$task-tst$s.json" --answers "${f%.json}.answers.json" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).p1.toFixed(3)))')
    row+=("$p1")
  done
  printf '%-8s %8s %8s %8s %8s %10s\n' "task$task" "${row[@]}" "$secs"
done
echo "total $(( $(date +%s) - start )) s"
