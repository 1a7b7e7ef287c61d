// Many attempts at once (issue 19, item 4): `kope run --policy llm --jobs N` over the L1 and L2 tasks against a
// scripted OpenAI-compatible server on 127.0.0.1 that answers every request after a fixed latency with the next
// shipped kernel of the task in the prompt. For each latency and each N it prints attempts per minute, the share
// of wall time with at least one evaluation running, the tokens spent, and, for the same shipped kernels, the
// speedup measured at N beside the one measured alone: every --jobs 1 run of any latency, and --alone R more runs
// at --jobs 1 with no model latency (cheap: nothing but the evaluations), half before the sweep and half after it,
// so that the alone reference brackets the machine's drift. A speedup agrees with the alone ones when it lies in
// their 95% prediction band (Student's t over the alone runs' log speedups: the spread of whole runs, which one
// evaluation's bootstrap interval cannot see); "all-at-once" counts the kernels within the band that holds every
// kernel of the run at once with 95% (Bonferroni), the test of "every speedup agrees". Each alone run is checked
// against the others as the control. The shift is what interference would move: the median over kernels of
// speedup / the kernel's alone speedup (geometric mean over the alone runs), with a 95% bootstrap interval over
// kernels.
//
//   bench_jobs [--latency 20,2] [--jobs 1,2,4,8] [--alone 4] [--tasks a,b] [--levels 1,2] [--attempts 2] [--device D] [--keep DIR]
//
// Builds and goldens are made once, untimed, in a warm-up workspace whose caches every measured run starts from
// (hard links), so each run's figure is the loop's own pace. Run it on a machine with nothing else running.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/process.h"
#include "kope/model/report.h"
#include "kope/model/stats.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "scripted_llm_server.h"

using namespace kope;
using namespace kope::workspace;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Options {
  std::vector<double> latencies = {20, 2};
  std::vector<int> jobs = {1, 2, 4, 8};
  int alone = 4;  // more --jobs 1 runs with no model latency, for the alone reference
  std::vector<std::string> tasks;  // empty: the tasks of `levels`
  std::string levels = "1,2";
  // Per task. Two by default: a run makes several (kope run's default is 8), and at one the figure is the cold start
  // alone (every evaluation starts its task's baseline and library workers; the tasks start in step).
  int attempts = 2;
  std::string device;  // --device of every run, alone or not (empty: kope's default, cpu)
  fs::path keep;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t p = 0; p <= s.size();) {
    const std::size_t c = std::min(s.find(',', p), s.size());
    if (c > p) out.push_back(s.substr(p, c - p));
    p = c + 1;
  }
  return out;
}

constexpr const char* kUsage =
    "usage: bench_jobs [--latency 20,2] [--jobs 1,2,4,8] [--alone 4] [--tasks a,b] [--levels 1,2] [--attempts 2] [--device D] [--keep DIR]\n"
    "  runs kope run --policy llm --jobs N against a scripted model server with a fixed reply latency (tens of\n"
    "  minutes at the defaults); prints attempts per minute, the share of wall time evaluating, tokens, and each\n"
    "  speedup beside the one measured alone (every --jobs 1 run, and --alone R more with no model latency)\n";

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--help" || k == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (i + 1 == argc) throw Error(k + " needs a value\n" + kUsage);
    const std::string v = argv[i + 1];
    if (k == "--latency") {
      o.latencies.clear();
      for (const auto& x : split(v)) o.latencies.push_back(std::stod(x));
    } else if (k == "--jobs") {
      o.jobs.clear();
      for (const auto& x : split(v)) o.jobs.push_back(std::stoi(x));
    } else if (k == "--alone") {
      o.alone = std::stoi(v);
    } else if (k == "--tasks") {
      o.tasks = split(v);
    } else if (k == "--levels") {
      o.levels = v;
    } else if (k == "--attempts") {
      o.attempts = std::stoi(v);
    } else if (k == "--device") {
      o.device = v;
    } else if (k == "--keep") {
      o.keep = v;
    } else {
      throw Error("unknown option " + k + "\n" + kUsage);
    }
  }
  return o;
}

// The scripted model: the task is read from the prompt's "# Task: NAME" line; the k-th request for a task gets
// its k-th shipped kernel (cycling), after `latency` seconds.
class Model {
 public:
  explicit Model(double latency) : latency_ms_(static_cast<int>(latency * 1000)) {
    server_.set_responder([this](const test::RecordedRequest& r) { return answer(r); });
  }
  std::string url() const { return server_.url() + "/v1"; }
  int max_in_flight() const { return server_.max_in_flight(); }

