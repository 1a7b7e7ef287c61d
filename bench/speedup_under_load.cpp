// Does the measured speedup hold when the machine is busy? Interleaved vs sequential timing, quiet vs loaded.
//
// The load is bursty on purpose (every core alternates 40 ms busy, 40 ms idle, out of phase), the kind of
// noise a shared build machine makes. For each timing mode the bench reports the median speedup over
// repeated evaluations quiet and loaded, their ratio (1.0 = the load did not move the answer), and the
// spread (max/min) of the loaded speedups. Everything is measured in this one run.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "usage.h"

using namespace kope::eval;
using namespace kope::exec;

using namespace kope;

namespace {

std::vector<pid_t> start_load(int procs) {
  std::vector<pid_t> pids;
  for (int i = 0; i < procs; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      usleep(static_cast<useconds_t>(i * 20000));  // out of phase
      for (;;) {
        auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(40);
        volatile double x = 1.0;
        while (std::chrono::steady_clock::now() < until) x = x * 1.0000001 + 1e-9;
        usleep(40000);
      }
    }
    pids.push_back(pid);
  }
  return pids;
}

void stop_load(const std::vector<pid_t>& pids) {
  for (pid_t p : pids) kill(p, SIGKILL);
  for (pid_t p : pids) waitpid(p, nullptr, 0);
}

struct Series {
  std::vector<double> speedups;
  double med() const { return median(speedups); }
  double spread() const {
    auto [lo, hi] = std::minmax_element(speedups.begin(), speedups.end());
    return *lo > 0 ? *hi / *lo : 0.0;
  }
};

}  // namespace

int main(int argc, char** argv) {
  kope::bench::answer_help(argc, argv, "[ROUNDS=5]");
  int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const std::string task_name = "gelu";
  const std::string kernel_name = "gelu/02_erfc_vectorised.cpp";
  const std::string case_name = "n65537";

  Suite suite = Suite::embedded();
  const Task* task = suite.find(task_name);
  std::string source;
  for (const auto& c : embedded_candidates(task_name))
    if (c.name == kernel_name) source = c.source;
  if (!task || source.empty()) {
    std::fprintf(stderr, "bench: %s or %s is missing from the embedded suite\n", task_name.c_str(), kernel_name.c_str());
    return 2;
  }
  auto root = std::filesystem::temp_directory_path() / ("kope-bench-" + std::to_string(getpid()));
  Evaluator ev(EvalPaths::under(root));
  long cores = sysconf(_SC_NPROCESSORS_ONLN);

  auto measure = [&](bool interleave) {
    EvalOptions o;
    o.cases = {case_name};
    o.interleave = interleave;
    o.warmup = 3;
    o.reps = 9;
    EvalReport r = ev.evaluate(*task, source, kernel_name, o);
    if (!r.correct() || !r.cases[0].speedup) {
      std::fprintf(stderr, "bench: the kernel did not pass: %s\n", r.status().c_str());
      std::exit(1);
    }
    return *r.cases[0].speedup;
  };

  measure(true);  // build and golden outside the measurement
  nlohmann::json report;
  report["task"] = task_name;
  report["case"] = case_name;
  report["kernel"] = kernel_name;
  report["rounds"] = rounds;
  report["load_processes"] = cores;
  std::printf("%-12s %10s %10s %14s %16s\n", "timing", "quiet", "loaded", "loaded/quiet", "loaded spread");
  for (bool interleave : {true, false}) {
    Series quiet, loaded;
    for (int i = 0; i < rounds; ++i) quiet.speedups.push_back(measure(interleave));
    auto load = start_load(static_cast<int>(cores));
    for (int i = 0; i < rounds; ++i) loaded.speedups.push_back(measure(interleave));
    stop_load(load);
    const char* mode = interleave ? "interleaved" : "sequential";
    std::printf("%-12s %9.2fx %9.2fx %14.3f %15.3fx\n", mode, quiet.med(), loaded.med(), loaded.med() / quiet.med(),
                loaded.spread());
    report[mode] = {{"quiet", quiet.speedups}, {"loaded", loaded.speedups},
                    {"loaded_over_quiet", loaded.med() / quiet.med()}, {"loaded_spread", loaded.spread()}};
  }
  std::printf("%s\n", report.dump().c_str());
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return 0;
}
