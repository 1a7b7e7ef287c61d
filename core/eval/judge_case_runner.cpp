// The local CPU's case runner: the judge's sandboxed workers (candidate, naive baseline, library) in one evaluation.
#include <future>

#include "kope/eval/case_runner.h"
#include "kope/eval/library.h"
#include "kope/exec/compiler.h"
#include "kope/exec/judge.h"

using namespace kope::exec;

namespace kope::eval {

namespace {

class JudgeSession : public CaseSession {
 public:
  JudgeSession(const EvalPaths& paths, const std::filesystem::path& candidate, const TrustedBuilds& builds,
               const std::vector<ConcreteCase>& cases, const EvalOptions& options, std::vector<std::string>& warnings)
      : cases_(cases), judge_(paths, candidate, builds.baseline, cases, options) {
    if (!builds.library) return;
    const BuildResult& lr = *builds.library;
    if (lr.ok) judge_.add_library(lr.artifact);
    else
      warnings.push_back("the library baseline does not build (" + tail_trimmed(lr.error + "\n" + lr.log, 600) +
                         "); speedups are against the naive baseline");
  }

  CaseResult run(std::size_t ci, const Golden& golden, bool time_it, const std::function<void()>& on_timing) override {
    return judge_.run_case(cases_[ci], golden, time_it, on_timing);
  }

  void finish(EvalReport& rep) const override {
    for (const CaseResult& c : rep.cases)
      if (!c.network_isolated) {
        rep.warnings.push_back("case " + c.name + ": the runner could not isolate the network (" + c.network_failure +
                               "); the kernel could reach it");
        break;
      }
    rep.timed_call_seconds = judge_.timed_call_seconds();
    rep.flush_method = judge_.flush_method();
    rep.worker_isolation = judge_.isolation_summary();
  }

 private:
  const std::vector<ConcreteCase>& cases_;
  Judge judge_;
};

class JudgeCaseRunner : public CaseRunner {
 public:
  explicit JudgeCaseRunner(const EvalPaths& paths) : paths_(paths) {}

  bool prepares_beside_compile() const override { return true; }
  double build_timeout_seconds() const override { return CompileOptions{}.timeout_seconds; }

  void prepare_ahead(TrustedSide& side, const Task& task, const std::vector<ConcreteCase>& cases,
                     const EvalOptions& options) override {
    side.baseline_beside_goldens(task, cases, options);
  }

  TrustedBuilds trusted(TrustedSide& side, const Task& task, const std::vector<ConcreteCase>& cases,
                        const EvalOptions& options) override {
    TrustedBuilds t;
    t.baseline = side.baseline_beside_goldens(task, cases, options);
    throw_if_cancelled(options.cancel.get());
    // The library baseline (issue 11): a third worker, when the task names one for the CPU.
    if (options.library)
      if (const LibraryImpl* lib = library_for(task, "cpu")) t.library = side.library_build(task, *lib);
    return t;
  }

  std::unique_ptr<CaseSession> open(const std::filesystem::path& candidate, const TrustedBuilds& builds,
                                    const std::vector<ConcreteCase>& cases, const EvalOptions& options,
                                    std::vector<std::string>& warnings) override {
    return std::make_unique<JudgeSession>(paths_, candidate, builds, cases, options, warnings);
  }

 private:
  EvalPaths paths_;
};

}  // namespace

std::unique_ptr<CaseRunner> make_judge_case_runner(const EvalPaths& paths) {
  return std::make_unique<JudgeCaseRunner>(paths);
}

}  // namespace kope::eval
