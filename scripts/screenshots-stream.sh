#!/usr/bin/env bash
# Screenshots of the model's reply as it comes and of an attempt opened from the run controller (issue 20), under
# a real X server (Xvfb): a slow scripted OpenAI-compatible model (scripts/slow_llm_server.py) proposes the
# shipped CPU kernels, a profile of a scratch settings file points at it, and the window is driven by its hidden
# --demo-script DIR --demo-stream PROFILE options, which save stream_NN_<step>.png per step.
#   scripts/screenshots-stream.sh [OUT_DIR] [TASK]     (default: build/screenshots, gelu)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/build/screenshots}"
task="${2:-gelu}"
bin="${KOPE_WORKBENCH:-$here/build/bin/kope-workbench}"
[ -x "$bin" ] || { echo "screenshots-stream: build kope-workbench first (cmake --build build --target kope-workbench)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "screenshots-stream: xvfb-run is missing (apt-get install xvfb)" >&2; exit 4; }
command -v python3 >/dev/null || { echo "screenshots-stream: python3 is missing" >&2; exit 4; }
scratch="$(mktemp -d)"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
mkdir -p "$out"
rm -f "$out"/stream_*.png

# The slow model: 2.5 s before the first byte (the prompt alone is on show), then pieces 60 ms apart.
python3 "$here/scripts/slow_llm_server.py" --kernels "$here/resources/kernels" --delay-ms 60 --first-ms 2500 \
  > "$scratch/port" &
server=$!
for _ in $(seq 50); do [ -s "$scratch/port" ] && break; sleep 0.1; done
port="$(head -1 "$scratch/port")"
[ -n "$port" ] || { echo "screenshots-stream: the scripted model did not start" >&2; exit 4; }

# A settings folder of its own: the window opens at its default layout, with one LLM profile (priced, so the
# cost shows) on the scripted model.
export XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_CONFIG_HOME/kope"
cat > "$XDG_CONFIG_HOME/kope/llm.json" <<JSON
{"profiles": {"slow": {"provider": "openai", "base_url": "http://127.0.0.1:$port/v1", "model": "slow-model",
  "context_window": 32000, "max_output_tokens": 4000, "price_in_per_mtok": 3, "price_out_per_mtok": 15}}}
JSON
export QT_QPA_PLATFORM=xcb
xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$bin" --workspace "$scratch/ws" --task "$task" --demo-script "$out" --demo-stream slow
echo "screenshots in $out:"
ls -1 "$out"/stream_*.png
