#!/usr/bin/env bash
# Runs a command with a real Secret Service of its own: run it under `dbus-run-session -- bash THIS CMD...`, and it
# starts gnome-keyring-daemon on that private session bus with a throwaway home and an unlocked login keyring,
# so QtKeychain's store, read and delete really reach a keyring. The keyring ends with the bus.
# (The daemon is fed a password on stdin: with an empty one it asks a prompter to confirm an unprotected
# keyring, which needs a display; any non-empty throwaway password unlocks it headless.)
set -euo pipefail
[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || { echo "with_secret_service: run me under dbus-run-session" >&2; exit 4; }
command -v gnome-keyring-daemon >/dev/null || { echo "with_secret_service: gnome-keyring-daemon is missing (apt-get install gnome-keyring)" >&2; exit 4; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The keyring's files in a throwaway home (XDG_CONFIG_HOME, where kope's settings live, is the caller's).
export HOME="$scratch/home" XDG_RUNTIME_DIR="$scratch/run"
export XDG_DATA_HOME="$HOME/.local/share" XDG_CACHE_HOME="$HOME/.cache"
mkdir -p "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
eval "$(printf 'kope-test-keyring' | gnome-keyring-daemon --daemonize --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL="${GNOME_KEYRING_CONTROL:-}"
"$@"
