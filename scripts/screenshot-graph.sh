#!/usr/bin/env bash
# Builds a small real workspace (the offline loop on gelu and exp, twice, so there are Cases, failures and
# lineage), then renders the Experience Graph window under a real X server (Xvfb) and saves two PNGs: the app's
# own grab and the X root window (ImageMagick's import).
#   scripts/screenshot-graph.sh [OUT_DIR=build/screenshots]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/build/screenshots}"
build="$root/build"
mkdir -p "$out"
if [[ -f /work/ccache-env.sh ]]; then source /work/ccache-env.sh; fi
cmake --build "$build" -j2 --target kope kope-runner kope-graph >/dev/null
ws="$(mktemp -d /tmp/kope-graph-shot.XXXXXX)"
trap 'rm -rf "$ws"; [[ -n "${xpid:-}" ]] && kill "$xpid" 2>/dev/null || true' EXIT
for i in 1 2; do
  extra=(); [[ $i == 2 ]] && extra=(--recheck)
  "$build/bin/kope" run --tasks gelu,exp --workspace "$ws" --warmup 1 --reps 3 "${extra[@]}" >/dev/null || true
done
ids() { python3 -c 'import sqlite3,sys; print(" ".join(str(r[0]) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])))' "$ws/kope.db" "$1"; }
echo "cases: $(ids 'SELECT count(*) FROM memory_cases'), incorrect: $(ids 'SELECT count(*) FROM memory_cases WHERE correct=0')"
# Curate so the picture shows a pruned, a pinned and a flagged node.
wrong=$(ids 'SELECT id FROM memory_cases WHERE correct=0 ORDER BY id LIMIT 1')
leaf=$(ids 'SELECT id FROM memory_cases c WHERE correct=1 AND NOT EXISTS(SELECT 1 FROM memory_cases k WHERE k.prev_case_id=c.id) ORDER BY id LIMIT 2')
set -- $leaf
[[ -n "$wrong" ]] && "$build/bin/kope" memory prune "$wrong" --workspace "$ws" --reason "screenshot: pruned by hand" >/dev/null
[[ $# -ge 1 ]] && "$build/bin/kope" memory pin "$1" --workspace "$ws" --reason "screenshot" >/dev/null
[[ $# -ge 2 ]] && "$build/bin/kope" memory mark "$2" invalid --workspace "$ws" --reason "screenshot: noisy machine" >/dev/null
sel=$(ids 'SELECT max(id) FROM memory_cases')
display=":97"
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
sleep 1.5
export DISPLAY="$display" QT_QPA_PLATFORM=xcb
"$build/bin/kope-graph" --workspace "$ws" --select "$sel" --size 1600x1000 --screenshot "$out/graph-window.png" --linger 8 &
gpid=$!
sleep 5
import -display "$display" -window root "$out/graph-xroot.png" || echo "import failed (ImageMagick)"
wait "$gpid"
echo "screenshots: $out/graph-window.png $out/graph-xroot.png"
