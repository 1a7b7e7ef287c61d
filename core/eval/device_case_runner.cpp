// Every device but the local CPU: Device::measure runs the case there, and its outputs are checked here.
#include "kope/base/timing_slots.h"
#include "kope/base/error.h"
#include "kope/eval/case_runner.h"
#include "kope/model/inputs.h"

using namespace kope::exec;

namespace kope::eval {

namespace fs = std::filesystem;

namespace {

// What the device is asked to run: the case's seeded inputs (the bytes the fp64 golden saw), the candidate, and
// the baseline and library with warm-up and repetitions only when the case is timed.
device::MeasureRequest measure_request(const ConcreteCase& c, bool time_it, const fs::path& cand,
                                       const fs::path& base, const fs::path& lib, const fs::path& scratch,
                                       const EvalOptions& o) {
  device::MeasureRequest q;
  q.kcase = c;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    std::string bytes(static_cast<std::size_t>(c.inputs[i].numel) * dtype_size(c.inputs[i].dtype), '\0');
    generate_tensor(c.inputs[i], c.seed, i, bytes.data());
    q.inputs.push_back(std::move(bytes));
  }
  q.candidate = cand;
  q.baseline = time_it ? base : fs::path();
  q.library = time_it ? lib : fs::path();
  q.scratch = scratch;
  q.warmup = time_it ? std::max(0, o.warmup) : 0;
  q.reps = time_it ? std::max(1, o.reps) : 1;
  q.interleave = o.interleave;
  q.flush_bytes = o.flush_bytes;
  q.timeout_seconds = o.case_timeout_seconds;
  q.host_memory_bytes = o.memory_bytes;
  q.sanitize = o.sanitize;
  q.cancel = o.cancel.get();
  return q;
}

// Records a run that did not end well in `r` (status and message) and returns false; true when it ran. A tool
// error or a lost cluster job is not the kernel's fault: the evaluation cannot say anything about it, so it throws
// (InfraError for the job the cluster lost, which the loop records and goes on past).
bool record_outcome(CaseResult& r, const device::MeasureResult& m, const device::Device& dev, const ConcreteCase& c) {
  using device::Outcome;
  const std::string what = std::string(device::outcome_name(m.outcome));
  switch (m.outcome) {
    case Outcome::Ok: break;
    case Outcome::ToolError:
      throw EnvError("device " + dev.name() + ": case " + c.name + ": " + m.message);
    case Outcome::Infrastructure:
      throw InfraError("device " + dev.name() + ": case " + c.name + ": " + m.message);
    case Outcome::KernelError:
    case Outcome::LaunchError:
    case Outcome::OutOfMemory: r.status = CaseStatus::RuntimeError; break;
    case Outcome::Crash:
    case Outcome::IllegalAddress: r.status = CaseStatus::Crash; break;
    case Outcome::Timeout: r.status = CaseStatus::Timeout; break;
    case Outcome::LoadError: r.status = CaseStatus::LoadError; break;
    case Outcome::InputsModified: r.status = CaseStatus::InputsModified; break;
    case Outcome::BackgroundWork: r.status = CaseStatus::Background; break;
  }
  if (m.outcome == Outcome::Ok) return true;
  r.message = what + ": " + m.message;
  if (!m.findings.empty()) r.message += " (memory checker: " + m.findings.front() + ")";
  return false;
}

// Each of `outs` checked against the golden (index outputs by what they point at in `inputs`, the seeded inputs
// the device ran on); a worker that returns outputs of the wrong size is broken.
std::vector<OutputCheck> check_outputs(const std::vector<std::string>& outs, const ConcreteCase& c,
                                       const std::vector<std::vector<double>>& golden, const device::Device& dev,
                                       const std::vector<std::string>& inputs) {
  bool sized = outs.size() == c.outputs.size();
  for (std::size_t i = 0; sized && i < outs.size(); ++i)
    sized = outs[i].size() == static_cast<std::size_t>(c.outputs[i].numel) * dtype_size(c.outputs[i].dtype);
  if (!sized)
    throw EnvError("device " + dev.name() + ": case " + c.name + ": the worker returned outputs of the wrong size");
  std::vector<const void*> in;
  for (const std::string& bytes : inputs) in.push_back(bytes.data());
  std::vector<OutputCheck> checks;
  for (std::size_t i = 0; i < c.outputs.size(); ++i)
    checks.push_back(check_case_output(c, i, outs[i].data(), golden[i].data(), c.outputs[i].threshold, in));
  return checks;
}

// Marks `r` wrong at `call` when one of `checks` failed (its message prefixed by `prefix`); false then.
bool all_correct(CaseResult& r, const std::vector<OutputCheck>& checks, const char* call, const std::string& prefix) {
  for (const auto& chk : checks)
    if (!chk.ok) {
      r.status = CaseStatus::Wrong;
      r.failed_call = call;
      r.message = prefix + describe_check(chk);
      return false;
    }
  return true;
}

// The library baseline's part of a case (issue 18), as on the CPU: its correctness against the golden is shown,
// never the candidate's; its times, when the candidate's were taken, are what the speedup is against.
void record_library(CaseResult& r, const device::MeasureResult& m, const ConcreteCase& c,
                    const std::vector<std::vector<double>>& golden, const device::Device& dev,
                    const std::vector<std::string>& inputs) {
  r.library_message = m.library_message;
  if (m.library_outputs.empty()) {
    if (r.library_message.empty()) r.library_message = "the " + dev.name() + " device returned no library outputs";
    return;
  }
  r.library_ran = true;
  r.library_outputs = check_outputs(m.library_outputs, c, golden, dev, inputs);
  r.library_correct = true;
  for (const auto& chk : r.library_outputs)
    if (!chk.ok) {
      r.library_correct = false;
      r.library_message = "the library baseline misses the golden: " + describe_check(chk);
      break;
    }
  if (r.timed) r.library_ns = m.library_ns;
}

// One case on a device other than the local CPU: the case's seeded inputs go to the device, its outputs come back
// and are checked here against the golden, its times are the device's.
CaseResult measure_on_device(device::Device& dev, const device::Capabilities& caps, const ConcreteCase& c,
                             const std::vector<std::vector<double>>& golden, bool time_it, const fs::path& cand,
                             const TrustedBuilds& builds, const fs::path& scratch, const EvalOptions& o,
                             int device_index) {
  CaseResult r;
  r.name = c.name;
  r.network_failure = "not reported by the " + dev.name() + " device";
  const fs::path lib = builds.library && builds.library->ok ? builds.library->artifact : fs::path();
  device::MeasureRequest q = measure_request(c, time_it, cand, builds.baseline, lib, scratch, o);
  q.device_index = device_index;
  const device::MeasureResult m = dev.measure(q);
  // Stopped while the device ran it (a Slurm job cancelled): nothing about the kernel follows.
  if (o.cancel && o.cancel->cancelled() && !m.ok()) {
    r.status = CaseStatus::Cancelled;
    r.message = m.message;
    return r;
  }
  r.log = m.log;
  for (const auto& f : m.findings) r.log += (r.log.empty() ? "" : "\n") + std::string("memory checker: ") + f;
  r.failed_call = m.failed_call;
  if (!record_outcome(r, m, dev, c)) return r;
  r.outputs = check_outputs(m.first_outputs, c, golden, dev, q.inputs);
  if (!all_correct(r, r.outputs, "correctness run", "")) return r;
  // The timed calls ran on the same inputs: the last one's outputs answer to the same golden.
  if (!m.last_outputs.empty()) {
    r.last_outputs = check_outputs(m.last_outputs, c, golden, dev, q.inputs);
    if (!all_correct(r, r.last_outputs, "the last timed run",
                     "correct on the correctness run but wrong on the last timed run: "))
      return r;
  }
  if (time_it && caps.can_time && !m.candidate_ns.empty() && !m.baseline_ns.empty()) {
    r.kernel_ns = m.candidate_ns;
    r.baseline_ns = m.baseline_ns;
    r.timed = true;
    r.stop_rule = "fixed";
  } else if (time_it && !caps.can_time) {
    r.message = "correct; not timed: " + dev.name() + " is a functional twin without the hardware's clock";
  }
  if (time_it && !lib.empty()) record_library(r, m, c, golden, dev, q.inputs);
  return r;
}

class DeviceSession : public CaseSession {
 public:
  DeviceSession(device::Device& dev, const device::Capabilities& caps, const EvalPaths& paths,
                const fs::path& candidate, const TrustedBuilds& builds, const std::vector<ConcreteCase>& cases,
                const EvalOptions& options)
      : dev_(dev), caps_(caps), paths_(paths), candidate_(candidate), builds_(builds), cases_(cases),
        options_(options) {}

