// kope's Ascend worker, built on the board with the toolkit's compiler (never run on a real board yet):
//   kope-ascend-worker JOB_DIR [both|candidate|baseline]
// Reads JOB_DIR/job.txt and in<i>.bin (the worker contract of core/device/kope/device/worker_protocol.h), copies
// inputs to the NPU, calls kope_ascend_kernel from the candidate (and baseline) shared object, synchronizes,
// copies outputs back to first<k>.bin / last<k>.bin, writes result.json. Timing comes from `msprof op` around
// this program, not from here. Exit codes: 0 ok, 3 kernel returned non-zero, 4 load error, 5 job error,
// 6 inputs modified, 8 other runtime error, 9 device OOM (207001), 10 device exception (5070xx), 11 device
// timeout, 12 no device.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifdef KOPE_ASCEND_TWIN
// The CPU twin (no board): tikicpulib's GmAlloc memory stands in for device memory, and the kernel runs inside
// its ICPU_RUN_KF call; functional results only, no times.
#include "tikicpulib.h"
typedef int aclError;
typedef void* aclrtContext;
typedef void* aclrtStream;
enum aclrtMemcpyKind { ACL_MEMCPY_HOST_TO_DEVICE = 1, ACL_MEMCPY_DEVICE_TO_HOST = 2 };
enum aclrtMemMallocPolicy { ACL_MEM_MALLOC_HUGE_FIRST = 0 };
#define ACL_SUCCESS 0
static aclError aclInit(const char*) { AscendC::SetKernelMode(KernelMode::AIV_MODE); return 0; }
static aclError aclFinalize() { return 0; }
static aclError aclrtSetDevice(int32_t) { return 0; }
static aclError aclrtResetDevice(int32_t) { return 0; }
static aclError aclrtCreateContext(aclrtContext* c, int32_t) { *c = nullptr; return 0; }
static aclError aclrtDestroyContext(aclrtContext) { return 0; }
static aclError aclrtCreateStream(aclrtStream* s) { *s = nullptr; return 0; }
static aclError aclrtDestroyStream(aclrtStream) { return 0; }
static aclError aclrtSynchronizeStream(aclrtStream) { return 0; }
static aclError aclrtMalloc(void** p, size_t n, aclrtMemMallocPolicy) { *p = AscendC::GmAlloc(n); return *p ? 0 : 207001; }
static aclError aclrtFree(void* p) { AscendC::GmFree(p); return 0; }
static aclError aclrtMemcpy(void* d, size_t, const void* s, size_t n, aclrtMemcpyKind) { std::memcpy(d, s, n); return 0; }
static const char* aclGetRecentErrMsg() { return nullptr; }
#else
#include "acl/acl.h"
#endif
#include "kope_ascend.h"

