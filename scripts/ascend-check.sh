#!/usr/bin/env bash
# For the first user with an Ascend board: builds kope, runs the Ascend tests (no test needs a board: they run
# against the fake CANN of tests/device/fake_ascend, which says kope itself works here), runs `kope doctor --device
# ascend` against the real toolkit and board, probes the real tools, and writes one Markdown report that says, for
# each contract of ../shared/docs/ASCEND_TOOLS.md, whether it held, did not hold or was not checked, with the
# evidence. Without a board (or a toolkit) it still runs and says so on every contract it could not check.
#   bash scripts/ascend-check.sh [BUILD_DIR] [REPORT]   (defaults: build-ascend, BUILD_DIR/ascend-check.md)
#   KOPE_ASCEND_CHECK_NO_BUILD=1: use BUILD_DIR/bin/kope as it is, run no test (the test of this script does so)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-ascend}
report=${2:-$build/ascend-check.md}
mkdir -p "$build" "$(dirname "$report")"
evidence="$build/ascend-check"  # the tools' own output, referred to from the report
rm -rf "$evidence" && mkdir -p "$evidence"
results=()  # "ID|status|evidence" per contract

held() { results+=("$1|held|$2"); }
not_held() { results+=("$1|did not hold|$2"); }
unchecked() { results+=("$1|not checked: $2|${3:-}"); }

# ---- the toolkit and the board -----------------------------------------------------------------------------
set_env=""
for d in "${ASCEND_INSTALL_PATH:-}" "${ASCEND_HOME_PATH:-}" /usr/local/Ascend/ascend-toolkit/latest \
         "$HOME/Ascend/ascend-toolkit/latest"; do
  [ -n "$d" ] && [ -f "$d/../set_env.sh" ] && { set_env=$(cd "$d/.." && pwd)/set_env.sh; break; }
  [ -n "$d" ] && [ -f "$d/set_env.sh" ] && { set_env=$d/set_env.sh; break; }
done
[ -z "$set_env" ] && for f in /usr/local/Ascend/cann*/set_env.sh; do [ -f "$f" ] && { set_env=$f; break; }; done
npu_smi=$(command -v npu-smi || { [ -x /usr/local/sbin/npu-smi ] && echo /usr/local/sbin/npu-smi; } || true)
board=""  # empty: a board answered `npu-smi info`; else why not
if [ -z "$npu_smi" ]; then board="npu-smi not found, no Ascend driver on this host"
elif ! "$npu_smi" info >"$evidence/npu-smi-info.txt" 2>&1; then board="npu-smi info failed: $(tail -1 "$evidence/npu-smi-info.txt")"
elif ! grep -qE '^\| [0-9]+ +[0-9A-Za-z_]+ +\| (OK|Warning)' "$evidence/npu-smi-info.txt"; then board="npu-smi info lists no healthy chip"
fi
toolkit=${set_env:+found}
echo "== host: $(uname -n) ($(uname -m)), $(date -u +%FT%TZ)"
echo "== toolkit: ${set_env:-none found (ASCEND_INSTALL_PATH, ASCEND_HOME_PATH, /usr/local/Ascend, \$HOME/Ascend)}"
echo "== board: ${board:-$(sed -n 7p "$evidence/npu-smi-info.txt")}"

# ---- kope: build, the Ascend tests, the doctor ----------------------------------------------------------------
tests_line="not run (KOPE_ASCEND_CHECK_NO_BUILD=1)"
if [ -z "${KOPE_ASCEND_CHECK_NO_BUILD:-}" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" -DKOPE_BUILD_BENCH=OFF \
    >"$build/configure.log" 2>&1 || { tail -30 "$build/configure.log"; exit 1; }
  cmake --build "$build" -j"$(nproc)" --target kope kope-runner kope-remote test_device_ascend test_ascend_kernels 2>&1 | tail -3
  for t in test_device_ascend test_ascend_kernels; do "$build/bin/$t" --gtest_color=no 2>&1; done >"$evidence/tests.log"
  tests_line="$(grep -cE '^\[ +OK +\] .*\([0-9]+ ms\)' "$evidence/tests.log") passed, $(grep -cE '^\[ +FAILED +\] .*\([0-9]+ ms\)' "$evidence/tests.log") failed (against the fake CANN; log: ascend-check/tests.log)"
fi
kope="$build/bin/kope"
doctor_rc=0
if [ -n "$set_env" ]; then
  # shellcheck disable=SC1090
  (set +u; source "$set_env" >/dev/null 2>&1; env) >"$evidence/set_env.env" 2>&1  # set_env.sh may read unset variables
  KOPE_WORKSPACE="$build/ascend-check-ws" "$kope" doctor --device ascend >"$evidence/doctor.txt" 2>&1
  KOPE_WORKSPACE="$build/ascend-check-ws" "$kope" doctor --device ascend --json >"$evidence/doctor.json" 2>/dev/null
  doctor_rc=$?
fi

# A doctor step's state and first line, "state|found", from doctor.json ("|" when the step is absent).
step() {
  python3 - "$evidence/doctor.json" "$1" "$2" <<'EOF' 2>/dev/null || echo "|"
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["steps"]:
    if s["step"] == sys.argv[2] and (s["route"] == sys.argv[3] or sys.argv[3] == "*"):
        print(s["state"] + "|" + s["found"].splitlines()[0][:300] if s["found"] else s["state"] + "|")
        break
else:
    print("|")
EOF
}

# A contract decided by a doctor step: works -> held, fails -> did not hold, else not checked with its reason.
by_step() {  # ID STEP ROUTE
  local s; s=$(step "$2" "$3")
  case "${s%%|*}" in
    works) held "$1" "doctor: $2 $3: ${s#*|}" ;;
    fails) not_held "$1" "doctor: $2 $3: ${s#*|}" ;;
    *) unchecked "$1" "the doctor's $2 $3 did not run (${s#*|})" "doctor.txt" ;;
  esac
}

