#include "kope/eval/evaluator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <optional>
#include <thread>

#include <pthread.h>
#include <sched.h>

#include "kope/base/error.h"
#include "kope/base/sha256.h"
#include "kope/base/timing_slots.h"
#include "kope/eval/case_runner.h"
#include "kope/exec/judge.h"
#include "kope/model/stats.h"

using namespace kope::exec;

namespace kope::eval {

namespace fs = std::filesystem;
using nlohmann::json;

struct Evaluator::DeviceEntry {
  std::unique_ptr<device::Device> dev;
  std::unique_ptr<CaseRunner> runner;  // chosen once: the judge for the local CPU, Device::measure otherwise
  device::Availability availability;
  device::Capabilities caps;
  json fingerprint;
};

Evaluator::Evaluator(EvalPaths paths) : paths_(paths), side_(std::move(paths)) {}
Evaluator::~Evaluator() = default;

Evaluator::DeviceEntry& Evaluator::device_for(const std::string& spec) {
  std::lock_guard<std::mutex> lock(devices_mutex_);  // tasks evaluated side by side share the entries
  if (auto it = devices_.find(spec); it != devices_.end()) return *it->second;
  device::DeviceConfig cfg;
  cfg.work_dir = paths_.build.parent_path();
  cfg.runner = paths_.runner;
  std::unique_ptr<device::Device> dev = device::make_device(spec, cfg);  // kope::Error for a malformed spec or an unknown kind
  if (dev->kind() == "cpu") {
    // The CPU device builds against the workspace's header, as compile_kernel always did (same cache keys).
    cfg.include_dir = paths_.include;
    dev = device::make_device(spec, cfg);
  }
  return add_device(spec, std::move(dev));
}

Evaluator::DeviceEntry& Evaluator::add_device(const std::string& spec, std::unique_ptr<device::Device> dev) {
  auto e = std::make_unique<DeviceEntry>();
  e->dev = std::move(dev);
  e->availability = e->dev->availability();
  if (e->availability.available) {
    e->caps = e->dev->capabilities();
    e->fingerprint = device::to_json(e->dev->fingerprint());
  }
  e->runner = make_case_runner(*e->dev, e->caps, paths_);
  devices_[spec] = std::move(e);
  return *devices_[spec];
}

void Evaluator::use_device(const std::string& spec, std::unique_ptr<device::Device> dev) {
  std::lock_guard<std::mutex> lock(devices_mutex_);
  add_device(spec, std::move(dev));
}

namespace {

// The cases `options` selects (all when it names none, less the large ones under skip_large), resolved; a name the task does not have is bad input.
std::vector<ConcreteCase> selected_cases(const Task& task, const EvalOptions& options) {
  for (const std::string& name : options.cases)
    if (!find_case(task, name)) {
      std::string known;
      for (const Case& c : task.cases) known += (known.empty() ? "" : ", ") + c.name;
      throw Error("task '" + task.name + "' has no case \"" + name + "\" (cases: " + known + ")");
    }
  std::vector<ConcreteCase> cases;
  for (const Case& c : task.cases) {
    const bool named = std::find(options.cases.begin(), options.cases.end(), c.name) != options.cases.end();
    if (named || (options.cases.empty() && !(options.skip_large && c.large))) cases.push_back(resolve_case(task, c));
  }
  return cases;
}

}  // namespace

namespace {
std::atomic<std::size_t> g_at_once{1};  // tasks evaluated at once (Evaluator::evaluating_at_once)
}  // namespace

void Evaluator::evaluating_at_once(std::size_t tasks) {
  g_at_once = std::max<std::size_t>(1, tasks);
  exec::Judge::hold_baselines(tasks);
}

void Evaluator::prepare(const std::vector<const Task*>& tasks, const EvalOptions& options) {
  if (tasks.empty()) return;
  CaseRunner* runner = nullptr;
  try {
    runner = device_for(options.device).runner.get();
  } catch (const std::exception&) {  // a device that cannot be made: each evaluation records why
    return;
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < tasks.size();) {
      const Task& task = *tasks[i];
      try {
        // Side work on this machine's cores: it takes turns with a measurement there (kope/base/timing_slots.h).
        const TimingSlots::Side side = TimingSlots::of("cpu").side(options.cancel.get());
        runner->prepare_ahead(side_, task, selected_cases(task, options), options);
      } catch (const std::exception&) {  // the evaluation says it, with the task's other outcomes
      }
    }
  };
  // Two tasks at a time on two or more cores (each runs its own builds and golden runs side by side too).
  std::vector<std::thread> more;
  for (unsigned t = 1; t < std::min(2u, std::thread::hardware_concurrency()); ++t) more.emplace_back(worker);
  worker();
  for (auto& t : more) t.join();
}