 private:
  test::ScriptedResponse answer(const test::RecordedRequest& r) {
    const std::size_t at = r.body.find("# Task: ");
    std::string task;
    for (std::size_t i = at == std::string::npos ? r.body.size() : at + 8; i < r.body.size(); ++i) {
      const char c = r.body[i];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) break;
      task += c;
    }
    const std::vector<CandidateSource> shipped = embedded_candidates(task, "cpu");
    std::string text = "No kernel: I could not find the task in the prompt.";
    if (!shipped.empty()) {
      std::lock_guard<std::mutex> lock(mu_);
      const CandidateSource& k = shipped[asked_[task]++ % shipped.size()];
      text = "Here is a kernel.\n\n```cpp\n" + k.source + "\n```\n";
    }
    return test::sse_response({test::openai_stream({text}, "", 900, 600)}, latency_ms_);
  }

  test::ScriptedServer server_;
  const int latency_ms_;
  std::mutex mu_;
  std::map<std::string, std::size_t> asked_;
};

fs::path self_dir() { return fs::read_symlink("/proc/self/exe").parent_path(); }

ProcessResult run_kope(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {(self_dir() / "kope").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessLimits lim;
  lim.wall_seconds = 7200;
  lim.max_captured_bytes = 64 << 20;
  return run_process(argv, lim, {}, {"KOPE_RUNNER=" + (self_dir() / "kope-runner").string()});
}

// One measured run: attempts, seconds, tokens, evaluation-busy share and each kernel's speedup.
struct Measured {
  std::string name;  // its workspace folder: "lat20-jobs4", "alone1"
  int jobs = 0;
  double seconds = 0, busy_share = 0;
  int attempts = 0;
  int64_t tokens = 0;
  int server_max_in_flight = 0;
  std::map<std::string, double> speedups;  // kernel name -> speedup (of the attempts with an interval)
};

double iso_seconds(const std::string& iso) {  // "2026-12-04T13:46:18.123Z" -> seconds of the day (runs are short)
  if (iso.size() < 19) return 0;
  return std::stod(iso.substr(11, 2)) * 3600 + std::stod(iso.substr(14, 2)) * 60 + std::stod(iso.substr(17));
}

// The share of [first start, last finish] during which at least one evaluation ran.
double busy_share(const fs::path& ws_dir) {
  Workspace ws = Workspace::open(ws_dir);
  std::vector<std::pair<double, double>> spans;
  for (const auto& e : ws.evaluations(std::nullopt, 100000))
    if (!e.finished_at.empty()) spans.push_back({iso_seconds(e.started_at), iso_seconds(e.finished_at)});
  if (spans.empty()) return 0;
  std::sort(spans.begin(), spans.end());
  double busy = 0, cur_lo = spans[0].first, cur_hi = spans[0].second, lo = spans[0].first, hi = 0;
  for (const auto& [a, b] : spans) {
    hi = std::max(hi, b);
    if (a > cur_hi) {
      busy += cur_hi - cur_lo;
      cur_lo = a;
      cur_hi = b;
    } else {
      cur_hi = std::max(cur_hi, b);
    }
  }
  busy += cur_hi - cur_lo;
  return hi > lo ? busy / (hi - lo) : 0;
}

void link_caches(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const char* d : {"build", "golden"})
    if (fs::exists(from / d))
      fs::copy(from / d, to / d, fs::copy_options::recursive | fs::copy_options::create_hard_links);
}

Measured run_once(const Options& o, const std::string& tasks, const fs::path& warm, const fs::path& root,
                  double latency, int jobs, const std::string& folder) {
  Model model(latency);
  const fs::path ws = root / folder;
  fs::remove_all(ws);
  link_caches(warm, ws);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> args = {"run", "--policy", "llm", "--provider", "openai", "--base-url", model.url(),
                                   "--model", "scripted", "--workspace", ws.string(), "--tasks", tasks, "--jobs",
                                   std::to_string(jobs), "--max-attempts", std::to_string(o.attempts), "--json"};
  if (!o.device.empty()) args.insert(args.end(), {"--device", o.device});
  const ProcessResult pr = run_kope(args);
  Measured m;
  m.name = folder;
  m.jobs = jobs;
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!pr.started || pr.timed_out || pr.term_signal || pr.out.empty())
    throw Error("kope run --jobs " + std::to_string(jobs) + " failed: " + pr.describe() + ": " + pr.err.substr(0, 2000));
  const json j = json::parse(pr.out);
  m.tokens = j.value("tokens", int64_t{0});
  for (const auto& t : j.at("tasks"))
    for (const auto& a : t.at("attempts")) {
      ++m.attempts;
      if (a.at("speedup").is_number() && a.at("speedup_ci95").is_array())
        m.speedups[t.at("task").get<std::string>() + " " + a.at("name").get<std::string>() + " " +
                   a.at("thought").get<std::string>()] = a["speedup"].get<double>();
    }
  m.busy_share = busy_share(ws);
  m.server_max_in_flight = model.max_in_flight();
  if (o.keep.empty()) fs::remove_all(ws);
  return m;
}