  // The case measures on a free device of the pool (kope/base/timing_slots.h), never beside another
  // measurement there. A device that fails (the worker's tool error, outputs of the wrong size) leaves the pool
  // with its reason and the case runs again on another; a lone device's failure is the evaluation's, as before.
  CaseResult run(std::size_t ci, const Golden& golden, bool time_it, const std::function<void()>&) override {
    TimingSlots& pool = TimingSlots::of(dev_.name());
    while (true) {
      TimingSlots::Held slot = pool.acquire("case " + cases_[ci].name, options_.cancel.get());
      if (!slot) {
        CaseResult r;
        r.name = cases_[ci].name;
        r.status = CaseStatus::Cancelled;
        r.message = "cancelled before the measurement";
        return r;
      }
      JobDir scratch(paths_.jobs);
      try {
        return measure_on_device(dev_, caps_, cases_[ci], golden, time_it, candidate_, builds_, scratch.path,
                                 options_, slot.spec().device_index);
      } catch (const InfraError&) {
        throw;  // the cluster lost this job; the device itself may be fine
      } catch (const EnvError& e) {
        if (pool.states().size() <= 1) throw;
        slot.retire(e.what());
      }
    }
  }

  void finish(EvalReport& rep) const override {
    for (const CaseResult& c : rep.cases)
      for (const auto* v : {&c.baseline_ns, &c.kernel_ns, &c.library_ns})
        for (double ns : *v) rep.timed_call_seconds += ns * 1e-9;
    rep.worker_isolation = "on " + dev_.name() + ": the device's worker in its sandbox there (no network); not "
                           "reported per run (see README, Devices)";
  }

