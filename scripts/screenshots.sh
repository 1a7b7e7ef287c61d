#!/usr/bin/env bash
# Screenshots of every pane of the workbench and of Help > Machine check (kope doctor) under a real X server
# (Xvfb): a scratch workspace, a task, and the window driven by its hidden --demo-script option, which saves one
# PNG per step, then the layout tour: the docked run controller, experience graph and agent view at 1024x700
# and 2560x1440 (layout_1024_*.png, layout_2560_*.png) and in Simplified Chinese (zh_CN_*.png).
#   scripts/screenshots.sh [OUT_DIR] [TASK]     (default: build/screenshots, gelu)
#   KOPE_DEMO_STEPS=layout scripts/screenshots.sh ...   a short offline run and the layout tour only
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/build/screenshots}"
task="${2:-gelu}"
bin="${KOPE_WORKBENCH:-$here/build/bin/kope-workbench}"
[ -x "$bin" ] || { echo "screenshots: build kope-workbench first (cmake --build build --target kope-workbench)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "screenshots: xvfb-run is missing (apt-get install xvfb)" >&2; exit 4; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
rm -f "$out"/*.png
# A settings folder of its own, so the window opens at its default layout.
export XDG_CONFIG_HOME="$scratch/config"
export QT_QPA_PLATFORM=xcb
# Room for the 2560x1440 window of the layout tour.
xvfb-run -a -s "-screen 0 2600x1500x24" \
  "$bin" --workspace "$scratch/ws" --task "$task" --demo-script "$out"
echo "screenshots in $out:"
ls -1 "$out"