namespace {

// A case's medians, speedups with their interval, and HAP, from its calls.
void add_figures(CaseResult& r, device::Device& dev, const ConcreteCase& c) {
  if (!r.library_ns.empty()) r.library_median_ns = median(r.library_ns);
  if (!r.baseline_ns.empty() && !r.kernel_ns.empty() && r.correct()) {
    // Speedup and HAP against the library when it was timed on this case, else against the naive baseline;
    // the naive figures stay as the second column either way.
    const bool vs_library = !r.library_ns.empty();
    r.baseline = vs_library ? "library" : "naive";
    r.naive_median_ns = median(r.baseline_ns);
    r.baseline_median_ns = vs_library ? r.library_median_ns : r.naive_median_ns;
    r.kernel_median_ns = median(r.kernel_ns);
    if (*r.kernel_median_ns > 0) {
      r.speedup = *r.baseline_median_ns / *r.kernel_median_ns;
      r.speedup_vs_naive = *r.naive_median_ns / *r.kernel_median_ns;
      r.speedup_interval = speedup_interval(vs_library ? r.library_ns : r.baseline_ns, r.kernel_ns);
    }
    // The device's floor: bytes the case must move / its peak (the CPU: the copy bandwidth, as measured).
    if (const std::optional<double> floor = dev.floor_ns(c); floor && *floor > 0) {
      r.hw_bound_ns = *floor;
      r.hap = hardware_aware_position(*r.baseline_median_ns, *r.kernel_median_ns, *r.hw_bound_ns);
      r.hap_vs_naive = hardware_aware_position(*r.naive_median_ns, *r.kernel_median_ns, *r.hw_bound_ns);
    }
  }
}

// What a person should see beside a case's verdict: the library's own misses, and a time too good to believe.
void add_case_warnings(EvalReport& rep, const CaseResult& r) {
  // The library's own correctness is shown, not hidden (ATen's gelu misses fp32's threshold in the tail).
  if (r.library_correct && !*r.library_correct)
    rep.warnings.push_back("case " + r.name + ": " + r.library_message);
  else if (!r.library_message.empty())
    rep.warnings.push_back("case " + r.name + ": the library baseline could not be timed: " + r.library_message);
  // Flushed caches and fresh inputs leave no honest way under half the single-core copy floor.
  if (r.correct() && faster_than_hardware_floor(r))
    rep.warnings.push_back("case " + r.name + ": the kernel took " + std::to_string(*r.kernel_median_ns) +
                           " ns, under half the " + std::to_string(*r.hw_bound_ns) +
                           " ns its data needs at the measured bandwidth: flagged for a second look (cached or "
                           "skipped work?)");
}

// One evaluation in progress: its report, its clock, and the hooks it reports through.
struct EvalRun {
  EvalRun(const Task& task, const std::string& source, const std::string& kernel_name, const EvalOptions& o)
      : options(o), cancel(o.cancel.get()) {
    rep.task = task.name;
    rep.task_digest = task.digest;
    rep.kernel_name = kernel_name;
    rep.kernel_sha256 = sha256_hex(source);
    rep.options = o;
    started = last = std::chrono::steady_clock::now();
    trace = std::getenv("KOPE_TRACE_EVAL") != nullptr;
  }

  // With KOPE_TRACE_EVAL set, the time since the last lap on stderr.
  void lap(const std::string& what) {
    if (!trace) return;
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "kope: %-28s %8.1f ms\n", what.c_str(), std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  }

  // The progress hooks (interim, for the window's live phases).
  void progress(EvalProgress::Phase ph, int k, const CaseResult* r) const {
    const int n = static_cast<int>(cases.size());
    if (options.progress) options.progress({ph, k, n, k < n ? cases[k].name : std::string(), r});
  }

  bool stopped() const { return cancel && cancel->cancelled(); }

