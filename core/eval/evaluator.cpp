#include "kope/eval/evaluator.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <future>
#include <random>
#include <sstream>
#include <thread>

#include "kope/device/device.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/model/inputs.h"
#include "kope/exec/judge.h"
#include "kope/eval/library.h"
#include "kope/exec/sandbox.h"
#include "kope/base/process.h"
#include "kope/exec/runner.h"
#include "kope/base/sha256.h"
#include "kope/model/stats.h"

namespace kope {

namespace fs = std::filesystem;
using nlohmann::json;


struct Evaluator::DeviceEntry {
  std::unique_ptr<device::Device> dev;
  bool local_cpu = false;  // the judge's own workers measure; everything else goes through Device::measure
  device::Availability availability;
  device::Capabilities caps;
  json fingerprint;
};

Evaluator::Evaluator(EvalPaths paths) : paths_(std::move(paths)) {}
Evaluator::~Evaluator() = default;

Evaluator::DeviceEntry& Evaluator::device_for(const std::string& spec) {
  if (auto it = devices_.find(spec); it != devices_.end()) return *it->second;
  device::DeviceConfig cfg;
  cfg.work_dir = paths_.build.parent_path();
  cfg.runner = paths_.runner;
  auto e = std::make_unique<DeviceEntry>();
  e->dev = device::make_device(spec, cfg);  // kope::Error for a malformed spec or an unknown kind
  if (e->dev->kind() == "cpu") {
    // The CPU device builds against the workspace's header, as compile_kernel always did (same cache keys).
    cfg.include_dir = paths_.include;
    e->dev = device::make_device(spec, cfg);
  }
  e->local_cpu = e->dev->kind() == "cpu" && e->dev->name() == "cpu";
  e->availability = e->dev->availability();
  if (e->availability.available) {
    e->caps = e->dev->capabilities();
    e->fingerprint = device::to_json(e->dev->fingerprint());
  }
  return *devices_.emplace(spec, std::move(e)).first->second;
}

namespace {

fs::path make_job_dir(const fs::path& jobs) {
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  std::error_code ec;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path d = jobs / ("job-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" +
                         std::to_string(rd() % 100000));
    if (fs::create_directory(d, ec)) return d;
  }
  throw EnvError("cannot create a job folder under '" + jobs.string() + "': " + ec.message());
}

struct JobDir {
  fs::path path;
  explicit JobDir(const fs::path& jobs) : path(make_job_dir(jobs)) {}
  ~JobDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The golden run: kope's own fp64 reference build, still confined (a task file is input too), seeing only the
// runner, the reference and its job folder, where it leaves the golden arrays.
SandboxRun run_job(const EvalPaths& paths, const RunnerJob& job, const fs::path& dir, const EvalOptions& opt) {
  const fs::path job_file = dir / "job.json";
  write_file_atomic(job_file, to_json(job).dump());
  SandboxSpec spec;
  spec.argv = {paths.runner.string(), job_file.string()};
  spec.ro_paths = {paths.runner, job.kernel};
  spec.rw_paths = {dir};
  spec.cwd = dir;
  spec.env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  spec.memory_bytes = opt.memory_bytes;
  spec.max_processes = 64;
  spec.max_file_bytes = uint64_t{8} << 30;
  return sandbox_run(spec, opt.case_timeout_seconds, 64 << 10, opt.cancel.get());
}

// The evaluation was stopped through its cancel token (in a build or a golden run); evaluate() catches it.
struct EvalCancelled : Error {
  EvalCancelled() : Error("cancelled") {}
};

void throw_if_cancelled(const CancelToken* cancel) {
  if (cancel && cancel->cancelled()) throw EvalCancelled();
}

std::string tail(const std::string& s, std::size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::vector<double> read_doubles(const fs::path& p, std::size_t numel) {
  std::string bytes = read_file(p, "output");
  if (bytes.size() != numel * sizeof(double))
    throw Error("golden output '" + p.string() + "' has " + std::to_string(bytes.size()) + " bytes, expected " +
                std::to_string(numel * sizeof(double)));
  std::vector<double> v(numel);
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

std::string describe_check(const OutputCheck& o) {
  std::ostringstream s;
  s.precision(9);
  s << "output " << o.name << ": mean rel err " << o.mean_rel << ", max rel err " << o.max_rel << " (limits "
    << o.threshold << " and " << 10 * o.threshold << "), " << o.mismatches
    << " element(s) out of tolerance; worst at index " << o.worst_index << ": expected " << o.expected << ", got "
    << o.got;
  return s.str();
}

// One case on a device other than the local CPU: the case's seeded inputs (the bytes the fp64 golden saw) go to
// the device, its outputs come back and are checked here against the golden, its times are the device's.
CaseResult measure_on_device(device::Device& dev, const device::Capabilities& caps, const ConcreteCase& c,
                             const std::vector<std::vector<double>>& golden, bool time_it, const fs::path& cand,
                             const fs::path& base, const fs::path& scratch, const EvalOptions& o) {
  CaseResult r;
  r.name = c.name;
  r.network_failure = "not reported by the " + dev.name() + " device";
  device::MeasureRequest q;
  q.kcase = c;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    std::string bytes(static_cast<std::size_t>(c.inputs[i].numel) * dtype_size(c.inputs[i].dtype), '\0');
    generate_tensor(c.inputs[i], c.seed, i, bytes.data());
    q.inputs.push_back(std::move(bytes));
  }
  q.candidate = cand;
  q.baseline = time_it ? base : fs::path();
  q.scratch = scratch;
  q.warmup = time_it ? std::max(0, o.warmup) : 0;
  q.reps = time_it ? std::max(1, o.reps) : 1;
  q.interleave = o.interleave;
  q.flush_bytes = o.flush_bytes;
  q.timeout_seconds = o.case_timeout_seconds;
  q.host_memory_bytes = o.memory_bytes;
  q.sanitize = o.sanitize;
  device::MeasureResult m = dev.measure(q);
  r.log = m.log;
  for (const auto& f : m.findings) r.log += (r.log.empty() ? "" : "\n") + std::string("memory checker: ") + f;
  r.failed_call = m.failed_call;
  using device::Outcome;
  const std::string what = std::string(device::outcome_name(m.outcome));
  switch (m.outcome) {
    case Outcome::Ok: break;
    case Outcome::ToolError:  // not the kernel's fault: the evaluation cannot say anything about it
      throw EnvError("device " + dev.name() + ": case " + c.name + ": " + m.message);
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
  if (m.outcome != Outcome::Ok) {
    r.message = what + ": " + m.message;
    if (!m.findings.empty()) r.message += " (memory checker: " + m.findings.front() + ")";
    return r;
  }
  auto sized = [&](const std::vector<std::string>& outs) {
    if (outs.size() != c.outputs.size()) return false;
    for (std::size_t i = 0; i < outs.size(); ++i)
      if (outs[i].size() != static_cast<std::size_t>(c.outputs[i].numel) * dtype_size(c.outputs[i].dtype)) return false;
    return true;
  };
  if (!sized(m.first_outputs))
    throw EnvError("device " + dev.name() + ": case " + c.name + ": the worker returned outputs of the wrong size");
  for (std::size_t i = 0; i < c.outputs.size(); ++i)
    r.outputs.push_back(check_output(c.outputs[i].name, c.outputs[i].dtype, m.first_outputs[i].data(), golden[i].data(),
                                     static_cast<std::size_t>(c.outputs[i].numel), c.outputs[i].threshold));
  for (const auto& chk : r.outputs)
    if (!chk.ok) {
      r.status = CaseStatus::Wrong;
      r.failed_call = "correctness run";
      r.message = describe_check(chk);
      return r;
    }
  // The timed calls ran on the same inputs: the last one's outputs answer to the same golden.
  if (!m.last_outputs.empty()) {
    if (!sized(m.last_outputs))
      throw EnvError("device " + dev.name() + ": case " + c.name + ": the worker returned outputs of the wrong size");
    for (std::size_t i = 0; i < c.outputs.size(); ++i)
      r.last_outputs.push_back(check_output(c.outputs[i].name, c.outputs[i].dtype, m.last_outputs[i].data(),
                                            golden[i].data(), static_cast<std::size_t>(c.outputs[i].numel),
                                            c.outputs[i].threshold));
    for (const auto& chk : r.last_outputs)
      if (!chk.ok) {
        r.status = CaseStatus::Wrong;
        r.failed_call = "the last timed run";
        r.message = "correct on the correctness run but wrong on the last timed run: " + describe_check(chk);
        return r;
      }
  }
  if (time_it && caps.can_time && !m.candidate_ns.empty() && !m.baseline_ns.empty()) {
    r.kernel_ns = m.candidate_ns;
    r.baseline_ns = m.baseline_ns;
    r.timed = true;
    r.stop_rule = "fixed";
  } else if (time_it && !caps.can_time) {
    r.message = "correct; not timed: " + dev.name() + " is a functional twin without the hardware's clock";
  }
  return r;
}

}  // namespace

fs::path Evaluator::reference_so(const Task& task, const CancelToken* cancel) {
  CompileOptions opt;
  opt.cancel = cancel;
  opt.flags = {"-O1", "-ffp-contract=off", "-fno-fast-math"};
  opt.defines = {"KOPE_REAL=double"};
  CompileResult r = compile_kernel(task.reference, task.name + ".reference.cpp", paths_.build, paths_.include, opt);
  if (r.cancelled) throw EvalCancelled();
  if (!r.ok) throw Error("task '" + task.origin + "': the reference does not build: " + r.error);
  return r.shared_object;
}

fs::path Evaluator::baseline_so(const Task& task, const CancelToken* cancel) {
  CompileOptions opt;  // the default -O2, as the candidate gets unless it asks for more
  opt.cancel = cancel;
  const bool from_reference = task.baseline.empty();
  CompileResult r = compile_kernel(from_reference ? task.reference : task.baseline,
                                   task.name + (from_reference ? ".reference.cpp" : ".baseline.cpp"), paths_.build,
                                   paths_.include, opt);
  if (r.cancelled) throw EvalCancelled();
  if (!r.ok)
    throw Error("task '" + task.origin + "': " +
                (from_reference ? "the reference does not build as the fp32 baseline: " : "the baseline does not build: ") +
                r.error);
  return r.shared_object;
}

std::vector<fs::path> Evaluator::golden_dirs(const Task& task, const std::vector<ConcreteCase>& cases,
                                             const EvalOptions& options) {
  std::vector<fs::path> dirs;
  std::vector<std::size_t> missing;
  std::error_code ec;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    dirs.push_back(paths_.golden / task.digest / cases[k].name);
    if (!fs::exists(dirs.back() / "done", ec)) missing.push_back(k);
  }
  if (missing.empty()) return dirs;
  // The missing cases in sandboxed runs of the reference (one start and one load each), one run per core up to
  // two, the cases dealt out largest first so the runs take about as long; each case into a folder of its own.
  const fs::path ref = reference_so(task, options.cancel.get());
  const std::size_t runs = std::min<std::size_t>(missing.size(), std::thread::hardware_concurrency() > 1 ? 2 : 1);
  std::vector<std::size_t> by_size = missing;
  auto weight = [&](std::size_t k) {
    int64_t n = 0;
    for (const auto* ts : {&cases[k].inputs, &cases[k].outputs})
      for (const ConcreteTensor& t : *ts) n += t.numel;
    return n;
  };
  std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t x, std::size_t y) { return weight(x) > weight(y); });
  std::vector<std::vector<std::size_t>> share(runs);
  std::vector<int64_t> load(runs, 0);
  for (std::size_t k : by_size) {
    const std::size_t r = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    share[r].push_back(k);
    load[r] += weight(k);
  }
  auto golden_run = [&](const std::vector<std::size_t>& mine) {
    JobDir job_dir(paths_.jobs);
    RunnerJob job;
    job.mode = RunnerJob::Mode::Golden;
    job.kernel = ref;
    job.out_dir = job_dir.path;
    job.isolate_network = false;  // the sandbox gives it no network
    for (std::size_t k : mine) job.golden_cases.push_back(cases[k]);
    EvalOptions opt = options;
    opt.case_timeout_seconds = options.case_timeout_seconds * static_cast<double>(mine.size());
    SandboxRun pr = run_job(paths_, job, job_dir.path, opt);
    if (pr.cancelled) throw EvalCancelled();
    std::error_code ec;
    if (!pr.ok()) {
      // Name the case the reference was on when it failed (its folder's phase file is the last one written).
      std::string which;
      for (std::size_t m = mine.size(); m-- > 0;)
        if (fs::exists(job_dir.path / std::to_string(m), ec)) {
          which = cases[mine[m]].name;
          break;
        }
      throw Error("task '" + task.origin + "': " + (which.empty() ? "" : "case '" + which + "': ") +
                  "the reference run failed (" + pr.describe() + "): " + trim(tail(pr.err, 2000)));
    }
    for (std::size_t m = 0; m < mine.size(); ++m) {
      const ConcreteCase& c = cases[mine[m]];
      const fs::path& dir = dirs[mine[m]];
      const fs::path from = job_dir.path / std::to_string(m);
      fs::create_directories(dir, ec);
      for (std::size_t i = 0; i < c.outputs.size(); ++i) {
        fs::rename(golden_output_path(from, i), golden_output_path(dir, i), ec);
        if (ec) throw Error("cannot store golden output in '" + dir.string() + "': " + ec.message());
      }
      write_file_atomic(dir / "done", task.digest + "\n");
    }
  };
  std::vector<std::future<void>> others;
  for (std::size_t r = 1; r < runs; ++r) others.push_back(std::async(std::launch::async, golden_run, share[r]));
  golden_run(share[0]);
  for (auto& f : others) f.get();
  return dirs;
}

