// The CUDA device. Parsers run everywhere; builds need nvcc (skipped with the reason without it); runs need a
// GPU (skipped with the reason without one: run scripts/gpu-check.sh where a GPU is).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "kope/device/cuda.h"
#include "kope/device/device.h"
#include "kope/device/worker_sandbox.h"
#include "kope/exec/sandbox.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/model/suite.h"
#include "test_support.h"

using namespace kope::exec;

namespace fs = std::filesystem;
using namespace kope;
using namespace kope::device;
using namespace kope::device::cuda;

namespace {

const char* kNvccError = R"(gelu.cu(7): error: identifier "undefined_thing" is undefined
      y[i] = undefined_thing;
             ^

gelu.cu(9): warning #177-D: variable "unused" was declared but never referenced
    int unused;
        ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

1 error detected in the compilation of "/tmp/x/kernel.cu".
)";

DeviceConfig config(const test::TempDir& tmp, std::vector<std::string> env = {}) {
  DeviceConfig c;
  c.work_dir = tmp / "work";
  c.env = std::move(env);
  return c;
}

std::string skip_without_nvcc() {
  return find_nvcc().empty() ? "nvcc not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): CUDA build tests skipped" : "";
}

}  // namespace

TEST(CudaTools, ArchFromNvidiaSmi) {
  EXPECT_EQ(arch_from_compute_cap("9.0\n9.0\n"), "sm_90");
  EXPECT_EQ(arch_from_compute_cap("8.6\n"), "sm_86");
  EXPECT_EQ(arch_from_compute_cap("12.0\n"), "sm_120");
  EXPECT_EQ(arch_from_compute_cap("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"), "");
  EXPECT_EQ(nvcc_release("Cuda compilation tools, release 13.0, V13.0.88\n"), "13.0");
  EXPECT_TRUE(nvcc_supports_native("Cuda compilation tools, release 11.5, V11.5.50"));
  EXPECT_FALSE(nvcc_supports_native("Cuda compilation tools, release 11.4, V11.4.48"));
  EXPECT_FALSE(nvcc_supports_native("garbage"));
}

TEST(CudaTools, ChooseArchOverrideNvidiaSmiAndDefault) {
  EXPECT_EQ(choose_arch({"KOPE_CUDA_ARCH=sm_80"}).flag, "-arch=sm_80");
  test::TempDir tmp;
  // A stand-in nvidia-smi that answers the compute-capability query as the real one does.
  test::write_text(tmp / "bin/nvidia-smi", "#!/bin/sh\n[ \"$1\" = --query-gpu=compute_cap ] && [ \"$2\" = --format=csv,noheader ] "
                                           "&& printf '8.9\\n8.9\\n' && exit 0\nexit 9\n");
  chmod((tmp / "bin/nvidia-smi").c_str(), 0755);
  ArchChoice a = choose_arch({"PATH=" + (tmp / "bin").string() + ":/usr/bin:/bin"});
  EXPECT_EQ(a.flag, "-arch=sm_89");
  EXPECT_EQ(a.source, "nvidia-smi compute_cap");
  ArchChoice d = choose_arch({"PATH=" + (tmp / "empty").string()});
  EXPECT_EQ(d.flag, "-arch=sm_90");
  EXPECT_NE(d.source.find("default"), std::string::npos);
}

TEST(CudaTools, NvccAndHostCompilerDiagnostics) {
  auto d = parse_nvcc_output(kNvccError);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].file, "gelu.cu");
  EXPECT_EQ(d[0].line, 7);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "identifier \"undefined_thing\" is undefined");
  EXPECT_EQ(d[1].severity, "warning");
  auto host = parse_nvcc_output("gelu.cu:12:3: error: 'foo' was not declared in this scope\n");
  ASSERT_EQ(host.size(), 1u);
  EXPECT_EQ(host[0].line, 12);
  EXPECT_EQ(host[0].column, 3);
  auto fatal = parse_nvcc_output("k.cu(2): catastrophic error: cannot open source file \"nope.h\"\n");
  ASSERT_EQ(fatal.size(), 1u);
  EXPECT_EQ(fatal[0].severity, "fatal error");
}

