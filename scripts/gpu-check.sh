#!/usr/bin/env bash
# For a session that has a GPU: builds kope with the CUDA worker, runs the CUDA device tests and the shipped CUDA
# kernels' tests (build tests need nvcc, run tests need a GPU), and prints what ran, what was skipped and why, and
# the GPU it ran on.
#   bash scripts/gpu-check.sh [BUILD_DIR]        (default: build-gpu, so it does not disturb build/)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-gpu}
export PATH=$PATH:/usr/local/cuda/bin
echo "== host: $(uname -n), $(date -u +%FT%TZ)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv \
  || echo "nvidia-smi: not found"
command -v nvcc >/dev/null && nvcc --version | tail -2 || echo "nvcc: not found"
for t in compute-sanitizer ncu; do command -v $t >/dev/null && echo "$t: $(command -v $t)" || echo "$t: not found"; done
mkdir -p "$build"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" -DKOPE_BUILD_BENCH=OFF >"$build/configure.log" 2>&1 \
  || { tail -30 "$build/configure.log"; exit 1; }
grep -E "kope: (CUDA|no CUDA)" "$build/configure.log"
cmake --build "$build" -j"$(nproc)" --target test_device_cuda test_cuda_kernels kope-cuda-worker kope-runner kope-remote 2>&1 | tail -3 \
  || cmake --build "$build" -j"$(nproc)" --target test_device_cuda test_cuda_kernels 2>&1 | tail -30
[ -x "$build/bin/kope-cuda-worker" ] && { echo "== probe"; "$build/bin/kope-cuda-worker" --probe; }
echo "== tests"
for t in test_device_cuda test_cuda_kernels; do  # the shipped kernels' test prints one [gpu] line per task
  "$build/bin/$t" --gtest_color=no 2>&1
done | tee "$build/gpu-check.log" | grep -E "^\[ +(OK|FAILED|SKIPPED) +\]|^\[gpu\]|Skipped|skipped|Failure|error" 
echo "== summary"
for s in OK SKIPPED FAILED; do  # one line per test: those that carry a duration
  echo "$s: $(grep -cE "^\[ +$s +\] .*\([0-9]+ ms\)" "$build/gpu-check.log")"
done
grep -E "^\[ +SKIPPED +\] .*\([0-9]+ ms\)" "$build/gpu-check.log" | sed 's/^/  /'
grep -qE "^\[ +FAILED +\] .*\([0-9]+ ms\)" "$build/gpu-check.log" && exit 1 || exit 0