 private:
  device::Device& dev_;
  const device::Capabilities& caps_;
  const EvalPaths& paths_;
  fs::path candidate_;
  TrustedBuilds builds_;
  const std::vector<ConcreteCase>& cases_;
  const EvalOptions& options_;
};

class DeviceCaseRunner : public CaseRunner {
 public:
  DeviceCaseRunner(device::Device& dev, const device::Capabilities& caps, const EvalPaths& paths)
      : dev_(dev), caps_(caps), paths_(paths) {}

  bool prepares_beside_compile() const override { return false; }
  double build_timeout_seconds() const override { return device::BuildOptions{}.timeout_seconds; }
  void prepare_ahead(TrustedSide&, const Task&, const std::vector<ConcreteCase>&, const EvalOptions&) override {}

  // The device's own baseline (the task's baselines[kind], else the shipped one), built there once per task; and
  // its library baseline where the task has one there and the options ask for it.
  TrustedBuilds trusted(TrustedSide&, const Task& task, const std::vector<ConcreteCase>&, const EvalOptions& o) override {
    const std::string kind = dev_.kind();
    std::string src = device::baseline_source(task, kind);
    if (src.empty() && kind == "cpu") src = task.reference;  // the fp32 reference, as on the local CPU
    if (src.empty())
      throw Error("task '" + task.origin + "' has no " + kind + " baseline (a \"baselines\": {\"" + kind +
                  "\": ...} entry in the task, or resources/baselines/" + kind + "/" + task.name + caps_.source_suffix +
                  ")");
    device::BuildOptions bb;
    bb.build_dir = paths_.build;
    bb.display_name = task.name + ".baseline" + caps_.source_suffix;
    const BuildResult b = dev_.build(src, bb);
    if (!b.ok)
      throw Error("task '" + task.origin + "': the " + kind + " baseline does not build on " + dev_.name() + ": " +
                  b.error);
    TrustedBuilds t{b.artifact, std::nullopt, ""};
    if (o.library && kind != "cpu") {
      if (auto lib = device::library_impl_for(task, kind, &t.library_why)) t.library = build_library(task, *lib);
    }
    return t;
  }

  // The library's source built by the device's "library" mode, with its -I folders and -l libraries.
  BuildResult build_library(const Task& task, const LibraryImpl& lib) {
    device::BuildOptions lb;
    lb.build_dir = paths_.build;
    lb.display_name = task.name + ".library" + caps_.source_suffix;
    lb.mode = "library";
    for (const auto& d : lib.include_dirs) lb.flags.push_back("-I" + d);
    for (const auto& l : lib.link) lb.flags.push_back("-l" + l);
    return dev_.build(lib.source, lb);
  }

  std::unique_ptr<CaseSession> open(const fs::path& candidate, const TrustedBuilds& builds,
                                    const std::vector<ConcreteCase>& cases, const EvalOptions& options,
                                    std::vector<std::string>& warnings) override {
    if (builds.library && !builds.library->ok)
      warnings.push_back("the library baseline does not build (" +
                         tail_trimmed(builds.library->error + "\n" + builds.library->log, 600) +
                         "); speedups are against the naive baseline");
    else if (!builds.library && !builds.library_why.empty() && options.library)
      warnings.push_back("library baseline: " + builds.library_why + "; speedups are against the naive baseline");
    return std::make_unique<DeviceSession>(dev_, caps_, paths_, candidate, builds, cases, options);
  }

 private:
  device::Device& dev_;
  const device::Capabilities& caps_;
  EvalPaths paths_;
};

}  // namespace

std::unique_ptr<CaseRunner> make_device_case_runner(device::Device& dev, const device::Capabilities& caps,
                                                    const EvalPaths& paths) {
  return std::make_unique<DeviceCaseRunner>(dev, caps, paths);
}

std::unique_ptr<CaseRunner> make_case_runner(device::Device& dev, const device::Capabilities& caps,
                                             const EvalPaths& paths) {
  // "cpu@host" is a remote CPU: it measures there, through the device.
  if (dev.kind() == "cpu" && dev.name() == "cpu") return make_judge_case_runner(paths);
  return make_device_case_runner(dev, caps, paths);
}

}  // namespace kope::eval
