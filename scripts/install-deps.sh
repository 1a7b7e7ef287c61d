#!/usr/bin/env bash
# Installs the Debian 12 packages kope needs to build and test. Safe to run again.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config
      libsqlite3-dev nlohmann-json3-dev libcurl4-openssl-dev libssl-dev libcli11-dev
      python3  # tests/check_layout.py, the dependency check of the test command
      libgtest-dev libgmock-dev libbenchmark-dev
      qt6-base-dev qt6-charts-dev libqscintilla2-qt6-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
      qtkeychain-qt6-dev libsecret-1-0  # the LLM profiles' API keys in the system keychain (QtKeychain loads libsecret at run time)
      dbus dbus-daemon gnome-keyring  # a real Secret Service the keychain tests start (dbus-run-session, gnome-keyring-daemon)
      libqt6opengl6-dev libgl-dev qt6-svg-dev libgraphviz-dev graphviz imagemagick
      bubblewrap libseccomp-dev
      libtorch-dev  # the CPU library baseline (ATen); every library-baseline test needs it
      openssh-server openssh-client
      slurmctld slurmd slurm-client munge  # a one-node Slurm the tests start (tests/support/slurm_cluster)
      xvfb xauth fonts-wqy-microhei)  # Xvfb (xvfb-run needs xauth, only recommended) and a CJK font for the screenshot scripts (zh_CN)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
