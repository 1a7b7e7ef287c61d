#!/usr/bin/env bash
# Installs what kope needs, builds everything, and runs every test under ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$root/build"
cd "$root/build"
# Two cores: tests that time kernels run side by side at most in pairs.
exec ctest --output-on-failure --parallel 2 --timeout 900