TEST(CudaTools, SanitizerReport) {
  const std::string report = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at oob_kernel(float *, long)+0x70 in /tmp/k/kernel.cu:5
=========     by thread (232,0,0) in block (3,0,0)
=========     Address 0x7f1e2c000fa0 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f1e2c000000 of size 4000 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2f2e9f] in libcuda.so.1
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaStreamSynchronize.
=========
========= ERROR SUMMARY: 2 errors
)";
  auto f = parse_sanitizer_report(report);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_NE(f[0].find("Invalid __global__ write of size 4 bytes"), std::string::npos);
  EXPECT_NE(f[0].find("kernel.cu:5"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("out of bounds"), std::string::npos) << f[0];
  EXPECT_EQ(f[0].find("Host Frame"), std::string::npos) << f[0];
  EXPECT_NE(f[1].find("cudaErrorLaunchFailure"), std::string::npos);
  EXPECT_TRUE(parse_sanitizer_report("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n").empty());
}

TEST(CudaTools, NcuCsvAndGpuQuery) {
  const std::string ncu = "==PROF== Connected to process 4242 (/x/kope-cuda-worker)\n"
                          "==PROF== Profiling \"gelu_kernel\": 0%....50%....100% - 9 passes\n"
                          "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
                          "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                          "\"0\",\"4242\",\"kope-cuda-worker\",\"127.0.0.1\",\"gelu_kernel\",\"1\",\"13\",\"(256, 1, 1)\",\"(4096, 1, 1)\","
                          "\"0\",\"9.0\",\"Command line profiler metrics\",\"dram__bytes_read.sum\",\"Mbyte\",\"4.19\"\n"
                          "\"0\",\"4242\",\"kope-cuda-worker\",\"127.0.0.1\",\"gelu_kernel\",\"1\",\"13\",\"(256, 1, 1)\",\"(4096, 1, 1)\","
                          "\"0\",\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\",\"6,144\"\n";
  auto c = parse_ncu_csv(ncu);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].name, "dram__bytes_read.sum");
  EXPECT_EQ(c[0].unit, "Mbyte");
  EXPECT_DOUBLE_EQ(c[0].value, 4.19);
  EXPECT_DOUBLE_EQ(c[1].value, 6144);
  EXPECT_TRUE(parse_ncu_csv("==PROF== No kernels were profiled.\n").empty());
  auto g = parse_gpu_query("NVIDIA H200, 570.124.06, 143771, 1980, 3201\n");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].name, "NVIDIA H200");
  EXPECT_EQ(g[0].memory_mib, 143771u);
  EXPECT_DOUBLE_EQ(g[0].memory_clock_mhz, 3201);
}

