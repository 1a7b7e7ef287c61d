#!/bin/bash
# The closing-note table of issue 11: per task, the best shipped kernel against the library baseline (ATen on
# the CPU) and the naive baseline (the reference built in fp32), with the fraction of the memory-bound floor each
# reaches on the memory-bound cases. Every number comes from `kope eval --json` runs made here.
#
#   bench/suite_table.sh [LEVELS] [TASK...]      LEVELS as for --level (default 1,2); run from the repository root
#
# Environment: KOPE (default build/bin/kope), OUT (the JSON reports, default bench/out/suite_table),
# WARMUP and REPS (default 1 and 3), TIMEOUT (seconds per case, default kope's; the L4 large cases time their naive
# baseline for seconds a call), KERNELS (a glob of the shipped kernels to run, default *.cpp), WORKSPACE (default a fresh temporary folder), SKIP_EVAL=1 to only
# re-print the table from the JSON already in OUT.
set -uo pipefail
KOPE=${KOPE:-build/bin/kope}
OUT=${OUT:-bench/out/suite_table}
WARMUP=${WARMUP:-1}
REPS=${REPS:-3}
WORKSPACE=${WORKSPACE:-$(mktemp -d /tmp/kope-suite-table.XXXXXX)}
levels=${1:-1,2}
shift || true
mkdir -p "$OUT"
if [ $# -gt 0 ]; then tasks="$*"; else
  tasks=$("$KOPE" suite list --level "$levels" --json | python3 -c 'import json,sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["tasks"]))')
fi
common=(--workspace "$WORKSPACE" --warmup "$WARMUP" --reps "$REPS" --json)
[ -n "${TIMEOUT:-}" ] && common+=(--timeout "$TIMEOUT")
for t in $tasks; do
  "$KOPE" suite show "$t" --json > "$OUT/$t.task.json"
  [ "${SKIP_EVAL:-0}" = 1 ] && continue
  echo "== $t" >&2
  "$KOPE" eval --task "$t" --library "${common[@]}" > "$OUT/$t.library.json" 2> "$OUT/$t.library.err"
  for k in resources/kernels/"$t"/cpu/${KERNELS:-*.cpp}; do
    "$KOPE" eval --task "$t" --kernel "$k" "${common[@]}" > "$OUT/$t.kernel.$(basename "$k" .cpp).json" 2> /dev/null
  done
done
python3 "$(dirname "$0")/suite_table.py" "$OUT" $tasks
