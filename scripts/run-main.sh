#!/usr/bin/env bash
# Installs what kope needs, builds it, and runs the main job: the optimisation loop over the embedded
# CANN Bench L1 suite on the CPU device with the offline policy. Extra arguments go to `kope run`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$root/build" --target kope kope-runner
exec "$root/build/bin/kope" run --device cpu --policy offline "$@"