TEST(CudaBuild, SyntaxErrorGivesParsedDiagnosticsWithTheUsersLine) {
  if (auto why = skip_without_nvcc(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  test::TempDir tmp;
  auto dev = make_device("cuda", config(tmp, {"KOPE_CUDA_ARCH=sm_90"}));
  BuildOptions o;
  o.display_name = "my_kernel.cu";
  BuildResult b = dev->build("#include \"kope_cuda.h\"\n__global__ void k(float* y) {\n  y[0] = undefined_thing;\n}\n"
                             "extern \"C\" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { return 0; }\n", o);
  ASSERT_FALSE(b.ok);
  ASSERT_FALSE(b.diagnostics.empty()) << b.log;
  EXPECT_EQ(b.diagnostics[0].file, "my_kernel.cu");
  EXPECT_EQ(b.diagnostics[0].line, 3);
  EXPECT_EQ(b.diagnostics[0].severity, "error");
  EXPECT_NE(b.diagnostics[0].message.find("undefined_thing"), std::string::npos);
  EXPECT_NE(b.error.find("my_kernel.cu:3"), std::string::npos) << b.error;
  EXPECT_NE(std::find(b.command.begin(), b.command.end(), "-arch=sm_90"), b.command.end());
}

TEST(CudaBuild, WorkerBuildsWithNvccWhereCMakeDidNotAndProbes) {
  if (auto why = skip_without_nvcc(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  test::TempDir tmp;
  DeviceConfig c = config(tmp);
  std::string error;
  fs::path w = build_worker(find_nvcc(), include_dir_for(c), tmp / "work", &error);
  ASSERT_FALSE(w.empty()) << error;
  ProcessLimits lim;
  lim.wall_seconds = 60;
  ProcessResult r = run_process({w.string(), "--probe"}, lim);
  ASSERT_TRUE(r.started);
  if (r.exit_code == 12) {
    EXPECT_NE(r.out.find("\"count\": 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cudaError"), std::string::npos) << r.out;  // why there is no GPU
  } else {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"peak_bandwidth_gbps\""), std::string::npos) << r.out;
  }
  EXPECT_EQ(build_worker(find_nvcc(), include_dir_for(c), tmp / "work", &error), w);  // built once
}

// The ATen CUDA library baseline (issue 18) builds only against a CUDA-enabled libtorch named by
// KOPE_LIBTORCH_CUDA; without one the build says so, and the evaluation's report carries that as its warning.
TEST(CudaBuild, LibraryModeSaysWhereAtenCudaIsMissing) {
  test::TempDir tmp;
  const Task t = resolve_task("gelu", Suite::embedded());
  std::string why;
  auto lib = library_impl_for(t, "cuda", &why);
  ASSERT_TRUE(lib) << why;
  EXPECT_NE(lib->source.find("at::kCUDA"), std::string::npos);
  EXPECT_NE(lib->source.find("extern \"C\" int kope_cuda_kernel"), std::string::npos);
  BuildOptions o;
  o.mode = "library";
  DeviceConfig c = config(tmp);
  c.env.push_back("KOPE_LIBTORCH_CUDA=");
  BuildResult b = make_device("cuda", c)->build(lib->source, o);
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.error.rfind("ATen CUDA not found (set KOPE_LIBTORCH_CUDA", 0), 0u) << b.error;
  c.env.back() = "KOPE_LIBTORCH_CUDA=" + tmp.path().string();
  b = make_device("cuda", c)->build(lib->source, o);
  EXPECT_NE(b.error.find("has no " + (tmp / "include/ATen/ATen.h").string()), std::string::npos) << b.error;
  const auto flags = aten_cuda_flags("/opt/libtorch", {"-ltorch_cuda"});
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-I/opt/libtorch/include"), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-rpath=/opt/libtorch/lib"), flags.end());
  EXPECT_EQ(flags.back(), "-ltorch_cuda");
}