namespace {

struct Tensor {
  std::string name;
  int dtype = 0;
  int64_t numel = 0;
  std::vector<int64_t> shape;
  size_t bytes = 0;
};

struct Job {
  std::string candidate, baseline;
  int warmup = 3, reps = 5, interleave = 1;
  std::vector<Tensor> inputs, outputs;
  std::vector<std::pair<std::string, double>> attrs;
};

std::string g_dir;

size_t dtype_size(int d) {
  switch (d) {
    case KOPE_F64: case KOPE_I64: return 8;
    case KOPE_F16: case KOPE_BF16: return 2;
    case KOPE_U8: case KOPE_I8: return 1;
    default: return 4;
  }
}

void phase(const char* p) {
  std::ofstream(g_dir + "/phase") << p << "\n";
}

[[noreturn]] void fail(int exit_code, const char* call, int code, const char* name, const std::string& msg) {
  std::string m;
  for (char ch : msg) m += (ch == '"' || ch == '\\') ? std::string("\\") + ch : (ch == '\n' ? std::string("\\n") : std::string(1, ch));
  {  // closed before exit(), which unwinds no stack
    std::ofstream out(g_dir + "/result.json");
    out << "{\"timer\": \"msprof op Task Duration\", \"error\": {\"call\": \"" << call << "\", \"code\": " << code
        << ", \"name\": \"" << name << "\", \"message\": \"" << m << "\"}}\n";
  }
  std::fprintf(stderr, "kope-ascend-worker: %s failed during %s: %d %s\n", name, call, code, msg.c_str());
  std::exit(exit_code);
}

int exit_for_acl(int code) {
  switch (code) {
    case 207001: return 9;
    case 507014: case 507034: case 507046: return 11;
    case 507015: case 507016: case 507035: case 507036: return 10;
    default: return 8;
  }
}

void check(aclError e, const char* what, const char* call) {
  if (e == ACL_SUCCESS) return;
  const char* recent = aclGetRecentErrMsg();
  fail(exit_for_acl(e), call, e, what, recent ? recent : "");
}

Job read_job() {
  std::ifstream in(g_dir + "/job.txt");
  if (!in) fail(5, "reading the job", 0, "job.txt", "cannot open " + g_dir + "/job.txt");
  Job j;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "candidate" || key == "baseline") {
      std::string rest;
      std::getline(ls >> std::ws, rest);
      (key == "candidate" ? j.candidate : j.baseline) = rest;
    } else if (key == "warmup") ls >> j.warmup;
    else if (key == "reps") ls >> j.reps;
    else if (key == "interleave") ls >> j.interleave;
    else if (key == "input" || key == "output") {
      Tensor t;
      int ndim = 0;
      ls >> t.name >> t.dtype >> t.numel >> ndim;
      for (int i = 0; i < ndim; ++i) {
        int64_t d = 0;
        ls >> d;
        t.shape.push_back(d);
      }
      t.bytes = static_cast<size_t>(t.numel) * dtype_size(t.dtype);
      (key == "input" ? j.inputs : j.outputs).push_back(t);
    } else if (key == "attr") {
      std::string n;
      double v = 0;
      ls >> n >> v;
      j.attrs.emplace_back(n, v);
    }
  }
  return j;
}

