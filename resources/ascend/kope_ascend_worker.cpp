// kope's Ascend worker, built on the board with the toolkit's compiler (never run on a real board yet):
//   kope-ascend-worker JOB_DIR [both|candidate|baseline|library]
// Reads JOB_DIR/job.txt and in<i>.bin (the worker contract of core/device/kope/device/worker_protocol.h), copies
// inputs to the NPU, calls kope_ascend_kernel from the candidate (and baseline, and library) shared object,
// synchronizes, copies outputs back to first<k>.bin / last<k>.bin (the library's, on its own buffers, to
// lib<k>.bin), writes result.json. A library that fails is reported as "library_error" and left out; the
// candidate's run goes on. Timing comes from `msprof op` around
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
static aclError aclrtMemset(void* d, size_t, int32_t v, size_t n) { std::memset(d, v, n); return 0; }
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
  std::string candidate, baseline, library;
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
    if (key == "candidate" || key == "baseline" || key == "library") {
      std::string rest;
      std::getline(ls >> std::ws, rest);
      (key == "candidate" ? j.candidate : key == "baseline" ? j.baseline : j.library) = rest;
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

Fn load(const std::string& path, std::string* why = nullptr) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const std::string err = h ? "" : dlerror();
  auto fn = h ? reinterpret_cast<Fn>(dlsym(h, "kope_ascend_kernel")) : nullptr;
  if (fn) return fn;
  const std::string msg = h ? path + " does not export kope_ascend_kernel" : err;
  if (why) {  // the library's: its failure is its own
    *why = "cannot load the library: " + msg;
    return nullptr;
  }
  fail(4, "loading the kernel", 0, h ? "dlsym" : "dlopen", msg);
}

// One side's device buffers: the inputs copied from the host, the outputs allocated; its kope_args.
struct Side {
  std::vector<kope_tensor> in, out;
  std::vector<kope_attr> attrs;
  kope_args args{};
};

