// `kope doctor`, the timing checks: cache sizes behind the flush, the timer, CPU frequency governor and turbo,
// isolated cores, SMT and the load at the time, read from /sys and /proc (absent files are "unknown", not errors).
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "kope/doctor/doctor_internal.h"
#include "kope/exec/cache.h"

using namespace kope::exec;

namespace kope::doctor::detail {

namespace fs = std::filesystem;

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The cpuN folders under /sys/devices/system/cpu, in order.
std::vector<int> cpus(const SysView& sys) {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sys.at("/sys/devices/system/cpu"), ec)) {
    const std::string n = e.path().filename().string();
    if (n.size() > 3 && n.rfind("cpu", 0) == 0 && std::all_of(n.begin() + 3, n.end(), ::isdigit))
      out.push_back(std::stoi(n.substr(3)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "0-3,8" from a sorted list of cpu numbers.
std::string ranges(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return s;
}

// The cpus of a list such as "0-3,8".
std::vector<int> parse_ranges(const std::string& text) {
  std::vector<int> out;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty()) continue;
    const auto dash = part.find('-');
    try {
      const int a = std::stoi(part.substr(0, dash)), b = dash == std::string::npos ? a : std::stoi(part.substr(dash + 1));
      for (int k = a; k <= b && k - a < 4096; ++k) out.push_back(k);
    } catch (const std::exception&) {
    }
  }
  return out;
}

}  // namespace

DoctorCheck check_caches(const SysView& sys) {
  DoctorCheck c = make_check("caches", "timing", "Cache sizes for the flush");
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache";
  std::string levels;
  for (int i = 0; i < 16; ++i) {
    const std::string idx = dir + "/index" + std::to_string(i);
    auto level = sys.line(idx + "/level"), type = sys.line(idx + "/type"), size = sys.line(idx + "/size");
    if (!level || !type || !size) continue;
    const std::string kind = *type == "Data" ? "d" : *type == "Instruction" ? "i" : "";
    levels += (levels.empty() ? "" : ", ") + ("L" + *level + kind) + " " + *size;
  }
  const std::size_t largest = largest_cache_bytes(), flush = default_flush_bytes();
  const bool lines = can_flush_lines();
  const std::string judge =
      std::string("the judge flushes ") + (lines ? "the case's data by line (clflushopt/clflush) before each call"
                                                  : "by reading a buffer before each call (no line flush here)") +
      "; its read-flush buffer and the bandwidth scratch are " + bytes_text(flush) +
      (largest ? " (twice the largest cache " + bytes_text(largest) + ", 32 MiB to 256 MiB)" : " (the 32 MiB floor: it read no cache size)");
  const long sc_l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const std::string sysconf_note =
      sc_l3 > 0 ? "; sysconf claims L3 " + bytes_text(static_cast<unsigned long long>(sc_l3)) + ", which kope does not trust" : "";
  if (levels.empty()) {
    c.unknown = true;
    c.verdict = Verdict::Warn;
    c.found = absent(dir) + "; " + judge + sysconf_note;
    c.todo = "a last-level cache above 16 MiB may hold the bandwidth scratch, so the memory-bound floor can be too "
             "low; run on a host (or a VM with its cache topology passed through) that shows " + dir;
    c.because = "cache sizes are hidden: the flush and bandwidth buffers are the 32 MiB floor, which a larger "
                "last-level cache could hold";
    return c;
  }
  c.found = "cpu0: " + levels + "; " + judge;
  if (!lines && largest && flush < 2 * largest) {
    c.verdict = Verdict::Warn;
    c.todo = "the read-flush buffer (capped at 256 MiB) is under twice the last-level cache: some data may stay cached";
    c.because = "the read flush is smaller than twice the last-level cache";
    return c;
  }
  c.verdict = Verdict::Ok;
  c.because = "every timed call starts with cold caches (" + std::string(lines ? "line flush" : "read flush") +
              " sized from sysfs)";
  return c;
}

