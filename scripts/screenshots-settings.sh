#!/usr/bin/env bash
# Screenshots of Settings > LLM profiles under a real X server (Xvfb), with a real Secret Service (its own D-Bus
# session and gnome-keyring-daemon, tests/support/with_secret_service.sh) and a scripted LLM server on 127.0.0.1
# (scripts/demo_llm_server.py): the profiles of a settings file, a connection test that succeeds and one that gets
# a 401, a profile with a problem, and a key found in the file moved to the keychain. Writes OUT_DIR/settings_*.png.
#   scripts/screenshots-settings.sh [OUT_DIR] [LANG]     (default: build/screenshots, en)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/build/screenshots}"
lang="${2:-en}"
bin="${KOPE_WORKBENCH:-$here/build/bin/kope-workbench}"
[ -x "$bin" ] || { echo "screenshots-settings: build kope-workbench first (cmake --build build --target kope-workbench)" >&2; exit 2; }
for tool in xvfb-run dbus-run-session gnome-keyring-daemon python3; do
  command -v "$tool" >/dev/null || { echo "screenshots-settings: $tool is missing (bash scripts/install-deps.sh)" >&2; exit 4; }
done
scratch="$(mktemp -d)"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$scratch"; }
trap cleanup EXIT
mkdir -p "$out"
rm -f "$out"/settings_*.png

python3 "$here/scripts/demo_llm_server.py" > "$scratch/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$scratch/port" ] && break; sleep 0.1; done
port="$(head -1 "$scratch/port")"
[ -n "$port" ] || { echo "screenshots-settings: the scripted LLM server did not start" >&2; exit 4; }

# A settings file as a person may have it: a default, a hosted profile whose key was written into the file by
# hand (the editor offers to move it), and two profiles on the scripted server.
export XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_CONFIG_HOME/kope"
cat > "$XDG_CONFIG_HOME/kope/llm.json" <<JSON
{
  "default": "test-local",
  "profiles": {
    "test-local": {"provider": "openai", "base_url": "http://127.0.0.1:$port/ok/v1",
                   "model": "qwen2.5-coder-32b-instruct", "context_window": 32768, "max_output_tokens": 4096,
                   "price_in_per_mtok": 0.2, "price_out_per_mtok": 0.6},
    "test-refused": {"provider": "openai", "base_url": "http://127.0.0.1:$port/refuse/v1", "model": "gpt-4.1",
                     "api_key_env": "KOPE_DEMO_KEY", "max_in_flight": 4},
    "claude": {"provider": "anthropic", "model": "claude-sonnet-4-5", "context_window": 200000,
               "max_output_tokens": 8192, "api_key": "sk-ant-demo-not-a-real-key"}
  },
  "note": "kept as it is by the editor"
}
JSON
export KOPE_DEMO_KEY="sk-demo-wrong-key"
export QT_QPA_PLATFORM=xcb
dbus-run-session -- bash "$here/tests/support/with_secret_service.sh" \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$bin" --workspace "$scratch/ws" --lang "$lang" --demo-llm-settings "$out"
echo "screenshots in $out:"
ls -1 "$out"/settings_*.png
