// The shipped CUDA kernels (resources/kernels/<task>/cuda/) and naive CUDA baselines (resources/baselines/cuda/):
// every task has a correct 01_* and a plausible-but-wrong 02_* (issue 18); each of them and each baseline builds
// with nvcc through the CUDA device's own build route (skipped with the reason where nvcc is missing); on a GPU,
// through the real evaluator, every 01_* passes every case and every 02_* is caught (skipped with the reason
// where there is no GPU: run scripts/gpu-check.sh on a GPU host).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "kope/device/cuda.h"
#include "kope/device/device.h"
#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace kope;
using namespace kope::device;
using namespace kope::eval;
using namespace kope::exec;

namespace {

struct Source {
  std::string name;  // task/file, as embedded_candidates and the baseline table name them
  std::string text;
};

const CandidateSource* shipped(const std::vector<CandidateSource>& list, const std::string& task, const char* prefix) {
  for (const auto& c : list)
    if (c.name.rfind(task + "/" + prefix, 0) == 0) return &c;
  return nullptr;
}

// The tasks that do not ship CUDA kernels yet, and why: the test checks that each is still missing (a task that
// gains its kernels leaves this list) and that every other task of the 53 ships them.
const std::map<std::string, std::string> kNotYet = {};

// Every task of the suite that ships CUDA kernels.
std::vector<Task> cuda_tasks() {
  std::vector<Task> keep;
  const Suite all = Suite::embedded();
  for (const Task& t : all.tasks())
    if (!kNotYet.count(t.name)) keep.push_back(t);
  return keep;
}

// The 01_* (prefix "01_") or 02_* kernels of every task, or every task's CUDA baseline (prefix empty).
std::vector<Source> sources(const char* prefix) {
  std::vector<Source> out;
  const std::vector<Task> tasks = cuda_tasks();
  for (const Task& t : tasks) {
    if (*prefix == 0) {
      out.push_back({t.name + "/baseline.cu", baseline_source(t, "cuda")});
      continue;
    }
    const auto list = embedded_candidates(t.name, "cuda");
    if (const CandidateSource* c = shipped(list, t.name, prefix)) out.push_back({c->name, c->source});
    else out.push_back({t.name + "/" + prefix + "*.cu", ""});  // missing: reported as a failure to build
  }
  return out;
}

std::string nvcc_skip_reason() {
  return cuda::find_nvcc().empty()
             ? "nvcc not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): CUDA build tests skipped"
             : "";
}

// Builds every source through Device::build, a few at a time (each nvcc takes seconds), one device per worker
// thread, and returns one message per source that did not build: its name, the error and the compiler's log.
std::vector<std::string> build_all(const std::vector<Source>& list) {
  test::TempDir tmp;
  const char* arch = std::getenv("KOPE_CUDA_ARCH");
  const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
  std::vector<std::unique_ptr<Device>> devices;
  for (unsigned w = 0; w < workers; ++w) {
    DeviceConfig c;
    c.work_dir = tmp / ("work" + std::to_string(w));  // each its own build folder and header copy
    c.env = {"KOPE_CUDA_ARCH=" + std::string(arch ? arch : "sm_90")};
    devices.push_back(make_device("cuda", c));
  }
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::vector<std::string> failures;
  auto work = [&](Device& dev) {
    for (std::size_t i = next++; i < list.size(); i = next++) {
      const Source& s = list[i];
      std::string why;
      if (s.text.empty()) {
        why = "not shipped";
      } else {
        BuildOptions o;
        o.display_name = s.name;
        const BuildResult b = dev.build(s.text, o);
        if (!b.ok) why = b.error + "\n" + b.log;
        else if (!fs::exists(b.artifact)) why = "built, but no " + b.artifact.string();
      }
      if (!why.empty()) {
        std::lock_guard<std::mutex> lock(mu);
        failures.push_back(s.name + ": " + why);
      }
    }
  };
  std::vector<std::thread> threads;
  for (auto& d : devices) threads.emplace_back(work, std::ref(*d));
  for (auto& t : threads) t.join();
  std::sort(failures.begin(), failures.end());
  return failures;
}

void expect_all_build(const char* prefix, std::size_t expected) {
  if (auto why = nvcc_skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  const std::vector<Source> list = sources(prefix);
  EXPECT_EQ(list.size(), expected);
  for (const std::string& f : build_all(list)) ADD_FAILURE() << f;
}

}  // namespace

// Runs everywhere: the files themselves.
TEST(CudaKernels, EveryTaskShipsACorrectAndAWrongKernelAndABaseline) {
  const std::vector<Task> tasks = cuda_tasks();
  EXPECT_EQ(tasks.size() + kNotYet.size(), Suite::embedded().tasks().size());
  for (const auto& [name, why] : kNotYet)
    EXPECT_TRUE(embedded_candidates(name, "cuda").empty()) << name << " ships CUDA kernels now: take it off kNotYet";
  for (const Task& t : tasks) {
    SCOPED_TRACE(t.name);
    const auto list = embedded_candidates(t.name, "cuda");
    const CandidateSource* good = shipped(list, t.name, "01_");
    const CandidateSource* bad = shipped(list, t.name, "02_");
    if (!good || !bad) {  // the others are still checked
      ADD_FAILURE() << t.name << " lacks a 01_*.cu or a 02_*.cu in resources/kernels/" << t.name << "/cuda/";
      continue;
    }
    for (const CandidateSource* c : {good, bad}) {
      EXPECT_EQ(c->name.substr(c->name.size() - 3), ".cu") << c->name;
      EXPECT_FALSE(c->thought.empty()) << c->name << " has no // thought: line";
      EXPECT_NE(c->source.find("kope_cuda_kernel"), std::string::npos) << c->name;
    }
    // The wrong one says what is wrong, for engineers and tests; the correct one has nothing to confess.
    EXPECT_NE(bad->source.find("// flaw: "), std::string::npos) << bad->name;
    EXPECT_EQ(good->source.find("// flaw:"), std::string::npos) << good->name;
    EXPECT_FALSE(baseline_source(t, "cuda").empty()) << "no resources/baselines/cuda/" << t.name << ".cu";
    // The CPU's candidates are not offered for CUDA, nor CUDA's for the CPU.
    for (const auto& c : embedded_candidates(t.name, "cpu"))
      EXPECT_NE(c.name.substr(c.name.size() - 3), ".cu") << c.name;
  }
}

TEST(CudaKernelsBuild, EveryCorrectKernelBuilds) { expect_all_build("01_", cuda_tasks().size()); }
TEST(CudaKernelsBuild, EveryWrongKernelBuilds) { expect_all_build("02_", cuda_tasks().size()); }
TEST(CudaKernelsBuild, EveryBaselineBuilds) { expect_all_build("", cuda_tasks().size()); }

// ---- on a GPU ----------------------------------------------------------------------------------------------

namespace {

// One task on the GPU: its 01_* on every case, its 02_* case by case until one catches it; one [gpu] line.
void judge_on_gpu(Evaluator& ev, const Task& t, const EvalOptions& o) {
  const auto list = embedded_candidates(t.name, "cuda");
  const CandidateSource* good = shipped(list, t.name, "01_");
  const CandidateSource* bad = shipped(list, t.name, "02_");
  ASSERT_TRUE(good && bad);
  const EvalReport g = ev.evaluate(t, good->source, good->name, o);
  std::string why;
  for (const std::string& e : g.errors) why += "\n  " + e;
  EXPECT_TRUE(g.correct()) << good->name << ": " << g.status() << why << "\n" << g.compile.log;
  // Most flaws show in the first few cases, so this saves device time.
  std::string caught, bad_status = "accepted";
  for (const Case& c : t.cases) {
    EvalOptions one = o;
    one.cases = {c.name};
    const EvalReport b = ev.evaluate(t, bad->source, bad->name, one);
    ASSERT_TRUE(b.compiled) << bad->name << ": " << b.compile.error << "\n" << b.compile.log;
    if (!b.correct()) {
      caught = c.name;
      bad_status = b.status();
      break;
    }
  }
  EXPECT_FALSE(caught.empty()) << bad->name << " passed every case";
  std::printf("[gpu] %-24s 01 %s, speedup vs naive %.2fx over %zu cases; 02 %s on case %s\n", t.name.c_str(),
              g.status().c_str(), g.speedup().value_or(0.0), g.cases.size(), bad_status.c_str(),
              caught.empty() ? "-" : caught.c_str());
}

}  // namespace

// Through the real evaluator on the CUDA device: goldens and checks here, the kernel and the naive baseline
// there. The correct one on every case (the multi-tile and multi-block paths run only in the large ones), the
// wrong one until a case catches it.
TEST(CudaKernelsGpu, CorrectOnesPassAndWrongOnesAreCaught) {
  if (auto why = nvcc_skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  test::TempDir tmp;
  {
    DeviceConfig c;
    c.work_dir = tmp / "probe";
    auto dev = make_device("cuda", c);
    if (!dev->capabilities().can_run)
      KOPE_SKIP_WITHOUT_HARDWARE("no GPU here (" + dev->availability().reason +
                                 "): the shipped CUDA kernels are only built; run scripts/gpu-check.sh on a GPU host");
  }
  Evaluator ev{EvalPaths::under(tmp / "eval")};
  EvalOptions o;
  o.device = "cuda";
  o.warmup = 0;
  o.reps = 1;
  o.library = false;
  o.case_timeout_seconds = 120;
  const std::vector<Task> tasks = cuda_tasks();
  for (const Task& t : tasks) {
    SCOPED_TRACE(t.name);
    // One task's environment error (a worker that cannot start, a baseline that does not build) is that task's
    // failure: the others still run, so one GPU session reports on all of them.
    try {
      judge_on_gpu(ev, t, o);
    } catch (const std::exception& e) {
      ADD_FAILURE() << t.name << ": the evaluation failed: " << e.what();
    }
  }
}