kope_tensor device_tensor(const Tensor& t, const std::string* host, const char* call) {
  void* dev = nullptr;
  check(aclrtMalloc(&dev, t.bytes ? t.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc", call);
  if (host && t.bytes) check(aclrtMemcpy(dev, t.bytes, host->data(), t.bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy", call);
  kope_tensor k{t.name.c_str(), dev, t.dtype, static_cast<int32_t>(t.shape.size()), {}, t.numel};
  for (size_t d = 0; d < t.shape.size() && d < KOPE_MAX_DIMS; ++d) k.shape[d] = t.shape[d];
  return k;
}

void make_side(Side& s, const Job& job, const std::vector<std::string>& host_in) {
  for (size_t i = 0; i < job.inputs.size(); ++i) s.in.push_back(device_tensor(job.inputs[i], &host_in[i], "the copy to the device"));
  for (const Tensor& t : job.outputs) {
    s.out.push_back(device_tensor(t, nullptr, "the copy to the device"));
    // NaN for floating outputs (all-ones bits), 0xA5 for the rest: an unwritten element never passes (device memory
    // comes back from aclrtMalloc as it was left, often zero, which a zero in the golden would take for written).
    const bool floating = t.dtype == KOPE_F32 || t.dtype == KOPE_F64 || t.dtype == KOPE_F16 || t.dtype == KOPE_BF16;
    if (t.bytes) check(aclrtMemset(s.out.back().data, t.bytes, floating ? 0xFF : 0xA5, t.bytes), "aclrtMemset", "the copy to the device");
  }
  for (auto& [n, v] : job.attrs) s.attrs.push_back(kope_attr{n.c_str(), v});
  s.args = kope_args{static_cast<int32_t>(s.in.size()), s.in.data(), static_cast<int32_t>(s.out.size()), s.out.data(),
                     static_cast<int32_t>(s.attrs.size()), s.attrs.data()};
}

void free_side(Side& s) {
  for (auto& t : s.in) aclrtFree(t.data);
  for (auto& t : s.out) aclrtFree(t.data);
}

void copy_out(const Job& job, const Side& side, const char* prefix) {
  for (size_t k = 0; k < job.outputs.size(); ++k) {
    std::string host(job.outputs[k].bytes, '\0');
    if (!host.empty())
      check(aclrtMemcpy(host.data(), host.size(), side.out[k].data, host.size(), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy", "the copy back");
    write_bytes(g_dir + "/" + prefix + std::to_string(k) + ".bin", host.data(), host.size());
  }
}

void check_inputs(const Job& job, const Side& side, const std::vector<std::string>& host_in, const char* who) {
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    std::string now(job.inputs[i].bytes, '\0');
    if (!now.empty())
      check(aclrtMemcpy(now.data(), now.size(), side.in[i].data, now.size(), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy", "the input check");
    if (now != host_in[i]) fail(6, "the input check", 0, "inputs_modified", std::string(who) + " wrote into input " + job.inputs[i].name);
  }
}

std::string escaped(const std::string& msg) {
  std::string m;
  for (char ch : msg) m += (ch == '"' || ch == '\\') ? std::string("\\") + ch : (ch == '\n' ? std::string("\\n") : std::string(1, ch));
  return m;
}

// The calls: the candidate's correctness run, the library's (its failure recorded, not fatal), then warm-up and
// timed runs with the roles of `only` in a rotating order when interleaved ('c' candidate, 'b' baseline,
// 'l' library), then the input check.
int run_calls(const Job& job, const std::string& only, aclrtStream stream, const std::vector<std::string>& host_in) {
  Side cs, ls;
  make_side(cs, job, host_in);
  std::string lib_error;
  const bool want_lib = !job.library.empty() && (only == "both" || only == "library");
  Fn cand = only == "baseline" || only == "library" ? nullptr : load(job.candidate);
  Fn base = job.baseline.empty() || (only != "both" && only != "baseline") ? nullptr : load(job.baseline);
  Fn lib = want_lib ? load(job.library, &lib_error) : nullptr;
  if (lib) make_side(ls, job, host_in);
  auto call = [&](Fn fn, Side& side, const char* what) {
    int rc = fn(&side.args, stream);
    if (rc != 0) fail(3, what, rc, "kope_ascend_kernel", "the kernel returned non-zero");
    check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream", what);
  };
  phase("correctness run");
  if (cand) {
    call(cand, cs, "the correctness run");
    copy_out(job, cs, "first");
  }
  if (lib && only == "both") {
    if (int rc = lib(&ls.args, stream); rc != 0) {
      lib_error = "the library returned " + std::to_string(rc) + " on the correctness run";
      lib = nullptr;
    } else {
      check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream", "the library's correctness run");
      copy_out(job, ls, "lib");
    }
  }
  phase("timed runs");
  std::string roles, order;
  if (cand) roles += 'c';
  if (base) roles += 'b';
  if (lib) roles += 'l';
  for (int r = 0; r < job.warmup + job.reps; ++r)
    for (size_t k = 0; k < roles.size(); ++k) {
      const char who = roles[(k + (job.interleave ? r : 0)) % roles.size()];
      if (who == 'c') call(cand, cs, "a timed run");
      else if (who == 'b') call(base, cs, "a baseline run");
      else call(lib, ls, "a library run");
      if (r >= job.warmup) order += who;
    }
  if (cand) copy_out(job, cs, "last");
  phase("input check");
  check_inputs(job, cs, host_in, "the kernel");
  if (lib) check_inputs(job, ls, host_in, "the library");
  std::ofstream(g_dir + "/result.json") << "{\"timer\": \"msprof op Task Duration\", \"order\": \"" << order
                                        << "\", \"library_error\": \"" << escaped(lib_error) << "\"}\n";
  free_side(cs);
  free_side(ls);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kope-ascend-worker JOB_DIR [both|candidate|baseline|library]\n");
    return 5;
  }
  g_dir = argv[1];
  const std::string only = argc > 2 ? argv[2] : "both";
  Job job = read_job();
  std::vector<std::string> host_in;
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    host_in.push_back(read_bytes(g_dir + "/in" + std::to_string(i) + ".bin"));
    if (host_in.back().size() != job.inputs[i].bytes) fail(5, "reading the job", 0, "input", "in" + std::to_string(i) + ".bin has the wrong size");
  }
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
  run_calls(job, only, stream, host_in);
  aclrtDestroyStream(stream);
  aclrtDestroyContext(ctx);
  aclrtResetDevice(device);
  aclFinalize();
  phase("done");
  return 0;
}