// The shipped ATen CUDA sources compile (not link: the libtorch here is CPU-only) against the c10/cuda headers
// Debian ships, given the one header its CMake generates (c10/cuda/impl/cuda_cmake_macros.h); one task here, since
// each takes nvcc most of a minute; scripts/gpu-check.sh builds and runs them all where KOPE_LIBTORCH_CUDA is set.
TEST(CudaBuild, AnAtenCudaLibrarySourceCompilesAgainstTheHeadersHere) {
  if (auto why = skip_without_nvcc(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  // libtorch-dev (the CPU library baseline's) ships these headers; their absence is a missing package, a failure.
  ASSERT_TRUE(fs::exists("/usr/include/c10/cuda/CUDAStream.h")) << "libtorch-dev's c10/cuda headers";
  test::TempDir tmp;
  test::write_text(tmp / "stub/c10/cuda/impl/cuda_cmake_macros.h", "#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n");
  std::string why;
  auto lib = library_impl_for(resolve_task("softmax", Suite::embedded()), "cuda", &why);
  ASSERT_TRUE(lib) << why;
  test::write_text(tmp / "softmax.cu", lib->source);
  DeviceConfig c = config(tmp);
  ProcessLimits lim;
  lim.wall_seconds = 600;
  ProcessResult r = run_process({find_nvcc().string(), "-std=c++17", "-c", "-I" + include_dir_for(c).string(),
                                 "-I" + (tmp / "stub").string(), (tmp / "softmax.cu").string(), "-o",
                                 (tmp / "softmax.o").string()}, lim);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << tail_text(r.err, 3000);
}

// The CUDA worker's sandbox: only the GPU's nodes, the folders the environment names, the job folder writable.
TEST(CudaSandbox, WorkerSpecNamesTheGpuNodesAndToolkitFolders) {
  test::TempDir tmp;
  for (const char* f : {"nodes/nvidia0", "nodes/nvidia1", "nodes/nvidiactl", "nodes/nvidia-uvm", "nodes/davinci0",
                        "cuda/bin/nvcc", "job/x"})
    test::write_text(tmp / f, "");
  const std::string n = (tmp / "nodes").string();
  EXPECT_EQ(device_nodes({n + "/nvidia*", n + "/nvidiactl", n + "/absent"}),
            (std::vector<fs::path>{tmp / "nodes/nvidia-uvm", tmp / "nodes/nvidia0", tmp / "nodes/nvidia1",
                                   tmp / "nodes/nvidiactl"}));
  WorkerSandbox w;
  w.argv = {(tmp / "cuda/bin/nvcc").string(), "--probe"};
  w.job_dir = tmp / "job";
  w.ro = {tmp / "cuda/bin", tmp / "missing"};
  w.dev_patterns = {n + "/nvidia*"};
  w.env = worker_env({"PATH=" + (tmp / "cuda/bin").string() + ":/usr/bin", "CUDA_HOME=" + (tmp / "cuda").string(),
                      "SECRET_TOKEN=" + (tmp / "nodes").string()},
                     tmp / "job");
  SandboxSpec s = worker_sandbox_spec(w);
  EXPECT_EQ(s.argv, w.argv);
  EXPECT_FALSE(s.network);
  EXPECT_EQ(s.rw_paths, std::vector<fs::path>{tmp / "job"});
  EXPECT_EQ(s.cwd, tmp / "job");
  EXPECT_EQ(s.ro_paths, (std::vector<fs::path>{tmp / "cuda", tmp / "cuda/bin"}));  // not /usr/bin, not a stray value
  EXPECT_EQ(s.dev_paths.size(), 4u);  // nvidia0, nvidia1, nvidiactl, nvidia-uvm
  EXPECT_EQ(std::count(s.env.begin(), s.env.end(), "HOME=" + (tmp / "job").string()), 1);
  EXPECT_EQ(std::count(s.env.begin(), s.env.end(), "LC_ALL=C"), 1);
}

// The probe runs the worker through sandbox_spawn: it starts there and says what it found (no GPU here: why).
TEST(CudaSandbox, ProbeStartsTheWorkerConfined) {
  if (auto why = skip_without_nvcc(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  test::TempDir tmp;
  DeviceConfig c = config(tmp);
  std::string error;
  fs::path w = build_worker(find_nvcc(), include_dir_for(c), tmp / "work", &error);
  ASSERT_FALSE(w.empty()) << error;
  WorkerSandbox ws;
  ws.argv = {w.string(), "--probe"};
  ws.job_dir = tmp / "job";
  fs::create_directories(ws.job_dir);
  ws.ro = {w.parent_path()};
  ws.dev_patterns = cuda_device_patterns();
  ws.env = worker_env({}, ws.job_dir);
  ProcessResult r = run_sandboxed(worker_sandbox_spec(ws), 60);
  ASSERT_TRUE(r.started) << r.error;
  if (r.exit_code == 12) {
    EXPECT_NE(r.out.find("\"count\": 0"), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.out.find("cudaError"), std::string::npos) << r.out;
  } else {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"peak_bandwidth_gbps\""), std::string::npos) << r.out;
  }
  // Through the device: the same probe decides availability, with the worker's own reason.
  auto dev = make_device("cuda", c);
  Availability a = dev->availability();
  if (r.exit_code == 12) EXPECT_NE(a.reason.find("cudaError"), std::string::npos) << a.reason;
}

// ---- on a GPU ----------------------------------------------------------------------------------------------

namespace {

struct Gpu {
  test::TempDir tmp;
  std::unique_ptr<Device> dev = make_device("cuda", config(tmp));
  std::string skip_reason() {
    if (auto why = skip_without_nvcc(); !why.empty()) return why;
    Capabilities c = dev->capabilities();
    if (!c.can_run) return "no GPU here (" + dev->availability().reason + "): GPU tests skipped; run scripts/gpu-check.sh on a GPU host";
    return "";
  }
  BuildResult build(const std::string& src, const std::string& name) {
    BuildOptions o;
    o.display_name = name;
    BuildResult b = dev->build(src, o);
    EXPECT_TRUE(b.ok) << b.error << "\n" << b.log;
    return b;
  }
};

ConcreteCase gelu_case(int64_t n) {
  Task t = resolve_task("gelu", Suite::embedded());
  Case c = t.cases[0];
  c.dims["N"] = n;
  return resolve_case(t, c);
}

MeasureRequest gelu_request(int64_t n, const fs::path& cand, const fs::path& base, const fs::path& scratch) {
  MeasureRequest q;
  q.kcase = gelu_case(n);
  std::string x(static_cast<std::size_t>(n) * 4, '\0');
  for (int64_t i = 0; i < n; ++i) {
    float v = -6.0f + 12.0f * static_cast<float>(i) / static_cast<float>(n);
    std::memcpy(&x[static_cast<std::size_t>(i) * 4], &v, 4);
  }
  q.inputs = {x};
  q.candidate = cand;
  q.baseline = base;
  q.scratch = scratch;
  q.warmup = 2;
  q.reps = 5;
  return q;
}

const char* kOutOfBounds = R"(#include "kope_cuda.h"
__global__ void oob(float* y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i + (int64_t(1) << 34)] = 1.0f;
}
extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  int64_t n = a->outputs[0].numel;
  oob<<<(n + 255) / 256, 256, 0, s>>>((float*)a->outputs[0].data, n);
  return (int)cudaGetLastError();
}
)";

}  // namespace

