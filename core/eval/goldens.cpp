#include "kope/eval/goldens.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <cstring>
#include <future>
#include <random>
#include <thread>

#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"
#include "kope/eval/library.h"
#include "kope/exec/compiler.h"
#include "kope/exec/runner.h"
#include "kope/exec/sandbox.h"

using namespace kope::exec;

namespace kope::eval {

namespace fs = std::filesystem;

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

}  // namespace

JobDir::JobDir(const fs::path& jobs) : path(make_job_dir(jobs)) {}
JobDir::~JobDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

namespace {

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

}  // namespace

void throw_if_cancelled(const CancelToken* cancel) {
  if (cancel && cancel->cancelled()) throw EvalCancelled();
}

std::string tail_trimmed(const std::string& s, std::size_t n) {
  std::string t = s.size() <= n ? s : "..." + s.substr(s.size() - n);
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t;
}

namespace {

std::vector<double> read_doubles(const fs::path& p, std::size_t numel) {
  std::string bytes = read_file(p, "output");
  if (bytes.size() != numel * sizeof(double))
    throw Error("golden output '" + p.string() + "' has " + std::to_string(bytes.size()) + " bytes, expected " +
                std::to_string(numel * sizeof(double)));
  std::vector<double> v(numel);
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

}  // namespace

fs::path TrustedSide::reference_so(const Task& task, const CancelToken* cancel) {
  CompileOptions opt;
  opt.cancel = cancel;
  opt.flags = {"-O1", "-ffp-contract=off", "-fno-fast-math"};
  opt.defines = {"KOPE_REAL=double"};
  BuildResult r = compile_kernel(task.reference, task.name + ".reference.cpp", paths_.build, paths_.include, opt);
  if (r.cancelled) throw EvalCancelled();
  if (!r.ok) throw Error("task '" + task.origin + "': the reference does not build: " + r.error);
  return r.artifact;
}

fs::path TrustedSide::baseline_so(const Task& task, const CancelToken* cancel) {
  CompileOptions opt;  // the default -O2, as the candidate gets unless it asks for more
  opt.cancel = cancel;
  const bool from_reference = task.baseline.empty();
  BuildResult r = compile_kernel(from_reference ? task.reference : task.baseline,
                                   task.name + (from_reference ? ".reference.cpp" : ".baseline.cpp"), paths_.build,
                                   paths_.include, opt);
  if (r.cancelled) throw EvalCancelled();
  if (!r.ok)
    throw Error("task '" + task.origin + "': " +
                (from_reference ? "the reference does not build as the fp32 baseline: " : "the baseline does not build: ") +
                r.error);
  return r.artifact;
}

namespace {

// The progress of the golden runs (EvalProgress::Phase::Goldens), for a window or a terminal while an L4 reference
// computes for minutes. A run writes case m's folder as it starts it, so the folders that exist say how far each
// run is; they are polled, since a run is one blocking call. Reported from the polling thread.
class GoldenProgress {
 public:
  GoldenProgress(const std::function<void(const EvalProgress&)>& report, const std::vector<ConcreteCase>& cases,
                 const std::vector<std::vector<std::size_t>>& share)
      : report_(report), cases_(cases), share_(share), dirs_(share.size()) {
    for (const auto& s : share) total_ += static_cast<int>(s.size());
    if (report_) poller_ = std::thread([this] { poll(); });
  }
  ~GoldenProgress() { stop(); }
  GoldenProgress(const GoldenProgress&) = delete;
  GoldenProgress& operator=(const GoldenProgress&) = delete;

  void started(std::size_t run, const fs::path& dir) {
    std::lock_guard<std::mutex> lock(mu_);
    dirs_[run] = dir;
  }
  // Every golden is stored: the last word, then the poller ends.
  void finish() {
    stop();
    if (report_) report_({EvalProgress::Phase::Goldens, total_, total_, std::string(), nullptr});
  }

 private:
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (poller_.joinable()) poller_.join();
  }
  void poll() {
    int last = -1;
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      int finished = 0;
      std::string current;
      for (std::size_t r = 0; r < share_.size(); ++r) {
        if (dirs_[r].empty()) continue;
        std::size_t m = 0;
        std::error_code ec;
        while (m < share_[r].size() && fs::exists(dirs_[r] / std::to_string(m), ec)) ++m;
        if (m == 0) continue;
        finished += static_cast<int>(m) - 1;  // the last folder's case is under way
        current = cases_[share_[r][m - 1]].name;
      }
      if (finished != last) {
        last = finished;
        lock.unlock();
        report_({EvalProgress::Phase::Goldens, finished, total_, current, nullptr});
        lock.lock();
      }
      cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; });
    }
  }

  const std::function<void(const EvalProgress&)>& report_;
  const std::vector<ConcreteCase>& cases_;
  const std::vector<std::vector<std::size_t>>& share_;
  std::vector<fs::path> dirs_;
  int total_ = 0;
  bool done_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread poller_;
};

}  // namespace

std::vector<fs::path> TrustedSide::golden_dirs(const Task& task, const std::vector<ConcreteCase>& cases,
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
  GoldenProgress watch(options.progress, cases, share);
  auto golden_run = [&](std::size_t r) {
    const std::vector<std::size_t>& mine = share[r];
    JobDir job_dir(paths_.jobs);
    watch.started(r, job_dir.path);
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
                  "the reference run failed (" + pr.describe() + "): " + tail_trimmed(pr.err, 2000));
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
  for (std::size_t r = 1; r < runs; ++r) others.push_back(std::async(std::launch::async, golden_run, r));
  golden_run(0);
  for (auto& f : others) f.get();
  watch.finish();
  return dirs;
}

fs::path TrustedSide::baseline_beside_goldens(const Task& task, const std::vector<ConcreteCase>& cases,
                                       const EvalOptions& options) {
  auto base = std::async(std::launch::async, [&] { return baseline_so(task, options.cancel.get()); });
  golden_dirs(task, cases, options);
  return base.get();
}

std::vector<std::shared_ptr<const Golden>> TrustedSide::goldens(const Task& task,
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

BuildResult TrustedSide::library_build(const Task& task, const LibraryImpl& lib) {
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
  BuildResult r;
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

}  // namespace kope::eval
