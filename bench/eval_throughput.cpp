// Evaluation throughput on the main job, before and after, measured in one run: `kope run --device cpu --policy
// offline` over the embedded L1 suite, the pre-issue build and this one alternating, each in a scratch
// workspace. Prints attempts per minute for both and, for this build, the share of evaluation wall time spent
// inside timed kernel calls (candidate and baseline, as the judge measured them).
//
//   bench_eval_throughput [--before DIR] [--after DIR] [--rounds N] [--tasks a,b] [--warm]
//
// --before: the folder holding the old `kope` and `kope-runner` (default /work/orig-bin); --after: this
// build's bin folder (default: beside this program). --warm runs each build once untimed on its workspace
// first, so compiles and goldens are cached and the figure is the pace of evaluation alone.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/process.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct RunResult {
  bool ok = false;
  int attempts = 0;
  double seconds = 0;
  std::string error;
};

RunResult run_kope(const fs::path& bin, const fs::path& ws, const std::string& tasks, bool no_library) {
  std::vector<std::string> argv = {(bin / "kope").string(), "run", "--device", "cpu", "--policy", "offline",
                                   "--workspace", ws.string(), "--json"};
  if (no_library) argv.push_back("--no-library");
  if (!tasks.empty()) argv.insert(argv.end(), {"--tasks", tasks});
  kope::ProcessLimits lim;
  lim.wall_seconds = 3600;
  lim.max_captured_bytes = 64 << 20;
  auto t0 = std::chrono::steady_clock::now();
  kope::ProcessResult pr = kope::run_process(argv, lim, {}, {"KOPE_RUNNER=" + (bin / "kope-runner").string()});
  RunResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!pr.started || pr.timed_out || pr.term_signal) {
    r.error = pr.describe() + ": " + pr.err.substr(0, 500);
    return r;
  }
  try {
    json j = json::parse(pr.out);
    for (const auto& t : j.at("tasks")) {
      r.attempts += static_cast<int>(t.at("attempts").size());
      if (!t.at("error").is_null()) {
        r.error = "task " + t.value("task", "?") + ": " + t.at("error").dump();
        return r;  // a task that could not be evaluated at all makes the figures meaningless
      }
      for (const auto& a : t.at("attempts"))
        if (std::getenv("KOPE_BENCH_VERBOSE"))
          std::fprintf(stderr, "  %s %s %s\n", a.value("name", "").c_str(), a.value("status", "").c_str(), a.value("message", "").substr(0, 200).c_str());
    }
    r.ok = true;
  } catch (const std::exception& e) {
    r.error = std::string("unreadable output (") + e.what() + "): " + pr.err.substr(0, 500);
  }
  return r;
}

// Wall time of every evaluation and the time inside timed calls, from the reports this build recorded.
std::pair<double, double> timed_share(const fs::path& ws) {
  double wall = 0, inside = 0;
  kope::workspace::Workspace w = kope::workspace::Workspace::open(ws);
  const auto rows = w.evaluations(std::nullopt, 100000);
  int64_t last_run = 0;
  for (const auto& row : rows) last_run = std::max(last_run, row.run_id);
  for (const auto& row : rows) {
    if (row.run_id != last_run) continue;  // with --warm, only the measured run
    const auto full = w.evaluation(row.id);  // the list leaves the report out
    if (!full) continue;
    json j = json::parse(full->report, nullptr, false);
    if (j.is_discarded() || !j.contains("timing")) continue;
    wall += j["timing"].value("wall_s", 0.0);
    inside += j["timing"].value("timed_calls_s", 0.0);
  }
  return {wall, inside};
}

}  // namespace