TEST(CudaGpu, GeluBaselineRunsCopiesBackAndTimesInterleaved) {
  Gpu g;
  if (auto why = g.skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  BuildResult b = g.build(baseline_source(resolve_task("gelu", Suite::embedded()), "cuda"), "gelu.cu");
  MeasureRequest q = gelu_request(1 << 20, b.artifact, b.artifact, g.tmp / "job");
  MeasureResult m = g.dev->measure(q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  ASSERT_EQ(m.first_outputs.size(), 1u);
  const float* x = reinterpret_cast<const float*>(q.inputs[0].data());
  const float* y = reinterpret_cast<const float*>(m.first_outputs[0].data());
  double worst = 0;
  for (int64_t i = 0; i < (1 << 20); ++i) {
    double want = x[i] * 0.5 * (1.0 + std::erf(x[i] / std::sqrt(2.0)));
    worst = std::max(worst, std::fabs(y[i] - want) / (std::fabs(want) + 1e-7));
  }
  EXPECT_LT(worst, 1e-3);
  EXPECT_EQ(m.candidate_ns.size(), 5u);
  EXPECT_EQ(m.baseline_ns.size(), 5u);
  EXPECT_EQ(m.order.size(), 10u);
  for (double ns : m.candidate_ns) EXPECT_GT(ns, 0);
  EXPECT_EQ(m.timer, "cudaEvent");
  Fingerprint f = g.dev->fingerprint();
  EXPECT_FALSE(f.model.empty());
  EXPECT_GT(f.peak_bandwidth_gbps, 100);
  ASSERT_TRUE(g.dev->floor_ns(q.kcase).has_value());
  std::printf("[gpu] %s, %s: gelu 1M median-ish %.0f ns, floor %.0f ns, peak %.0f GB/s\n", f.model.c_str(),
              f.toolkit_version.c_str(), m.candidate_ns[2], *g.dev->floor_ns(q.kcase), f.peak_bandwidth_gbps);
}

TEST(CudaGpu, IllegalAddressIsAnOutcome) {
  Gpu g;
  if (auto why = g.skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  BuildResult bad = g.build(kOutOfBounds, "oob.cu");
  MeasureResult m = g.dev->measure(gelu_request(4096, bad.artifact, "", g.tmp / "job"));
  EXPECT_EQ(m.outcome, Outcome::IllegalAddress) << m.message << "\n" << m.log;
  EXPECT_NE(m.message.find("cudaErrorIllegalAddress"), std::string::npos) << m.message;
}

TEST(CudaGpu, KernelErrorAndMissingEntryAreOutcomes) {
  Gpu g;
  if (auto why = g.skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  BuildResult rc = g.build("#include \"kope_cuda.h\"\nextern \"C\" int kope_cuda_kernel(const kope_args*, cudaStream_t) { return -5; }\n", "rc.cu");
  EXPECT_EQ(g.dev->measure(gelu_request(16, rc.artifact, "", g.tmp / "j1")).outcome, Outcome::KernelError);
  BuildResult none = g.build("#include \"kope_cuda.h\"\nextern \"C\" int other(void) { return 0; }\n", "none.cu");
  EXPECT_EQ(g.dev->measure(gelu_request(16, none.artifact, "", g.tmp / "j2")).outcome, Outcome::LoadError);
}

TEST(CudaGpu, SanitizerFindsAnOffByOneWrite) {
  Gpu g;
  if (auto why = g.skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  if (!g.dev->capabilities().sanitizer) KOPE_SKIP_WITHOUT_HARDWARE("compute-sanitizer, of the CUDA toolkit, is not installed");
  BuildResult b = g.build(R"(#include "kope_cuda.h"
__global__ void k(const float* x, float* y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i <= n) y[i] = x[i < n ? i : 0];
}
extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  int64_t n = a->outputs[0].numel;
  k<<<(n + 256) / 256, 256, 0, s>>>((const float*)a->inputs[0].data, (float*)a->outputs[0].data, n);
  return (int)cudaGetLastError();
}
)", "off_by_one.cu");
  MeasureRequest q = gelu_request(1000, b.artifact, "", g.tmp / "job");
  q.sanitize = true;
  MeasureResult m = g.dev->measure(q);
  EXPECT_EQ(m.outcome, Outcome::IllegalAddress) << m.message;
  ASSERT_FALSE(m.findings.empty()) << m.log;
  EXPECT_NE(m.findings[0].find("Invalid __global__ write"), std::string::npos) << m.findings[0];
}

TEST(CudaGpu, NcuProfileWhenInstalled) {
  Gpu g;
  if (auto why = g.skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  if (!g.dev->capabilities().profiler) KOPE_SKIP_WITHOUT_HARDWARE("Nsight Compute (ncu), of the CUDA toolkit, is not installed");
  BuildResult b = g.build(baseline_source(resolve_task("gelu", Suite::embedded()), "cuda"), "gelu.cu");
  ProfileResult p = g.dev->profile(gelu_request(1 << 20, b.artifact, "", g.tmp / "job"));
  if (!p.available && p.log.find("ERR_NVGPUCTRPERM") != std::string::npos)
    KOPE_SKIP_WITHOUT_HARDWARE("ncu may not read this GPU's counters (ERR_NVGPUCTRPERM)");
  ASSERT_TRUE(p.available) << p.reason;
  bool has_time = false;
  for (const auto& c : p.counters) has_time |= c.name == "gpu__time_duration.sum";
  EXPECT_TRUE(has_time);
}

// The worker's library path (issue 18) on a GPU: any kope_cuda_kernel object serves as the third artifact, so the
// naive baseline stands in for ATen here; its outputs come back in lib<k>.bin and its calls take turns with the
// other two.
TEST(CudaGpu, ALibraryArtifactIsCheckedAndTimedInTurnWithTheOthers) {
  Gpu g;
  if (auto why = g.skip_reason(); !why.empty()) KOPE_SKIP_WITHOUT_HARDWARE(why);
  BuildResult b = g.build(baseline_source(resolve_task("gelu", Suite::embedded()), "cuda"), "gelu.cu");
  MeasureRequest q = gelu_request(1 << 16, b.artifact, b.artifact, g.tmp / "job");
  q.library = b.artifact;
  MeasureResult m = g.dev->measure(q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  EXPECT_EQ(m.library_message, "");
  ASSERT_EQ(m.library_outputs.size(), 1u);
  EXPECT_EQ(m.library_outputs[0], m.first_outputs[0]);
  EXPECT_EQ(m.library_ns.size(), 5u);
  EXPECT_EQ(m.order.size(), 15u);
  EXPECT_NE(std::string(m.order.begin(), m.order.begin() + 3), std::string(m.order.begin() + 3, m.order.begin() + 6))
      << "the first call rotates";
}
