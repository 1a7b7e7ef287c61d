// Verdicts a person can rely on, measured: every shipped kernel of the L1 and L2 suites judged repeatedly with
// the library baseline, once on a quiet machine and once beside a CPU-hungry neighbour (one busy process per
// core), and every hostile kernel of tests/hostile judged the same two ways. Prints, per condition, the honest
// evaluations and how many of them were recorded as cheating (background work, a written input), how many were
// flagged once and cleared by the re-run in a fresh worker, and each hostile kernel's verdicts.
//
//   bench_honest_verdicts [--reps N] [--tasks a,b] [--hostile DIR] [--conditions quiet,loaded] [--no-library]
//
// A kernel counts as honest when none of its evaluations is wrong (the shipped "plausible but wrong" kernels
// and those wrong on some inputs are left out: their verdicts are about correctness, not trust). Target: 0
// recorded flags in at least 300 honest evaluations over both conditions, every hostile kernel caught.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kope/eval/evaluator.h"
#include "kope/base/fsutil.h"
#include "kope/model/suite.h"
#include "kope/model/task.h"

using namespace kope::eval;
using namespace kope::exec;

namespace fs = std::filesystem;
using namespace kope;

namespace {

bool cheating(CaseStatus s) { return s == CaseStatus::Background || s == CaseStatus::InputsModified; }

// One busy process per online core, at the same priority as kope: the neighbour a shared machine has.
class Neighbour {
 public:
  void start() {
    const long n = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    for (long i = 0; i < n; ++i) {
      const pid_t p = fork();
      if (p == 0) {
        volatile double v = 1.0;
        for (;;) v = v * 1.0000001 + 1e-9;
      }
      if (p > 0) pids_.push_back(p);
    }
  }
  ~Neighbour() {
    for (pid_t p : pids_) kill(p, SIGKILL);
    for (pid_t p : pids_) waitpid(p, nullptr, 0);
  }

