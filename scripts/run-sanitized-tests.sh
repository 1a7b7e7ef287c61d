#!/usr/bin/env bash
# Installs what kope needs, builds everything with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/, and runs every test there: a hostile kernel or a malformed file must never crash kope itself.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKOPE_SANITIZE=ON -DKOPE_BUILD_BENCH=OFF
cmake --build "$root/build-asan"
# The worker that loads kernels runs under the sandbox's limits (an address-space rlimit where there is no
# cgroup, a seccomp filter, a clean environment): it comes from the plain build, so what is sanitized is kope
# itself (the judge, the parsers, the store) and the tests.
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$root/build" --target kope-runner
export KOPE_RUNNER="$root/build/bin/kope-runner"
cd "$root/build-asan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp"
exec ctest --output-on-failure --parallel 2 --timeout 1800 "$@"