std::string read_bytes(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_bytes(const std::string& p, const void* data, size_t n) {
  std::ofstream out(p, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

using Fn = int (*)(const kope_args*, void*);

Fn load(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) fail(4, "loading the kernel", 0, "dlopen", dlerror());
  auto fn = reinterpret_cast<Fn>(dlsym(h, "kope_ascend_kernel"));
  if (!fn) fail(4, "loading the kernel", 0, "dlsym", path + " does not export kope_ascend_kernel");
  return fn;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kope-ascend-worker JOB_DIR [both|candidate|baseline]\n");
    return 5;
  }
  g_dir = argv[1];
  const std::string only = argc > 2 ? argv[2] : "both";
  Job job = read_job();
  phase("device set-up");
  check(aclInit(nullptr), "aclInit", "the device set-up");
  int32_t device = 0;
  if (const char* d = std::getenv("KOPE_ASCEND_DEVICE")) device = std::atoi(d);
  aclError e = aclrtSetDevice(device);
  if (e != ACL_SUCCESS) fail(12, "the device set-up", e, "aclrtSetDevice", aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
  aclrtContext ctx = nullptr;
  aclrtStream stream = nullptr;
  check(aclrtCreateContext(&ctx, device), "aclrtCreateContext", "the device set-up");
  check(aclrtCreateStream(&stream), "aclrtCreateStream", "the device set-up");

  std::vector<kope_tensor> in_t(job.inputs.size()), out_t(job.outputs.size());
  std::vector<std::string> host_in;
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    Tensor& t = job.inputs[i];
    host_in.push_back(read_bytes(g_dir + "/in" + std::to_string(i) + ".bin"));
    if (host_in.back().size() != t.bytes) fail(5, "reading the job", 0, "input", "in" + std::to_string(i) + ".bin has the wrong size");
    void* dev = nullptr;
    check(aclrtMalloc(&dev, t.bytes ? t.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc", "the copy to the device");
    if (t.bytes) check(aclrtMemcpy(dev, t.bytes, host_in.back().data(), t.bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy", "the copy to the device");
    in_t[i] = kope_tensor{t.name.c_str(), dev, t.dtype, static_cast<int32_t>(t.shape.size()), {}, t.numel};
    for (size_t d = 0; d < t.shape.size() && d < KOPE_MAX_DIMS; ++d) in_t[i].shape[d] = t.shape[d];
  }
  for (size_t k = 0; k < job.outputs.size(); ++k) {
    Tensor& t = job.outputs[k];
    void* dev = nullptr;
    check(aclrtMalloc(&dev, t.bytes ? t.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc", "the copy to the device");
    out_t[k] = kope_tensor{t.name.c_str(), dev, t.dtype, static_cast<int32_t>(t.shape.size()), {}, t.numel};
    for (size_t d = 0; d < t.shape.size() && d < KOPE_MAX_DIMS; ++d) out_t[k].shape[d] = t.shape[d];
  }
  std::vector<kope_attr> attrs;
  for (auto& [n, v] : job.attrs) attrs.push_back(kope_attr{n.c_str(), v});
  kope_args args{static_cast<int32_t>(in_t.size()), in_t.data(), static_cast<int32_t>(out_t.size()), out_t.data(),
                 static_cast<int32_t>(attrs.size()), attrs.data()};

  Fn cand = load(job.candidate);
  Fn base = job.baseline.empty() ? nullptr : load(job.baseline);
  auto call = [&](Fn fn, const char* what) {
    int rc = fn(&args, stream);
    if (rc != 0) fail(3, what, rc, "kope_ascend_kernel", "the kernel returned non-zero");
    check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream", what);
  };
  auto copy_out = [&](const char* prefix) {
    for (size_t k = 0; k < job.outputs.size(); ++k) {
      std::string host(job.outputs[k].bytes, '\0');
      if (!host.empty())
        check(aclrtMemcpy(host.data(), host.size(), out_t[k].data, host.size(), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy", "the copy back");
      write_bytes(g_dir + "/" + prefix + std::to_string(k) + ".bin", host.data(), host.size());
    }
  };

  phase("correctness run");
  if (only != "baseline") {
    call(cand, "the correctness run");
    copy_out("first");
  }
  phase("timed runs");
  std::string order;
  for (int r = 0; r < job.warmup + job.reps; ++r) {
    const bool base_first = base && job.interleave && (r % 2 == 1);
    for (int k = 0; k < 2; ++k) {
      const bool is_base = (k == 0) == base_first;
      if (is_base && (!base || only == "candidate")) continue;
      if (!is_base && only == "baseline") continue;
      call(is_base ? base : cand, is_base ? "a baseline run" : "a timed run");
      if (r >= job.warmup) order += is_base ? 'b' : 'c';
    }
  }
  if (only != "baseline") copy_out("last");
  phase("input check");
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    std::string now(job.inputs[i].bytes, '\0');
    if (!now.empty())
      check(aclrtMemcpy(now.data(), now.size(), in_t[i].data, now.size(), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy", "the input check");
    if (now != host_in[i]) fail(6, "the input check", 0, "inputs_modified", "the kernel wrote into input " + job.inputs[i].name);
  }
  std::ofstream(g_dir + "/result.json") << "{\"timer\": \"msprof op Task Duration\", \"order\": \"" << order << "\"}\n";
  for (auto& t : in_t) aclrtFree(t.data);
  for (auto& t : out_t) aclrtFree(t.data);
  aclrtDestroyStream(stream);
  aclrtDestroyContext(ctx);
  aclrtResetDevice(device);
  aclFinalize();
  phase("done");
  return 0;
}
