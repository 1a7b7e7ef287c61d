#!/usr/bin/env bash
# The Study tab under a real X server (Xvfb): a `kope study` folder opened with `kope-workbench --study DIR`, the
# window grabbed at 1600x1000 and at 1024x700, in English and in zh_CN.
#   scripts/screenshot-study.sh STUDY_DIR [OUT_DIR]     (OUT_DIR default: build/screenshots)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
study="${1:?usage: scripts/screenshot-study.sh STUDY_DIR [OUT_DIR] (a folder kope study wrote)}"
out="${2:-$here/build/screenshots}"
bin="${KOPE_WORKBENCH:-$here/build/bin/kope-workbench}"
[ -x "$bin" ] || { echo "screenshot-study: build kope-workbench first" >&2; exit 2; }
command -v xvfb-run >/dev/null && command -v import >/dev/null ||
  { echo "screenshot-study: xvfb-run and ImageMagick's import are needed (scripts/install-deps.sh)" >&2; exit 4; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
export XDG_CONFIG_HOME="$scratch/config" QT_QPA_PLATFORM=xcb
for shot in "1600x1000 en" "1024x700 en" "1600x1000 zh_CN"; do
  set -- $shot
  name="$out/study_${1}_$2.png"
  xvfb-run -a -s "-screen 0 ${1}x24" bash -c '
    "$1" --workspace "$2/ws" --lang "$3" --study "$4" & pid=$!
    sleep 6; import -window root "$5"; kill $pid; wait $pid 2>/dev/null || true' _ "$bin" "$scratch" "$2" "$study" "$name"
  echo "$name"
done