DoctorCheck check_timer(const SysView& sys) {
  DoctorCheck c = make_check("timer", "timing", "Timer resolution");
  timespec res{};
  clock_getres(CLOCK_MONOTONIC, &res);  // std::chrono::steady_clock on Linux
  const double res_ns = static_cast<double>(res.tv_sec) * 1e9 + static_cast<double>(res.tv_nsec);
  using Clock = std::chrono::steady_clock;
  constexpr int kReads = 100000;
  std::vector<int64_t> deltas;
  deltas.reserve(kReads);
  Clock::time_point prev = Clock::now();
  for (int i = 0; i < kReads; ++i) {
    const Clock::time_point now = Clock::now();
    deltas.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(now - prev).count());
    prev = now;
  }
  std::sort(deltas.begin(), deltas.end());
  const auto nonzero = std::upper_bound(deltas.begin(), deltas.end(), int64_t{0});
  const int64_t min_step = nonzero == deltas.end() ? 0 : *nonzero;
  const int64_t median = deltas[deltas.size() / 2];
  const auto source = sys.line("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  c.found = "steady_clock (CLOCK_MONOTONIC): clock_getres " + fixed(res_ns, 0) + " ns; " + std::to_string(kReads) +
            " consecutive reads: smallest step " + std::to_string(min_step) + " ns, median " + std::to_string(median) +
            " ns; clocksource " + (source ? *source : absent("/sys/devices/system/clocksource/clocksource0/current_clocksource"));
  const bool slow_source = source && (*source == "hpet" || *source == "acpi_pm" || *source == "jiffies");
  if (min_step == 0 || min_step > 1000 || res_ns > 1000 || slow_source) {
    c.verdict = Verdict::Warn;
    c.todo = slow_source ? "the " + *source + " clocksource is slow to read: boot with clocksource=tsc where the TSC is stable"
                         : "the timer steps coarsely: calls shorter than a few steps cannot be timed; use larger cases";
    c.because = "the timer steps " + std::to_string(min_step) + " ns: short calls are timed coarsely";
    return c;
  }
  c.verdict = Verdict::Ok;
  c.because = "the timer resolves " + std::to_string(min_step) + " ns between consecutive reads";
  return c;
}