  void stamp_wall() {
    rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  // Stopped (before or during the compile, a golden run or a case): the cases that finished are kept, the
  // report says cancelled, and nothing about the kernel follows from it.
  EvalReport end_cancelled() {
    rep.cancelled = true;
    rep.errors.push_back("cancelled");
    stamp_wall();
    return rep;
  }

  const EvalOptions& options;
  const CancelToken* cancel;
  std::vector<ConcreteCase> cases;
  EvalReport rep;
  std::chrono::steady_clock::time_point started, last;
  bool trace = false;
};

// The candidate built on the device; a build that cannot start for a reason of the source is a failed compile.
BuildResult compile_candidate(device::Device& dev, double timeout_seconds, const fs::path& build_dir,
                                const std::string& source, const std::string& kernel_name, const EvalRun& run) {
  device::BuildOptions bo;
  bo.build_dir = build_dir;
  bo.display_name = kernel_name;
  bo.flags = run.options.cxxflags;
  bo.prelude = run.options.prelude;
  bo.cancel = run.cancel;
  bo.timeout_seconds = timeout_seconds;
  try {
    return dev.build(source, bo);
  } catch (const EnvError&) { throw; } catch (const Error& e) {
    BuildResult c;
    c.error = e.what();
    return c;
  }
}

// The report's errors for a candidate that did not compile: the build's error, then each error diagnostic.
void add_compile_errors(EvalReport& rep) {
  rep.errors.push_back(rep.compile.error);
  for (const auto& d : rep.compile.diagnostics)
    if (d.severity == "error" || d.severity == "fatal error")
      rep.errors.push_back(d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message);
}

// `f` on a thread of its own at idle priority (SCHED_IDLE, which the processes it starts inherit): it runs only on
// a core nothing else wants, and gives the core back the moment a timed call's thread wakes there. A thread of its
// own, since an unprivileged thread cannot leave SCHED_IDLE again; where the policy is refused, normal priority.
template <class F>
auto at_idle_priority(F f) {
  return std::async(std::launch::async, [f = std::move(f)]() mutable {
    sched_param p{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &p);
    return f();
  });
}

// The cases in order against their goldens: only until the first failure are correct cases timed.
EvalReport run_cases(EvalRun& run, CaseSession& session, const std::vector<std::shared_ptr<const Golden>>& goldens,
                     device::Device& dev) {
  EvalReport& rep = run.rep;
  std::string first_failure;
  for (std::size_t ci = 0; ci < run.cases.size(); ++ci) {
    const ConcreteCase& c = run.cases[ci];
    if (run.stopped()) return run.end_cancelled();
    run.progress(EvalProgress::Phase::Testing, static_cast<int>(ci), nullptr);
    CaseResult r = session.run(ci, *goldens[ci], first_failure.empty(),
                               [&] { run.progress(EvalProgress::Phase::Timing, static_cast<int>(ci), nullptr); });
    run.lap("case " + c.name);
    if (r.status == CaseStatus::Cancelled) return run.end_cancelled();
    if (!r.correct()) {
      rep.errors.push_back("case " + r.name + ": " + std::string(case_status_name(r.status)) + ": " + r.message);
      if (first_failure.empty()) first_failure = r.name;
    } else if (!r.timed && !first_failure.empty()) {
      r.message = "correct; not timed, since case " + first_failure + " already failed";
    }
    add_figures(r, dev, c);
    add_case_warnings(rep, r);
    rep.cases.push_back(std::move(r));
    run.progress(EvalProgress::Phase::CaseDone, static_cast<int>(rep.cases.size()) - 1, &rep.cases.back());
  }
  session.finish(rep);
  run.stamp_wall();
  if (run.trace)
    std::fprintf(stderr, "kope: evaluation %.1f ms, %.1f ms of it in timed calls\n", rep.wall_seconds * 1e3,
                 rep.timed_call_seconds * 1e3);
  return std::move(rep);
}

// What the trusted side prepares for an evaluation.
struct Prepared {
  TrustedBuilds builds;
  std::vector<std::shared_ptr<const Golden>> goldens;
};

}  // namespace

EvalReport Evaluator::evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                               const EvalOptions& options) {
  EvalRun run(task, source, kernel_name, options);
  EvalReport& rep = run.rep;
  run.cases = selected_cases(task, options);
  const std::vector<ConcreteCase>& cases = run.cases;

  DeviceEntry& d = device_for(options.device);
  if (!d.availability.available)
    throw EnvError("device " + d.dev->name() + " is not available: " + d.availability.reason);
  rep.device = d.dev->name();
  rep.device_fingerprint = d.fingerprint;
  if (run.stopped()) return run.end_cancelled();
  // On this machine's cores, evaluations go one after another in the order they came (kope/base/timing_slots.h),
  // from the compile to the last timed call. With several tasks evaluated at once on one unpinned slot (where side
  // work would take turns with timing), the compile and the trusted side come before the turn instead, beside
  // the other evaluations' timing at idle priority: only the workers' set-up, the checks and the timing take
  // turns. Side by side, four tasks' compiles (a fifth of an evaluation) no longer queue behind each other's
  // timing, and a compile that fails takes no turn at all.
  const bool cpu = d.dev->name() == "cpu";
  const bool beside = cpu && g_at_once > 1 && TimingSlots::of("cpu").side_cpus().empty();
  std::optional<TimingSlots::Turn> turn;
  std::optional<TimingSlots::Side> side_work;
  // The turn, then side work (the workers' set-up, and the compile and the trusted side unless they ran beside),
  // which takes turns with a measurement on these cores or is pinned to the cores no slot times on.
  auto take_turn = [&] {
    if (cpu) {
      run.progress(EvalProgress::Phase::Waiting, 0, nullptr);
      turn.emplace(TimingSlots::of("cpu").turn(run.cancel));
      if (!*turn) return false;
      run.lap("waiting for its turn");
    }
    side_work.emplace(TimingSlots::of("cpu").side(run.cancel));
    return true;
  };
  if (!beside && !take_turn()) return run.end_cancelled();
  run.progress(EvalProgress::Phase::Compiling, 0, nullptr);

  // The trusted side: the baseline, the goldens (kept in kope's memory for the evaluation; their cache in the
  // workspace is out of every worker's view) and the library baseline. On the local CPU it is prepared on a
  // second thread while the candidate compiles (nothing is timed yet; the first evaluation of a task builds the
  // reference and the baseline and runs the golden reference, the others find them cached).
  auto prepare = [&]() -> Prepared {
    Prepared p;
    p.builds = d.runner->trusted(side_, task, cases, options);
    throw_if_cancelled(run.cancel);
    p.goldens = side_.goldens(task, cases, options);
    return p;
  };
  std::future<Prepared> preparing;
  if (d.runner->prepares_beside_compile())  // joined below
    preparing = beside ? at_idle_priority(prepare) : std::async(std::launch::async, prepare);
  auto compile = [&] {
    return compile_candidate(*d.dev, d.runner->build_timeout_seconds(), paths_.build, source, kernel_name, run);
  };
  rep.compile = beside ? at_idle_priority(compile).get() : compile();
  bool turned = !beside;
  if (beside && rep.compile.timed_out && !rep.compile.cancelled && !run.stopped()) {
    // Starved at idle priority (this machine's cores busy with more than timing): that is no fault of the source,
    // so it compiles again in its turn, at the priority it would have alone.
    if (!take_turn()) return run.end_cancelled();
    turned = true;
    rep.compile = compile();
  }
  if (rep.compile.cancelled || run.stopped()) return run.end_cancelled();
  rep.compiled = rep.compile.ok;
  run.progress(EvalProgress::Phase::Compiled, 0, nullptr);
  run.lap("compile");
  if (!rep.compiled) {
    // The trusted side's own failure, if any, is the next evaluation's to report: this one is about the source.
    if (preparing.valid()) try {
        preparing.get();
      } catch (const std::exception&) {
      }
    add_compile_errors(rep);
    run.stamp_wall();
    return rep;
  }
  Prepared prepared;
  try {
    prepared = preparing.valid() ? preparing.get() : prepare();
  } catch (const EvalCancelled&) {
    return run.end_cancelled();
  }
  run.lap("baseline and goldens");
  if (!turned && !take_turn()) return run.end_cancelled();
  const std::unique_ptr<CaseSession> session =
      d.runner->open(rep.compile.artifact, prepared.builds, cases, options, rep.warnings);
  run.lap("workers set-up");
  side_work->release();
  return run_cases(run, *session, prepared.goldens, *d.dev);
}

EvalReport Evaluator::compile(const Task& task, const std::string& source, const std::string& kernel_name,
                              const EvalOptions& options) {
  EvalRun run(task, source, kernel_name, options);
  EvalReport& rep = run.rep;
  DeviceEntry& d = device_for(options.device);
  if (!d.availability.available)
    throw EnvError("device " + d.dev->name() + " is not available: " + d.availability.reason);
  rep.device = d.dev->name();
  rep.device_fingerprint = d.fingerprint;
  if (run.stopped()) return run.end_cancelled();
  run.progress(EvalProgress::Phase::Compiling, 0, nullptr);
  rep.compile =
      compile_candidate(*d.dev, d.runner->build_timeout_seconds(), paths_.build, source, kernel_name, run);
  if (rep.compile.cancelled || run.stopped()) return run.end_cancelled();
  rep.compiled = rep.compile.ok;
  if (!rep.compiled) add_compile_errors(rep);
  run.stamp_wall();
  return rep;
}

}  // namespace kope::eval