std::string task_list(const Options& o) {
  if (!o.tasks.empty()) {
    std::string out;
    for (const auto& n : o.tasks) out += (out.empty() ? "" : ",") + n;
    return out;
  }
  std::vector<std::string> names;
  const Suite suite = Suite::embedded().at_levels(parse_levels(o.levels));  // held: tasks() is a reference into it
  for (const Task& t : suite.tasks()) names.push_back(t.name);
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

// What a kernel's speedup does alone, from the --jobs 1 runs: the mean and standard deviation of its log speedup
// over them. One evaluation's bootstrap interval holds that evaluation's noise only (the same kernels judged alone
// again fall outside it about half the time: bench/interval_coverage.py), so the alone reference is the spread of
// whole runs, measured: a new measurement with nothing beside it falls in the prediction band
// mean +- t(R-1) sd sqrt(1 + 1/R) with the band's probability (Student's t, R alone runs).
struct Alone {
  double mean = 0, sd = 0;
  int runs = 0;
};
std::map<std::string, Alone> alone_spread(const std::vector<const Measured*>& alone) {
  std::map<std::string, std::vector<double>> logs;
  for (const Measured* m : alone)
    for (const auto& [k, s] : m->speedups)
      if (s > 0) logs[k].push_back(std::log(s));
  std::map<std::string, Alone> out;
  for (const auto& [k, v] : logs) {
    Alone a;
    a.runs = static_cast<int>(v.size());
    for (double x : v) a.mean += x / a.runs;
    for (double x : v) a.sd += (x - a.mean) * (x - a.mean);
    a.sd = a.runs > 1 ? std::sqrt(a.sd / (a.runs - 1)) : 0;
    out[k] = a;
  }
  return out;
}

struct Agreement {
  int compared = 0;      // kernels with at least two alone runs beside this one
  int inside = 0;        // within their 95% prediction band
  int inside_all = 0;    // within the band that holds all `compared` at once with 95% (Bonferroni)
  int above = 0, below = 0;  // outside the 95% band
  double shift = 0, shift_low = 0, shift_high = 0;  // median over kernels of speedup / alone speedup, 95% interval
};

Agreement agreement(const Measured& m, const std::vector<const Measured*>& alone) {
  const std::map<std::string, Alone> ref = alone_spread(alone);
  Agreement g;
  std::vector<std::pair<double, const Alone*>> seen;  // log speedup, its alone reference
  std::vector<double> ratios;
  for (const auto& [k, s] : m.speedups) {
    auto it = ref.find(k);
    if (it == ref.end() || s <= 0) continue;
    ratios.push_back(s / std::exp(it->second.mean));
    if (it->second.runs >= 2) seen.push_back({std::log(s), &it->second});
  }
  g.compared = static_cast<int>(seen.size());
  for (const auto& [x, a] : seen) {
    const double spread = a->sd * std::sqrt(1.0 + 1.0 / a->runs);
    const double t95 = student_t_quantile(0.975, a->runs - 1);
    const double t_all = student_t_quantile(1 - 0.025 / g.compared, a->runs - 1);
    const bool in = std::abs(x - a->mean) <= t95 * spread;
    g.inside += in;
    g.above += !in && x > a->mean;
    g.below += !in && x < a->mean;
    g.inside_all += std::abs(x - a->mean) <= t_all * spread;
  }
  if (ratios.empty()) return g;
  g.shift = median(ratios);
  // Bootstrap over kernels: which kernels ran is the sample, so the interval says how far the median could move.
  std::mt19937_64 rng(0x6a6f6273);
  std::uniform_int_distribution<std::size_t> pick(0, ratios.size() - 1);
  std::vector<double> medians, draw(ratios.size());
  for (int r = 0; r < 2000; ++r) {
    for (double& d : draw) d = ratios[pick(rng)];
    medians.push_back(median(draw));
  }
  std::sort(medians.begin(), medians.end());
  g.shift_low = medians[50];
  g.shift_high = medians[1949];
  return g;
}

void print_row(const Measured& m, const std::vector<const Measured*>& alone, double apm1, const char* label) {
  std::vector<const Measured*> ref;
  for (const Measured* a : alone)
    if (a != &m) ref.push_back(a);
  const Agreement g = agreement(m, ref);
  const double apm = m.attempts / (m.seconds / 60);
  char vs1[32] = "";
  if (apm1 > 0) std::snprintf(vs1, sizeof vs1, "%.2fx", apm / apm1);
  std::printf("%8s %9d %9.1f %12.2f %9s %9.0f%% %10lld %7d of %-3d %5d/%-4d %8d of %-3d %7.3f [%.3f, %.3f]%s\n",
              label, m.attempts, m.seconds, apm, vs1, m.busy_share * 100, static_cast<long long>(m.tokens), g.inside,
              g.compared, g.above, g.below, g.inside_all, g.compared, g.shift, g.shift_low, g.shift_high,
              ref.size() < 2 ? "  (fewer than two other alone runs)" : "");
}

constexpr const char* kHeader = "%8s %9s %9s %12s %9s %10s %10s %13s %10s %14s %24s\n";

std::vector<const Measured*> alone_runs(const std::vector<Measured>& all) {
  std::vector<const Measured*> alone;
  for (const Measured& m : all)
    if (m.jobs == 1) alone.push_back(&m);
  return alone;
}

// all[first, last) are one latency's runs; `all` holds every run: speedups do not depend on the model's latency, so
// every --jobs 1 run is an alone measurement. Each run is checked against the alone runs other than itself.
void print(double latency, const std::vector<Measured>& all, std::size_t first, std::size_t last) {
  const std::vector<const Measured*> alone = alone_runs(all);
  const double apm1 = all[first].attempts / (all[first].seconds / 60);
  std::printf("\nlatency %.0f s (the alone reference: %zu --jobs 1 runs)\n", latency, alone.size());
  std::printf(kHeader, "jobs", "attempts", "seconds", "attempts/min", "vs jobs1", "eval busy", "tokens",
              "in 95% band", "above/below", "all-at-once", "shift vs alone [95%]");
  for (std::size_t i = first; i < last; ++i) print_row(all[i], alone, apm1, std::to_string(all[i].jobs).c_str());
}

// The control: each alone run without model latency against the other alone runs.
void print_control(const std::vector<Measured>& all) {
  const std::vector<const Measured*> alone = alone_runs(all);
  std::printf("\nthe control: each --jobs 1 run with no model latency against the other alone runs\n");
  std::printf(kHeader, "run", "attempts", "seconds", "attempts/min", "", "eval busy", "tokens", "in 95% band",
              "above/below", "all-at-once", "shift vs alone [95%]");
  for (const Measured& m : all)
    if (m.name.rfind("alone", 0) == 0) print_row(m, alone, 0, m.name.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const std::string tasks = task_list(o);
    const fs::path root = o.keep.empty() ? fs::temp_directory_path() / ("kope-bench-jobs-" + std::to_string(getpid())) : o.keep;
    const fs::path warm = root / "warm";
    std::printf("tasks: %s\nwarming up builds and goldens (untimed)...\n", tasks.c_str());
    std::fflush(stdout);
    std::vector<std::string> warm_args = {"run", "--policy", "offline", "--workspace", warm.string(), "--tasks", tasks,
                                          "--max-attempts", "1", "--json"};
    if (!o.device.empty()) warm_args.insert(warm_args.end(), {"--device", o.device});
    const ProcessResult w = run_kope(warm_args);
    if (!w.started || w.timed_out || w.term_signal) throw Error("warm-up failed: " + w.describe() + ": " + w.err);
    std::vector<Measured> all;  // every run, in order
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // per latency: [first, last) in `all`
    auto alone_run = [&](int k) {
      all.push_back(run_once(o, tasks, warm, root, 0, 1, "alone" + std::to_string(k)));
      std::printf("  alone %d (--jobs 1, no model latency): %d attempts in %.1f s\n", k, all.back().attempts,
                  all.back().seconds);
      std::fflush(stdout);
    };
    for (int k = 1; k <= (o.alone + 1) / 2; ++k) alone_run(k);
    for (double latency : o.latencies) {
      spans.push_back({all.size(), all.size()});
      for (int jobs : o.jobs) {
        all.push_back(run_once(o, tasks, warm, root, latency, jobs,
                               "lat" + std::to_string(static_cast<int>(latency)) + "-jobs" + std::to_string(jobs)));
        spans.back().second = all.size();
        const Measured& m = all.back();
        std::printf("  latency %.0f s, --jobs %d: %d attempts in %.1f s (server saw %d requests at once at most)\n",
                    latency, jobs, m.attempts, m.seconds, m.server_max_in_flight);
        std::fflush(stdout);
      }
    }
    for (int k = (o.alone + 1) / 2 + 1; k <= o.alone; ++k) alone_run(k);
    for (std::size_t i = 0; i < o.latencies.size(); ++i)
      print(o.latencies[i], all, spans[i].first, spans[i].second);
    if (o.alone > 0) print_control(all);
    if (o.keep.empty()) fs::remove_all(root);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_jobs: %s\n", e.what());
    return 1;
  }
}