# ---- the contracts ---------------------------------------------------------------------------------------------
check_toolkit_contracts() {
  held E1 "set_env.sh at $set_env"
  local e="$evidence/set_env.env" missing=""
  for v in ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH ASCEND_OPP_PATH; do grep -q "^$v=" "$e" || missing+=" $v"; done
  if [ -z "$missing" ] && PATH=$(grep '^PATH=' "$e" | cut -d= -f2-) command -v bisheng >/dev/null; then
    held E2 "sets ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH, ASCEND_OPP_PATH; bisheng on PATH (ascend-check/set_env.env)"
  else not_held E2 "missing:${missing:- } $(PATH=$(grep '^PATH=' "$e" | cut -d= -f2-) command -v bisheng >/dev/null || echo 'bisheng not on PATH')"; fi
  local home; home=$(grep '^ASCEND_TOOLKIT_HOME=' "$e" | cut -d= -f2-)
  local cfg; cfg=$(grep -h 'toolkit_installed_version=\[' "$home/version.cfg" 2>/dev/null | head -1)
  local info; info=$(grep -h '^version=' "$home"/*-linux/ascend_toolkit_install.info 2>/dev/null | head -1)
  if [ -n "$cfg" ] || [ -n "$info" ]; then held E3 "version.cfg: ${cfg:-absent}; install.info: ${info:-absent}"
  else not_held E3 "neither $home/version.cfg with toolkit_installed_version=[...] nor <arch>-linux/ascend_toolkit_install.info with version="; fi
  by_step D1 build direct
  by_step D3 run cpu-twin
  by_step M1 build msopgen
  # bisheng's errors: clang-style file:line:col: error:
  local bs; bs=$(PATH=$(grep '^PATH=' "$e" | cut -d= -f2-) command -v bisheng)
  printf '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) { DataCopyy(x); }\n' >"$evidence/bad.cpp"
  "${bs:-bisheng}" -fPIC -shared -xcce -O2 -std=c++17 --npu-arch=dav-2201 -I"$home/include" "$evidence/bad.cpp" \
    -o "$evidence/bad.so" >"$evidence/bisheng-error.txt" 2>&1
  if grep -qE 'bad\.cpp:2:[0-9]+: error: ' "$evidence/bisheng-error.txt"; then held F1 "$(grep -m1 -E 'error: ' "$evidence/bisheng-error.txt")"
  else not_held F1 "no file:line:col: error: line (ascend-check/bisheng-error.txt)"; fi
}

check_board_contracts() {
  local name; name=$(sed -n 7p "$evidence/npu-smi-info.txt" | awk '{print $3}')
  if sed -n 4p "$evidence/npu-smi-info.txt" | grep -q '^| NPU'; then held B1 "npu-smi info: line 7 names $name (ascend-check/npu-smi-info.txt)"
  else not_held B1 "the table's header is not where ASCEND_TOOLS.md puts it (ascend-check/npu-smi-info.txt)"; fi
  "$npu_smi" info -l >"$evidence/npu-smi-info-l.txt" 2>&1
  if grep -q 'Total Count' "$evidence/npu-smi-info-l.txt" && grep -q 'NPU ID' "$evidence/npu-smi-info-l.txt"; then
    held B2 "npu-smi info -l: $(grep -m1 'Total Count' "$evidence/npu-smi-info-l.txt" | tr -s ' ')"
  else not_held B2 "no Total Count / NPU ID lines (ascend-check/npu-smi-info-l.txt)"; fi
  by_step E5 build direct
  by_step D2 run direct
  by_step P1 time direct
  by_step P2 profile direct
  local logs="${ASCEND_PROCESS_LOG_PATH:-${ASCEND_WORK_PATH:-$HOME/ascend/log}}"
  if ls "$logs"/debug/plog/plog-*_*.log >/dev/null 2>&1 || ls "$logs"/run/plog/*.log >/dev/null 2>&1; then
    held L1 "plog files under $logs"
  else not_held L1 "no debug/plog/plog-<pid>_<timestamp>.log or run/plog under $logs"; fi
}

ids=(E1 E2 E3 E5 B1 B2 D1 D2 D3 M1 P1 P2 F1 F2 L1 S1)
declare -A what=(
  [E1]="Environment: set_env.sh under ascend-toolkit/ (/usr/local/Ascend or \$HOME/Ascend; CANN 8.5/9.x cann-<ver>/ unverified)"
  [E2]="Environment: sourcing set_env.sh sets ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH, ASCEND_OPP_PATH and puts bisheng on PATH"
  [E3]="Environment: version.cfg's toolkit_installed_version=[...] / <arch>-linux/ascend_toolkit_install.info's version="
  [E5]="Environment: the SoC's --npu-arch (dav-2201 for A2/A3; dav-2002 for 310P unverified) builds for the board"
  [B1]="npu-smi info: the table (27/15/52-dash columns, name on line 7 field 3) kope parses"
  [B2]="npu-smi info -l: Total Count, then NPU ID and Chip Count per NPU"
  [D1]="Direct launch: bisheng -fPIC -shared -xcce --npu-arch=... builds a kernel_operator.h kernel"
  [D2]="Direct launch: the ACL host sequence and <<<blockDim, nullptr, stream>>> run it on the board, correct"
  [D3]="CPU twin: ASCENDC_CPU_DEBUG, tikicpulib::<SoC>, ICPU_RUN_KF run the same source on the CPU, correct"
  [M1]="msOpGen: msopgen gen -i op.json -c ai_core-<SoC> -lan cpp and build.sh make an installable package"
  [P1]="Profiling: msprof op --kernel-name --launch-count --warm-up --output writes OPPROF_*/OpBasicInfo.csv with Task Duration(us)"
  [P2]="Profiling: msprof op's counter CSVs (ArithmeticUtilization, Memory, PipeUtilization, ...) beside OpBasicInfo.csv"
  [F1]="Failures: bisheng errors are clang-style file:line:col: error: msg"
  [F2]="Failures: a kernel fault is aclrtSynchronizeStream 507015 with EZ9999 from aclGetRecentErrMsg"
  [L1]="Failures: plog under \$ASCEND_PROCESS_LOG_PATH, \$ASCEND_WORK_PATH or \$HOME/ascend/log (debug/plog, run/plog)"
  [S1]="Profiling: msprof op simulator --soc-version=... (OpBasicInfo.csv there unverified)"
)
if [ -n "$toolkit" ]; then check_toolkit_contracts; fi
if [ -z "$board" ]; then check_board_contracts; fi
for id in "${ids[@]}"; do  # what no probe above decided
  printf '%s\n' "${results[@]}" | grep -q "^$id|" && continue
  if [ -n "$board" ]; then unchecked "$id" "no board ($board$([ -z "$toolkit" ] && echo '; no CANN toolkit either'))"
  elif [ -z "$toolkit" ]; then unchecked "$id" "no CANN toolkit (a board answered, but set_env.sh was not found)"
  elif [ "$id" = F2 ]; then unchecked F2 "this script runs no faulting kernel: run a 02_ kernel that faults with kope eval --device ascend and read its message"
  else unchecked "$id" "needs msprof's simulator package, which this script does not run"; fi
done

# ---- the report ------------------------------------------------------------------------------------------------
{
  echo "# Ascend check: which contracts of ASCEND_TOOLS.md held"
  echo
  echo "- host: $(uname -n) ($(uname -m)), $(date -u +%FT%TZ), kope $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "- toolkit: ${set_env:-none found}"
  if [ -n "$board" ]; then echo "- board: **no board**: $board"; else echo "- board: $(sed -n 7p "$evidence/npu-smi-info.txt" | tr -s ' ')"; fi
  echo "- kope's Ascend tests: $tests_line. No test needs a board; the board checks are the doctor's and the probes below."
  echo "- kope doctor --device ascend: $([ -n "$set_env" ] && echo "exit $doctor_rc, output in ascend-check/doctor.txt" || echo "not run: no toolkit")"
  echo
  echo "| contract | ASCEND_TOOLS.md says | status | evidence |"
  echo "|---|---|---|---|"
  for id in "${ids[@]}"; do
    line=$(printf '%s\n' "${results[@]}" | grep -m1 "^$id|")
    IFS='|' read -r _ status ev <<<"$line"
    echo "| $id | ${what[$id]} | $status | ${ev//|//} |"
  done
  echo
  echo "Held: $(printf '%s\n' "${results[@]}" | grep -c '|held|'); did not hold: $(printf '%s\n' "${results[@]}" | grep -c '|did not hold|'); not checked: $(printf '%s\n' "${results[@]}" | grep -c '|not checked')."
  echo "Evidence files are in $evidence. A contract that did not hold is a fix for core/device/ascend and the fakes"
  echo "(tests/device/fake_ascend) alike; one that held can lose its \"unverified\" in ASCEND_TOOLS.md and the README."
} >"$report"
cat "$report"
[ -n "$board" ] && echo "== no board here: every contract that needs one is marked not checked"
printf '%s\n' "${results[@]}" | grep -q '|did not hold|' && exit 1 || exit 0