 private:
  std::vector<pid_t> pids_;
};

struct Tally {
  int honest = 0, flagged = 0, cleared = 0;
  std::vector<std::string> flags;         // what was recorded, for the closing lines
  std::vector<std::string> cleared_what;  // what a re-run did not confirm
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string w; std::getline(in, w, ',');)
    if (!w.empty()) out.push_back(w);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  std::string only_tasks;
  std::string conditions = "quiet,loaded";
  fs::path hostile_dir = KOPE_HOSTILE_DIR;
  bool library = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--reps") reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--tasks") only_tasks = next();
    else if (a == "--hostile") hostile_dir = next();
    else if (a == "--conditions") conditions = next();
    else if (a == "--no-library") library = false;
    else {
      std::fprintf(stderr, "usage: bench_honest_verdicts [--reps N] [--tasks a,b] [--hostile DIR] "
                           "[--conditions quiet,loaded] [--no-library]\n");
      return 2;
    }
  }
  const fs::path scratch = fs::temp_directory_path() / ("kope-honest-" + std::to_string(getpid()));
  Evaluator ev{EvalPaths::under(scratch)};
  EvalOptions o;  // the defaults `kope eval` and `kope run` use: adaptive timing, the library baseline
  o.library = library;

  Suite suite = Suite::embedded();
  std::vector<const Task*> tasks;
  const std::vector<std::string> wanted = split(only_tasks);
  for (const Task& t : suite.tasks())
    if ((t.level == 1 || t.level == 2) &&
        (wanted.empty() || std::find(wanted.begin(), wanted.end(), t.name) != wanted.end()))
      tasks.push_back(&t);

  // The hostile kernels attack the affine task of the tests; each must never pass.
  const Task affine = parse_task_text(read_file(hostile_dir / "affine.json"), (hostile_dir / "affine.json").string());
  // Each hostile kernel says what it must come to in a `// kope:expect STATUS[,STATUS]` line.
  auto expected = [](const std::string& text) {
    const auto at = text.find("// kope:expect ");
    if (at == std::string::npos) return std::vector<std::string>{};
    std::string line = text.substr(at + 15, text.find('\n', at) - at - 15);
    return split(line.substr(0, line.find(' ')));
  };
  std::vector<fs::path> hostile;
  for (const auto& e : fs::directory_iterator(hostile_dir))
    if (e.path().extension() == ".cpp") hostile.push_back(e.path());
  std::sort(hostile.begin(), hostile.end());

  std::set<std::string> ever_wrong;  // kernels with a wrong verdict: not honest kernels
  std::map<std::string, std::map<std::string, std::vector<std::string>>> hostile_verdicts;  // condition -> kernel
  std::map<std::string, Tally> tally;
  std::map<std::string, std::vector<std::pair<std::string, EvalReport>>> runs;
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& cond : split(conditions)) {
    Neighbour neighbour;
    if (cond == "loaded") neighbour.start();
    else if (cond != "quiet") {
      std::fprintf(stderr, "unknown condition %s (quiet, loaded)\n", cond.c_str());
      return 2;
    }
    for (int rep = 0; rep < reps; ++rep)
      for (const Task* t : tasks)
        for (const CandidateSource& k : embedded_candidates(t->name)) {
          if (ever_wrong.count(k.name)) continue;
          EvalReport r = ev.evaluate(*t, k.source, k.name, o);
          std::fprintf(stderr, "[%s %d] %s: %s\n", cond.c_str(), rep + 1, k.name.c_str(), r.status().c_str());
          bool wrong = !r.compiled;
          for (const auto& c : r.cases)
            if (!c.correct() && !cheating(c.status) && c.status != CaseStatus::Cancelled) wrong = true;
          if (wrong) {
            ever_wrong.insert(k.name);
            continue;
          }
          runs[cond].push_back({k.name, std::move(r)});
        }
    EvalOptions ho = o;
    ho.memory_bytes = uint64_t{1} << 30;  // as the tests judge them
    for (const fs::path& h : hostile) {
      const std::string text = read_file(h);
      EvalReport r = ev.evaluate(affine, text, h.filename().string(), ho);
      const std::vector<std::string> want = expected(text);
      // "passed<1.5x": it may pass only with a speedup under 1.5 over the baseline (it gained nothing).
      bool caught = std::find(want.begin(), want.end(), r.status()) != want.end();
      for (const auto& w : want)
        if (w.rfind("passed<", 0) == 0 && r.status() == "passed" && r.speedup() &&
            *r.speedup() < std::atof(w.c_str() + 7))
          caught = true;
      std::string wanted;
      for (const auto& w : want) wanted += (wanted.empty() ? "" : " or ") + w;
      char speed[32] = "";
      if (r.speedup()) std::snprintf(speed, sizeof speed, " %.2fx", *r.speedup());
      hostile_verdicts[cond][h.filename().string()].push_back(
          r.status() + speed + (caught ? "" : "   <- NOT AS EXPECTED (" + (want.empty() ? "no kope:expect line" : wanted) + ")"));
      std::fprintf(stderr, "[%s] hostile %s: %s\n", cond.c_str(), h.filename().string().c_str(), r.status().c_str());
    }
  }
  // Tally only kernels never found wrong, in either condition.
  for (const auto& [cond, list] : runs)
    for (const auto& [name, r] : list) {
      if (ever_wrong.count(name)) continue;
      Tally& t = tally[cond];
      ++t.honest;
      bool flagged = false;
      for (const auto& c : r.cases) {
        if (cheating(c.status)) flagged = true;
        if (c.evidence.is_object() && c.evidence.contains("confirmed") && !c.evidence["confirmed"].get<bool>()) {
          ++t.cleared;
          t.cleared_what.push_back(name + " " + c.name + ": " + c.evidence.value("message", std::string()));
        }
      }
      if (flagged) {
        ++t.flagged;
        for (const auto& c : r.cases)
          if (cheating(c.status)) t.flags.push_back(name + " " + c.name + ": " + c.message);
      }
    }

  std::printf("honest verdicts: every shipped kernel never found wrong, %d round(s) per condition, library "
              "baseline %s; %.0f s in all\n",
              reps, library ? "on" : "off",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  int total = 0, flagged = 0;
  for (const auto& [cond, t] : tally) {
    std::printf("  %-7s honest evaluations %4d   recorded as cheating %3d   flagged once, cleared by the re-run %3d\n",
                cond.c_str(), t.honest, t.flagged, t.cleared);
    for (const auto& f : t.flags) std::printf("      recorded: %s\n", f.c_str());
    for (const auto& f : t.cleared_what) std::printf("      cleared: %s\n", f.c_str());
    total += t.honest;
    flagged += t.flagged;
  }
  std::printf("  all     honest evaluations %4d   recorded as cheating %3d\n", total, flagged);
  std::printf("  left out as wrong on some evaluation: %zu kernel(s)\n", ever_wrong.size());
  int escaped = 0;
  std::printf("hostile kernels (tests/hostile, on the affine task):\n");
  for (const auto& [cond, kernels] : hostile_verdicts)
    for (const auto& [name, verdicts] : kernels)
      for (const auto& v : verdicts) {
        escaped += v.find("<- NOT") != std::string::npos;
        std::printf("  %-7s %-32s %s\n", cond.c_str(), name.c_str(), v.c_str());
      }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return flagged == 0 && escaped == 0 ? 0 : 1;
}
