#!/usr/bin/env bash
# Screenshots of every pane of the workbench and of Help > Machine check (kope doctor) under a real X server
# (Xvfb): a scratch workspace, a task, and the window driven by its hidden --demo-script option, which saves one
# PNG per step.
#   scripts/screenshots.sh [OUT_DIR] [TASK]     (default: build/screenshots, gelu)
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
xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$bin" --workspace "$scratch/ws" --task "$task" --demo-script "$out"
echo "screenshots in $out:"
ls -1 "$out"