namespace {

// The cases `options` selects (all when it names none), resolved; a name the task does not have is bad input.
std::vector<ConcreteCase> selected_cases(const Task& task, const EvalOptions& options) {
  for (const std::string& name : options.cases)
    if (!find_case(task, name)) {
      std::string known;
      for (const Case& c : task.cases) known += (known.empty() ? "" : ", ") + c.name;
      throw Error("task '" + task.name + "' has no case \"" + name + "\" (cases: " + known + ")");
    }
  std::vector<ConcreteCase> cases;
  for (const Case& c : task.cases)
    if (options.cases.empty() || std::find(options.cases.begin(), options.cases.end(), c.name) != options.cases.end())
      cases.push_back(resolve_case(task, c));
  return cases;
}

}  // namespace

fs::path Evaluator::local_trusted_side(const Task& task, const std::vector<ConcreteCase>& cases,
                                       const EvalOptions& options) {
  auto base = std::async(std::launch::async, [&] { return baseline_so(task, options.cancel.get()); });
  golden_dirs(task, cases, options);
  return base.get();
}

void Evaluator::prepare(const std::vector<const Task*>& tasks, const EvalOptions& options) {
  if (tasks.empty()) return;
  try {
    if (!device_for(options.device).local_cpu) return;
  } catch (const std::exception&) {  // a device that cannot be made: each evaluation records why
    return;
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < tasks.size();) {
      const Task& task = *tasks[i];
      try {
        local_trusted_side(task, selected_cases(task, options), options);
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

std::vector<std::shared_ptr<const Evaluator::Golden>> Evaluator::goldens(const Task& task,
                                                                        const std::vector<ConcreteCase>& cases,
                                                                        const EvalOptions& options) {
  const std::vector<fs::path> dirs = golden_dirs(task, cases, options);
  std::vector<std::shared_ptr<const Golden>> out;
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const std::string key = dirs[ci].string();
    if (auto held = golden_cache_.find(key)) {
      out.push_back(std::move(held));
      continue;
    }
    const ConcreteCase& c = cases[ci];
    auto g = std::make_shared<Golden>();
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < c.outputs.size(); ++i) {
      g->push_back(read_doubles(golden_output_path(dirs[ci], i), static_cast<std::size_t>(c.outputs[i].numel)));
      bytes += g->back().size() * sizeof(double);
    }
    out.push_back(g);
    golden_cache_.put(key, std::move(g), bytes);
  }
  return out;
}

CompileResult Evaluator::library_build(const Task& task, const LibraryImpl& lib) {
  std::string key = task.digest + '\0' + sha256_hex(lib.source);
  for (const std::string& dir : lib.include_dirs) {  // installing the library changes the key
    std::error_code ec;
    const auto t = fs::last_write_time(dir, ec);
    key += '\0' + dir + '@' + (ec ? std::string("none") : std::to_string(t.time_since_epoch().count()));
  }
  {
    std::lock_guard<std::mutex> lock(library_mutex_);
    if (auto it = library_failures_.find(key); it != library_failures_.end()) return it->second;
  }
  CompileResult r;
  try {
    r = build_library(task, lib, paths_);
  } catch (const EnvError&) { throw; } catch (const Error& e) {
    r.error = e.what();
  }
  if (!r.ok && !r.cancelled) {
    std::lock_guard<std::mutex> lock(library_mutex_);
    library_failures_[key] = r;
  }
  return r;
}

EvalReport Evaluator::evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                               const EvalOptions& options) {
  EvalReport rep;
  rep.task = task.name;
  rep.task_digest = task.digest;
  rep.kernel_name = kernel_name;
  rep.kernel_sha256 = sha256_hex(source);
  rep.options = options;
  const auto started = std::chrono::steady_clock::now();
  const bool trace = std::getenv("KOPE_TRACE_EVAL") != nullptr;
  auto lap = [&, last = started](const std::string& what) mutable {
    if (!trace) return;
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "kope: %-28s %8.1f ms\n", what.c_str(), std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  };

  const std::vector<ConcreteCase> cases = selected_cases(task, options);

  DeviceEntry& d = device_for(options.device);
  if (!d.availability.available)
    throw EnvError("device " + d.dev->name() + " is not available: " + d.availability.reason);
  rep.device = d.dev->name();
  rep.device_fingerprint = d.fingerprint;
  const int n = static_cast<int>(cases.size());  // progress hooks (interim, for the window's live phases)
  auto progress = [&](EvalProgress::Phase ph, int k, const CaseResult* r) {
    if (options.progress) options.progress({ph, k, n, k < n ? cases[k].name : std::string(), r});
  };
  const CancelToken* cancel = options.cancel.get();
  // Stopped (before or during the compile, a golden run or a case): the cases that finished are kept, the
  // report says cancelled, and nothing about the kernel follows from it.
  auto end_cancelled = [&] {
    rep.cancelled = true;
    rep.errors.push_back("cancelled");
    rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return rep;
  };
  if (cancel && cancel->cancelled()) return end_cancelled();
  progress(EvalProgress::Phase::Compiling, 0, nullptr);

  // The trusted side: the baseline, the goldens (kept in kope's memory for the evaluation; their cache in the
  // workspace is out of every worker's view) and the library baseline. On the local CPU it is prepared on a
  // second thread while the candidate compiles (nothing is timed yet; the first evaluation of a task builds the
  // reference and the baseline and runs the golden reference, the others find them cached).
  struct Prepared {
    fs::path base;
    std::vector<std::shared_ptr<const Golden>> goldens;
    std::optional<CompileResult> library;
  };
  auto prepare = [&]() -> Prepared {
    Prepared p;
    if (d.local_cpu) {
      p.base = local_trusted_side(task, cases, options);  // the baseline built beside the golden runs
    } else {
      // The device's own baseline (the task's baselines[kind], else the shipped one), built there once per task.
      const std::string kind = d.dev->kind();
      std::string src = device::baseline_source(task, kind);
      if (src.empty() && kind == "cpu") src = task.reference;  // the fp32 reference, as on the local CPU
      if (src.empty())
        throw Error("task '" + task.origin + "' has no " + kind + " baseline (a \"baselines\": {\"" + kind +
                    "\": ...} entry in the task, or resources/baselines/" + kind + "/" + task.name + d.caps.source_suffix +
                    ")");
      device::BuildOptions bb;
      bb.build_dir = paths_.build;
      bb.display_name = task.name + ".baseline" + d.caps.source_suffix;
      const device::BuildResult b = d.dev->build(src, bb);
      if (!b.ok) throw Error("task '" + task.origin + "': the " + kind + " baseline does not build on " + d.dev->name() + ": " + b.error);
      p.base = b.artifact;
    }
    throw_if_cancelled(cancel);
    p.goldens = goldens(task, cases, options);
    // The library baseline (issue 11): a third worker, when the task names one for the device.
    if (options.library && d.local_cpu)
      if (const LibraryImpl* lib = library_for(task, rep.device)) p.library = library_build(task, *lib);
    return p;
  };
  std::future<Prepared> preparing;
  if (d.local_cpu) preparing = std::async(std::launch::async, prepare);  // its destructor waits for it

  device::BuildOptions bo;
  bo.build_dir = paths_.build;
  bo.display_name = kernel_name;
  bo.flags = options.cxxflags;
  bo.cancel = cancel;
  if (d.local_cpu) bo.timeout_seconds = CompileOptions{}.timeout_seconds;  // as compile_kernel always had it
  try {
    const device::BuildResult b = d.dev->build(source, bo);
    rep.compile.ok = b.ok;
    rep.compile.cached = b.cached;
    rep.compile.shared_object = b.artifact;
    rep.compile.diagnostics = b.diagnostics;
    rep.compile.log = b.log;
    rep.compile.error = b.error;
    rep.compile.command = b.command;
    rep.compile.seconds = b.seconds;
    rep.compile.isolation = b.isolation;
  } catch (const EnvError&) { throw; } catch (const Error& e) {
    rep.compile.error = e.what();
  }
  if (rep.compile.cancelled || (cancel && cancel->cancelled())) return end_cancelled();
  rep.compiled = rep.compile.ok;
  progress(EvalProgress::Phase::Compiled, 0, nullptr);
  lap("compile");
  if (!rep.compiled) {
    // The trusted side's own failure, if any, is the next evaluation's to report: this one is about the source.
    if (preparing.valid()) try {
        preparing.get();
      } catch (const std::exception&) {
      }
    rep.errors.push_back(rep.compile.error);
    for (const auto& d : rep.compile.diagnostics)
      if (d.severity == "error" || d.severity == "fatal error")
        rep.errors.push_back(d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message);
    rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return rep;
  }
  Prepared prepared;
  try {
    prepared = preparing.valid() ? preparing.get() : prepare();
  } catch (const EvalCancelled&) {
    return end_cancelled();
  }
  const fs::path& base = prepared.base;
  lap("baseline and goldens");
  // The local CPU: the judge's own sandboxed workers. Any other device: Device::measure, checked here.
  std::unique_ptr<Judge> judge;
  if (d.local_cpu) judge = std::make_unique<Judge>(paths_, rep.compile.shared_object, base, cases, options);
  auto run_case = [&](std::size_t ci, bool time_it) {
    if (judge)
      return judge->run_case(cases[ci], *prepared.goldens[ci], time_it,
                             [&] { progress(EvalProgress::Phase::Timing, static_cast<int>(ci), nullptr); });
    JobDir scratch(paths_.jobs);
    return measure_on_device(*d.dev, d.caps, cases[ci], *prepared.goldens[ci], time_it, rep.compile.shared_object,
                             base, scratch.path, options);
  };
  if (judge && prepared.library) {
    const CompileResult& lr = *prepared.library;
    if (lr.ok) judge->add_library(lr.shared_object);
    else
      rep.warnings.push_back("the library baseline does not build (" + trim(tail(lr.error + "\n" + lr.log, 600)) +
                             "); speedups are against the naive baseline");
  }
  lap("judge set-up");
  std::string first_failure;
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const ConcreteCase& c = cases[ci];
    if (cancel && cancel->cancelled()) return end_cancelled();
    progress(EvalProgress::Phase::Testing, static_cast<int>(ci), nullptr);
    CaseResult r = run_case(ci, first_failure.empty());
    lap("case " + c.name);
    if (r.status == CaseStatus::Cancelled) return end_cancelled();
    if (!r.correct()) {
      rep.errors.push_back("case " + r.name + ": " + std::string(case_status_name(r.status)) + ": " + r.message);
      if (first_failure.empty()) first_failure = r.name;
    } else if (!r.timed && !first_failure.empty()) {
      r.message = "correct; not timed, since case " + first_failure + " already failed";
    }
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
      if (const std::optional<double> floor = d.dev->floor_ns(c); floor && *floor > 0) {
        r.hw_bound_ns = *floor;
        r.hap = hardware_aware_position(*r.baseline_median_ns, *r.kernel_median_ns, *r.hw_bound_ns);
        r.hap_vs_naive = hardware_aware_position(*r.naive_median_ns, *r.kernel_median_ns, *r.hw_bound_ns);
      }
    }
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
    rep.cases.push_back(std::move(r));
    progress(EvalProgress::Phase::CaseDone, static_cast<int>(rep.cases.size()) - 1, &rep.cases.back());
  }
  for (const CaseResult& c : rep.cases)
    if (judge && !c.network_isolated) {  // other devices: worker_isolation below says what is known
      rep.warnings.push_back("case " + c.name + ": the runner could not isolate the network (" + c.network_failure +
                             "); the kernel could reach it");
      break;
    }
  if (judge) {
    rep.timed_call_seconds = judge->timed_call_seconds();
    rep.flush_method = judge->flush_method();
    rep.worker_isolation = judge->isolation_summary();
  } else {
    for (const CaseResult& c : rep.cases)
      for (const auto* v : {&c.baseline_ns, &c.kernel_ns})
        for (double ns : *v) rep.timed_call_seconds += ns * 1e-9;
    rep.worker_isolation = "on " + d.dev->name() + ": the device's worker in its sandbox there (no network); not "
                           "reported per run (see README, Devices)";
  }
  rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (trace)
    std::fprintf(stderr, "kope: evaluation %.1f ms, %.1f ms of it in timed calls\n", rep.wall_seconds * 1e3,
                 rep.timed_call_seconds * 1e3);
  return rep;
}

}  // namespace kope
