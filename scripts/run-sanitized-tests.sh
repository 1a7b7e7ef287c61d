#!/usr/bin/env bash
# Installs what kope needs, builds everything with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/, and runs every test there: a hostile kernel or a malformed file must never crash kope itself.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKOPE_SANITIZE=ON -DKOPE_BUILD_BENCH=OFF
cmake --build "$root/build-asan"
cd "$root/build-asan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec ctest --output-on-failure --parallel 2 --timeout 1800 "$@"
