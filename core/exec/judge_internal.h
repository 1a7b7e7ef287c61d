// The judge's own parts, shared by its files (judge.cpp: workers, arenas and calls; judge_case.cpp: a case's
// steps). Not part of kope/exec's interface.
#pragma once

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kope/exec/judge.h"
#include "kope/exec/judge_checks.h"
#include "kope/exec/ledger.h"
#include "kope/exec/sandbox.h"
#include "kope/exec/worker_protocol.h"

namespace kope::exec {

struct Judge::Worker {
  std::string role;  // "kernel" or "baseline"
  std::filesystem::path so;
  Arena out;
  wire::Control* ctl = nullptr;
  std::unique_ptr<SandboxChild> child;
  int pidfd = -1;
  clockid_t cpu_clock = 0;     // the worker process's CPU clock: every thread's running time, to the ns
  bool has_cpu_clock = false;
  bool tree_by_cgroup = false;  // no seccomp here, so the kernel may start processes: read the tree's cgroup
  // The CPU reading at the worker's last "done" (or when it became ready): what it spends from here until the
  // judge's next call is acknowledged is outside every timed call (see Judge::Ledger).
  int64_t cpu_mark = -1;
  int perf_fd = -1;  // a perf task-clock counter on the worker and its threads, or -1
  std::chrono::steady_clock::time_point done_at{};
  std::string load_error;  // once it failed to load, every case says so without a restart
  std::string log;
  std::size_t log_dropped = 0;
  uint32_t seq = 0;
  bool alive() const { return child != nullptr; }
};

struct Judge::Held {
  std::string key;
  Arena inputs;
  std::unique_ptr<Worker> base;
  std::unique_ptr<Worker> lib;  // the library baseline's worker, when the evaluation had one
  std::filesystem::path lib_so;              // the build it loaded
  std::filesystem::path dir;
  ~Held() {
    if (base) release_worker(*base);
    if (lib) release_worker(*lib);
    if (inputs.base) munmap(inputs.base, inputs.size);
    if (inputs.fd >= 0) close(inputs.fd);
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

namespace judge_detail {

using Clock = std::chrono::steady_clock;

// KOPE_TRACE_EVAL: where the judge's own time goes, summed per kind of work over the process, printed at exit.
enum Spent { kStart, kInputs, kSentinels, kFlush, kCalls, kSnapshot, kCheck, kIdle, kStop, kGolden, kDetail, kSpentKinds };
inline const char* const kSpentNames[kSpentKinds] = {"worker start", "input generation", "sentinel fill", "flush",
                                              "calls (all)", "snapshot", "output checks",
                                              "idle CPU reads", "stop rule", "golden checks", "last-pair detail"};
struct SpentTable {
  const bool on = std::getenv("KOPE_TRACE_EVAL") != nullptr;
  double ms[kSpentKinds] = {};
  long count[kSpentKinds] = {};
  ~SpentTable() {
    if (!on) return;
    for (int i = 0; i < kSpentKinds; ++i)
      std::fprintf(stderr, "kope: judge %-18s %9.1f ms in %ld\n", kSpentNames[i], ms[i], count[i]);
  }
};
inline SpentTable spent_table;
struct Spend {
  Spent kind;
  Clock::time_point t0;
  explicit Spend(Spent k) : kind(k), t0(spent_table.on ? Clock::now() : Clock::time_point{}) {}
  ~Spend() {
    if (!spent_table.on) return;
    spent_table.ms[kind] += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    ++spent_table.count[kind];
  }
};

inline std::size_t tensor_bytes(const ConcreteTensor& t) {
  return static_cast<std::size_t>(t.numel) * dtype_size(t.dtype);
}

inline int64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

inline std::string tail(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

inline std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// A case's seeded correctness inputs (the ones its golden was computed from), laid out as in the arena.
std::shared_ptr<const std::vector<unsigned char>> correctness_inputs(const ConcreteCase& c);

}  // namespace judge_detail

}  // namespace kope::exec
