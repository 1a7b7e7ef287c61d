#!/usr/bin/env bash
# Part of the test command: a test may skip only where hardware is missing (KOPE_SKIP_WITHOUT_HARDWARE in
# test_support.h), or where a daemon it starts cannot run here at all (KOPE_SKIP_CANNOT_START: slurmd without root). Any other GTEST_SKIP would let a missing package pass unseen, so it fails here, by file and line.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
found=$(grep -rn --include='*.cpp' --include='*.h' 'GTEST_SKIP' "$dir" | grep -v "^$dir/support/test_support.h:" || true)
if [ -n "$found" ]; then
  echo "skips other than for missing hardware (use KOPE_SKIP_WITHOUT_HARDWARE or KOPE_SKIP_CANNOT_START, or make the test check):"
  echo "$found"
  exit 1
fi
echo "every skip is for missing hardware"