int main(int argc, char** argv) {
  fs::path before = "/work/orig-bin";
  std::error_code ec;
  fs::path after = fs::read_symlink("/proc/self/exe", ec).parent_path();
  int rounds = 1;
  std::string tasks;
  bool warm = false;
  bool before_no_library = false;  // the "before" side is this build without the library baseline
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--before" && i + 1 < argc) before = argv[++i];
    else if (a == "--after" && i + 1 < argc) after = argv[++i];
    else if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--tasks" && i + 1 < argc) tasks = argv[++i];
    else if (a == "--warm") warm = true;
    else if (a == "--before-no-library") before_no_library = true;
    else {
      std::fprintf(stderr, "usage: %s [--before DIR] [--after DIR] [--rounds N] [--tasks a,b] [--warm] "
                           "[--before-no-library]\n", argv[0]);
      return 2;
    }
  }
  before = fs::absolute(before);
  after = fs::absolute(after);
  for (const fs::path& d : {before, after})
    if (!fs::exists(d / "kope") || !fs::exists(d / "kope-runner")) {
      std::fprintf(stderr, "bench: no kope and kope-runner in %s\n", d.c_str());
      return 2;
    }
  const fs::path root = fs::temp_directory_path() / ("kope-throughput-" + std::to_string(getpid()));
  struct Side {
    const char* name;
    fs::path bin;
    int attempts = 0;
    double seconds = 0;
  } sides[2] = {{"before", before}, {"after", after}};
  double wall = 0, inside = 0;
  for (int r = 0; r < rounds; ++r)
    for (int s = 0; s < 2; ++s) {  // alternate, so load on the machine hits both alike
      Side& side = sides[(r % 2) ? 1 - s : s];
      const fs::path ws = root / (std::string(side.name) + "-" + std::to_string(r));
      if (warm) {
        RunResult w = run_kope(side.bin, ws, tasks, before_no_library && &side == &sides[0]);
        if (!w.ok) {
          std::fprintf(stderr, "bench: %s warm-up run failed: %s\n", side.name, w.error.c_str());
          return 1;
        }
      }
      RunResult res = run_kope(side.bin, ws, tasks, before_no_library && &side == &sides[0]);
      if (!res.ok) {
        std::fprintf(stderr, "bench: %s run failed: %s\n", side.name, res.error.c_str());
        return 1;
      }
      side.attempts += res.attempts;
      side.seconds += res.seconds;
      std::fprintf(stderr, "round %d %-6s %3d attempts in %7.1f s\n", r + 1, side.name, res.attempts, res.seconds);
      if (&side == &sides[1]) {
        // With --warm the workspace holds both runs' reports; the share is over the measured run's.
        auto [w, in] = timed_share(ws);
        wall += w;
        inside += in;
      }
    }
  json out;
  for (const Side& s : sides)
    out[s.name] = {{"attempts", s.attempts}, {"seconds", s.seconds},
                   {"attempts_per_minute", s.seconds > 0 ? 60.0 * s.attempts / s.seconds : 0.0}};
  const double before_pm = out["before"]["attempts_per_minute"], after_pm = out["after"]["attempts_per_minute"];
  out["speedup_attempts_per_minute"] = before_pm > 0 ? after_pm / before_pm : 0.0;
  out["after_share_in_timed_calls"] = wall > 0 ? inside / wall : 0.0;
  out["after_evaluation_wall_s"] = wall;
  // The same over the whole run: with the time the run spends outside evaluations (starting, preparing each
  // task's baseline and goldens ahead, recording).
  out["after_share_of_run_in_timed_calls"] = sides[1].seconds > 0 ? inside / sides[1].seconds : 0.0;
  out["after_timed_calls_s"] = inside;
  out["rounds"] = rounds;
  out["warm"] = warm;
  out["load_average_at_end"] = [] {
    double l[3] = {0, 0, 0};
    return getloadavg(l, 3) == 3 ? json::array({l[0], l[1], l[2]}) : json(nullptr);
  }();
  std::printf("%-8s %10s %10s %14s\n", "build", "attempts", "seconds", "attempts/min");
  for (const Side& s : sides)
    std::printf("%-8s %10d %10.1f %14.2f\n", s.name, s.attempts, s.seconds, s.seconds > 0 ? 60.0 * s.attempts / s.seconds : 0.0);
  std::printf("after/before attempts per minute: %.2fx\n", out["speedup_attempts_per_minute"].get<double>());
  std::printf("after: %.1f%% of evaluation wall time inside timed kernel calls (%.1f s of %.1f s)\n",
              100.0 * out["after_share_in_timed_calls"].get<double>(), inside, wall);
  std::printf("after: %.1f%% of the whole run's wall time inside timed kernel calls (%.1f s of %.1f s)\n",
              100.0 * out["after_share_of_run_in_timed_calls"].get<double>(), inside, sides[1].seconds);
  std::printf("%s\n", out.dump().c_str());
  fs::remove_all(root, ec);
  return 0;
}