DoctorCheck check_governor(const SysView& sys) {
  DoctorCheck c = make_check("governor", "timing", "CPU frequency governor");
  std::map<std::string, std::vector<int>> by_governor;
  for (int cpu : cpus(sys))
    if (auto g = sys.line("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_governor"))
      by_governor[*g].push_back(cpu);
  if (by_governor.empty()) {
    c.unknown = true;
    c.verdict = Verdict::Info;
    c.found = absent("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    c.todo = "in a VM the host sets the clock: ask for dedicated vCPUs; on bare metal load the cpufreq driver";
    c.because = "the CPU frequency policy is hidden: the host may change the clock during a run";
    return c;
  }
  for (const auto& [g, list] : by_governor) c.found += (c.found.empty() ? "" : "; ") + g + " on cpu " + ranges(list);
  if (by_governor.size() == 1 && by_governor.begin()->first == "performance") {
    c.verdict = Verdict::Ok;
    c.because = "every core runs the performance governor";
    return c;
  }
  c.verdict = Verdict::Warn;
  c.todo = "as root: cpupower frequency-set -g performance (or echo performance | tee "
           "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)";
  c.because = "the frequency governor is not 'performance': the clock changes with load";
  return c;
}

DoctorCheck check_turbo(const SysView& sys) {
  DoctorCheck c = make_check("turbo", "timing", "Turbo / boost");
  const auto no_turbo = sys.line("/sys/devices/system/cpu/intel_pstate/no_turbo");
  const auto boost = sys.line("/sys/devices/system/cpu/cpufreq/boost");
  if (!no_turbo && !boost) {
    c.unknown = true;
    c.verdict = Verdict::Info;
    c.found = absent("/sys/devices/system/cpu/cpufreq/boost") + ", as is intel_pstate/no_turbo";
    c.todo = "in a VM the host decides; on bare metal check the BIOS setting";
    c.because = "turbo is not visible: the clock may depend on temperature and on how many cores are busy";
    return c;
  }
  const bool on = (no_turbo && *no_turbo == "0") || (boost && *boost == "1");
  if (no_turbo) c.found = "intel_pstate/no_turbo=" + *no_turbo;
  if (boost) c.found += (c.found.empty() ? "" : "; ") + std::string("cpufreq/boost=") + *boost;
  c.found += on ? " (turbo on)" : " (turbo off)";
  if (!on) {
    c.verdict = Verdict::Ok;
    c.because = "turbo is off: the clock does not depend on temperature or busy cores";
    return c;
  }
  c.verdict = Verdict::Warn;
  c.todo = no_turbo ? "as root: echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo"
                    : "as root: echo 0 > /sys/devices/system/cpu/cpufreq/boost";
  c.because = "turbo is on: the clock depends on temperature and on how many cores are busy";
  return c;
}

DoctorCheck check_isolated_cores(const SysView& sys) {
  DoctorCheck c = make_check("isolated-cores", "timing", "Isolated cores");
  const auto isolated = sys.line("/sys/devices/system/cpu/isolated");
  if (!isolated) {
    c.unknown = true;
    c.verdict = Verdict::Info;
    c.found = absent("/sys/devices/system/cpu/isolated");
    return c;
  }
  const auto nohz = sys.line("/sys/devices/system/cpu/nohz_full");
  const std::vector<int> iso = parse_ranges(*isolated);
  const std::string nohz_text = !nohz ? "nohz_full not built in" : *nohz == "(null)" || nohz->empty() ? "no nohz_full cores"
                                                                                                       : "nohz_full " + *nohz;
  cpu_set_t mine;
  CPU_ZERO(&mine);
  std::vector<int> allowed;
  if (sched_getaffinity(0, sizeof mine, &mine) == 0)
    for (int k = 0; k < CPU_SETSIZE; ++k)
      if (CPU_ISSET(k, &mine)) allowed.push_back(k);
  const bool on_isolated = !iso.empty() && std::all_of(allowed.begin(), allowed.end(), [&](int k) {
    return std::find(iso.begin(), iso.end(), k) != iso.end();
  });
  c.found = (iso.empty() ? std::string("no isolated cores") : "isolated cores " + ranges(iso)) + "; " + nohz_text +
            "; kope may run on cpu " + ranges(allowed);
  if (on_isolated) {
    c.verdict = Verdict::Ok;
    c.because = "kope runs on isolated cores, away from other work";
    return c;
  }
  c.verdict = Verdict::Info;
  c.todo = iso.empty() ? "for quieter timings: boot with isolcpus=N nohz_full=N and run kope under taskset -c N"
                       : "run kope under taskset -c " + ranges(iso) + " to time on the isolated cores";
  return c;
}

DoctorCheck check_smt(const SysView& sys) {
  DoctorCheck c = make_check("smt", "timing", "SMT (hyper-threading)");
  const auto control = sys.line("/sys/devices/system/cpu/smt/control");
  const auto active = sys.line("/sys/devices/system/cpu/smt/active");
  const auto siblings = sys.line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list");
  if (!control && !active) {
    c.unknown = true;
    c.verdict = Verdict::Info;
    c.found = absent("/sys/devices/system/cpu/smt/active");
    if (siblings) c.found += "; cpu0's thread siblings: " + *siblings;
    return c;
  }
  c.found = "smt/control=" + control.value_or("(absent)") + ", smt/active=" + active.value_or("(absent)") +
            (siblings ? "; cpu0's thread siblings: " + *siblings : "");
  if (active && *active == "1") {
    c.verdict = Verdict::Warn;
    c.todo = "a sibling thread shares the core's units and caches: keep it idle, or as root: echo off > "
             "/sys/devices/system/cpu/smt/control";
    c.because = "SMT is on: work on a sibling thread changes a kernel's time";
    return c;
  }
  c.verdict = Verdict::Ok;
  c.because = "no SMT sibling shares the timed core";
  return c;
}

DoctorCheck check_load(const SysView& sys) {
  DoctorCheck c = make_check("load", "timing", "Load at the time");
  std::ifstream in(sys.at("/proc/loadavg"));
  double l1 = 0, l5 = 0, l15 = 0;
  std::string tasks;
  if (!(in >> l1 >> l5 >> l15 >> tasks)) {
    c.unknown = true;
    c.verdict = Verdict::Info;
    c.found = "unknown: /proc/loadavg is absent or unreadable";
    c.because = "the machine's load is unknown: timings may be noisy";
    return c;
  }
  const long cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  const double per_core = l1 / static_cast<double>(cores);
  const auto slash = tasks.find('/');
  c.found = "load " + fixed(l1, 2) + " " + fixed(l5, 2) + " " + fixed(l15, 2) + " (1, 5, 15 min) on " +
            std::to_string(cores) + " online cores: " + fixed(per_core, 2) + " per core" +
            (slash == std::string::npos ? "" : "; " + tasks.substr(0, slash) + " runnable of " + tasks.substr(slash + 1) + " tasks");
  if (per_core > 0.5) {
    c.verdict = Verdict::Warn;
    c.todo = "timings taken now are noisy: stop other work or wait for a quiet machine (interleaving and the "
             "95% intervals absorb some of it, not all)";
    c.because = "the load is " + fixed(per_core, 2) + " per core: timings are noisy";
    return c;
  }
  c.verdict = Verdict::Ok;
  c.because = "the machine is quiet (" + fixed(per_core, 2) + " load per core)";
  return c;
}

}  // namespace kope::doctor::detail
