// kope-cuda-worker: runs a candidate (and its baseline, and the library's) on the GPU for the judge (worker_protocol.h):
//   kope-cuda-worker --probe                 one JSON line about device 0, exit 12 when there is no GPU
//   kope-cuda-worker JOB_DIR [both|candidate|correctness]
// Inputs are copied to the device once per side; before every timed call a buffer twice the L2 is written
// (cudaMemsetAsync) to evict it; each call is timed with CUDA events on the worker's stream; baseline, candidate
// and library take turns call by call, rotating which goes first. A library that fails to load or returns
// non-zero is reported as "library_error" and left out; the candidate's run goes on. Sticky errors (illegal address...) end the
// worker with the exit code of their outcome, since the context is unusable afterwards.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kope_cuda.h"

namespace {

std::string g_dir;

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
  unsigned long long flush_bytes = 0;
  std::vector<Tensor> inputs, outputs;
  std::vector<std::pair<std::string, double>> attrs;
};

size_t dtype_size(int d) {
  switch (d) {
    case KOPE_F64: case KOPE_I64: return 8;
    case KOPE_F16: case KOPE_BF16: return 2;
    case KOPE_U8: case KOPE_I8: return 1;
    default: return 4;
  }
}

std::string escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\', o += ch;
    else if (ch == '\n') o += "\\n";
    else if (static_cast<unsigned char>(ch) >= 0x20) o += ch;
  }
  return o;
}

void phase(const char* p) { std::ofstream(g_dir + "/phase") << p << "\n"; }

int exit_for(int code) {
  switch (code) {
    case cudaErrorIllegalAddress: case cudaErrorMisalignedAddress: case cudaErrorInvalidAddressSpace:
      return 7;
    case cudaErrorMemoryAllocation: return 9;
    case cudaErrorLaunchTimeout: return 11;
    case cudaErrorAssert: case cudaErrorIllegalInstruction: case cudaErrorInvalidPc: case cudaErrorHardwareStackError:
    case cudaErrorLaunchFailure:
      return 10;
    case cudaErrorNoDevice: case cudaErrorInsufficientDriver: return 12;
    default: return 8;
  }
}

[[noreturn]] void fail(int exit_code, const char* call, int code, const std::string& name, const std::string& msg) {
  std::ofstream(g_dir + "/result.json") << "{\"timer\": \"cudaEvent\", \"error\": {\"call\": \"" << call
                                        << "\", \"code\": " << code << ", \"name\": \"" << escape(name)
                                        << "\", \"message\": \"" << escape(msg) << "\"}}\n";
  std::fprintf(stderr, "kope-cuda-worker: %s during %s: %s\n", name.c_str(), call, msg.c_str());
  std::exit(exit_code);
}

void check(cudaError_t e, const char* call) {
  if (e == cudaSuccess) return;
  fail(exit_for(e), call, e, cudaGetErrorName(e), cudaGetErrorString(e));
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
    else if (key == "flush_bytes") ls >> j.flush_bytes;
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

void write_bytes(const std::string& p, const void* d, size_t n) {
  std::ofstream(p, std::ios::binary).write(static_cast<const char*>(d), static_cast<std::streamsize>(n));
}

// The entry point of `path`; a failure ends the worker, or, for the library (`why` given), is said in `why`.
kope_cuda_kernel_fn load(const std::string& path, std::string* why = nullptr) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const std::string err = h ? "" : dlerror();
  auto fn = h ? reinterpret_cast<kope_cuda_kernel_fn>(dlsym(h, "kope_cuda_kernel")) : nullptr;
  if (fn) return fn;
  const std::string msg = h ? path + " does not export kope_cuda_kernel" : err;
  if (why) {
    *why = "cannot load the library: " + msg;
    return nullptr;
  }
  fail(4, "loading the kernel", 0, h ? "dlsym" : "dlopen", msg);
}

// One side's device buffers: its own copy of the inputs and its own outputs.
struct Side {
  std::vector<kope_tensor> in, out;
  std::vector<kope_attr> attrs;
  kope_args args{};
};

Side make_side(const Job& job, const std::vector<std::string>& host_in, const char* call) {
  Side s;
  auto fill = [](kope_tensor& k, const Tensor& t, void* p) {
    k.name = t.name.c_str();
    k.data = p;
    k.dtype = t.dtype;
    k.ndim = static_cast<int32_t>(t.shape.size());
    for (size_t d = 0; d < t.shape.size() && d < KOPE_MAX_DIMS; ++d) k.shape[d] = t.shape[d];
    k.numel = t.numel;
  };
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    void* p = nullptr;
    check(cudaMalloc(&p, job.inputs[i].bytes ? job.inputs[i].bytes : 1), call);
    check(cudaMemcpy(p, host_in[i].data(), job.inputs[i].bytes, cudaMemcpyHostToDevice), call);
    s.in.push_back({});
    fill(s.in.back(), job.inputs[i], p);
  }
  for (const auto& t : job.outputs) {
    void* p = nullptr;
    check(cudaMalloc(&p, t.bytes ? t.bytes : 1), call);
    // NaN for floating outputs (all-ones bits), 0xA5 for the rest: an unwritten element never passes.
    const bool floating = t.dtype == KOPE_F32 || t.dtype == KOPE_F64 || t.dtype == KOPE_F16 || t.dtype == KOPE_BF16;
    check(cudaMemset(p, floating ? 0xFF : 0xA5, t.bytes), call);
    s.out.push_back({});
    fill(s.out.back(), t, p);
  }
  for (const auto& [n, v] : job.attrs) s.attrs.push_back({n.c_str(), v});
  s.args = {static_cast<int32_t>(s.in.size()), s.in.data(), static_cast<int32_t>(s.out.size()), s.out.data(),
            static_cast<int32_t>(s.attrs.size()), s.attrs.data()};
  return s;
}

int probe() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    std::printf("{\"count\": 0, \"error\": \"%s\"}\n",
                escape(e != cudaSuccess ? std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e) : "no CUDA device").c_str());
    return 12;
  }
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  int mem_khz = 0, bus = 0, sm_khz = 0;
  cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
  cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  // DDR: two transfers per memory clock.
  const double peak_gbps = 2.0 * mem_khz * 1e3 * (bus / 8.0) / 1e9;
  std::printf("{\"count\": %d, \"name\": \"%s\", \"cc\": \"%d.%d\", \"sm_count\": %d, \"l2_bytes\": %d, "
              "\"memory_bytes\": %zu, \"memory_clock_mhz\": %.1f, \"sm_clock_mhz\": %.1f, \"bus_width\": %d, "
              "\"peak_bandwidth_gbps\": %.1f, \"driver\": %d, \"runtime\": %d}\n",
              n, escape(p.name).c_str(), p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem,
              mem_khz / 1e3, sm_khz / 1e3, bus, peak_gbps, driver, runtime);
  return 0;
}

// Warm-up and timed calls of the roles present (candidate, baseline, library), rotating which goes first when
// interleaved; each call after an L2 flush, timed with CUDA events.
struct Timed {
  std::vector<double> ns[3];
  std::string order;
};

template <class Call>
Timed timed_runs(const Job& job, cudaStream_t s, void* flush, size_t flush_bytes, std::array<kope_cuda_kernel_fn, 3> fns,
                 std::array<Side*, 3> sides, Call& call) {
  phase("timed runs");
  static const char kRole[3] = {'c', 'b', 'l'};
  static const char* kWhat[3] = {"a timed run", "a baseline run", "a library run"};
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "the timed runs");
  check(cudaEventCreate(&stop), "the timed runs");
  std::vector<int> roles;
  for (int k = 0; k < 3; ++k)
    if (fns[k]) roles.push_back(k);
  Timed t;
  for (int r = 0; r < job.warmup + job.reps; ++r)
    for (size_t k = 0; k < roles.size(); ++k) {
      const int who = roles[(k + (job.interleave ? r : 0)) % roles.size()];
      check(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s), kWhat[who]);
      check(cudaEventRecord(start, s), kWhat[who]);
      call(fns[who], *sides[who], kWhat[who]);
      check(cudaEventRecord(stop, s), kWhat[who]);
      check(cudaEventSynchronize(stop), kWhat[who]);
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), kWhat[who]);
      if (r >= job.warmup) {
        t.ns[who].push_back(ms * 1e6);
        t.order += kRole[who];
      }
    }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--probe") return probe();
  if (argc < 2) {
    std::fprintf(stderr, "usage: kope-cuda-worker --probe | JOB_DIR [both|candidate|correctness]\n");
    return 5;
  }
  g_dir = argv[1];
  const std::string mode = argc > 2 ? argv[2] : "both";
  Job job = read_job();
  std::vector<std::string> host_in;
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    host_in.push_back(read_bytes(g_dir + "/in" + std::to_string(i) + ".bin"));
    if (host_in.back().size() != job.inputs[i].bytes)
      fail(5, "reading the job", 0, "input", "in" + std::to_string(i) + ".bin has the wrong size");
  }
  phase("device set-up");
  int device = 0;
  if (const char* d = std::getenv("KOPE_CUDA_DEVICE")) device = std::atoi(d);
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaFree(nullptr);  // creates the context
  if (e != cudaSuccess) fail(12, "the device set-up", e, cudaGetErrorName(e), cudaGetErrorString(e));
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "the device set-up");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "the device set-up");
  size_t flush_bytes = job.flush_bytes ? job.flush_bytes : 2 * static_cast<size_t>(prop.l2CacheSize);
  if (flush_bytes < (size_t{8} << 20)) flush_bytes = size_t{8} << 20;
  void* flush = nullptr;
  check(cudaMalloc(&flush, flush_bytes), "the device set-up");

  kope_cuda_kernel_fn cand = load(job.candidate);
  kope_cuda_kernel_fn base = (job.baseline.empty() || mode != "both") ? nullptr : load(job.baseline);
  std::string lib_error;
  kope_cuda_kernel_fn lib = (job.library.empty() || mode != "both") ? nullptr : load(job.library, &lib_error);
  Side cs = make_side(job, host_in, "the copy to the device");
  Side bs = base ? make_side(job, host_in, "the copy to the device") : Side{};
  Side ls = lib ? make_side(job, host_in, "the copy to the device") : Side{};

  auto call = [&](kope_cuda_kernel_fn fn, Side& side, const char* what) {
    int rc = fn(&side.args, s);
    if (rc != 0) {
      // A cudaError_t the entry returned (as the ABI asks) maps like any CUDA error; other values are the kernel's.
      const char* nm = rc > 0 ? cudaGetErrorName(static_cast<cudaError_t>(rc)) : nullptr;
      const bool is_cuda = nm && std::strstr(nm, "cudaError") == nm;
      fail(is_cuda ? exit_for(rc) : 3, what, rc, is_cuda ? nm : "kope_cuda_kernel", "the entry point returned non-zero");
    }
    check(cudaGetLastError(), what);
  };
  auto copy_out = [&](Side& side, const char* prefix) {
    for (size_t k = 0; k < job.outputs.size(); ++k) {
      std::string host(job.outputs[k].bytes, '\0');
      check(cudaMemcpy(host.data(), side.out[k].data, host.size(), cudaMemcpyDeviceToHost), "the copy back");
      write_bytes(g_dir + "/" + prefix + std::to_string(k) + ".bin", host.data(), host.size());
    }
  };

  phase("correctness run");
  call(cand, cs, "the correctness run");
  check(cudaStreamSynchronize(s), "the correctness run");
  copy_out(cs, "first");
  if (mode == "correctness") {
    copy_out(cs, "last");
    std::ofstream(g_dir + "/result.json") << "{\"timer\": \"cudaEvent\"}\n";
    return 0;
  }
  if (lib) {  // the library's correctness call, on its own buffers; its non-zero return is its own failure
    if (int rc = lib(&ls.args, s); rc != 0) {
      lib_error = "the library returned " + std::to_string(rc) + " on the correctness run";
      lib = nullptr;
    } else {
      check(cudaStreamSynchronize(s), "the library's correctness run");
      copy_out(ls, "lib");
    }
  }

  Timed t = timed_runs(job, s, flush, flush_bytes, {cand, base, lib}, {&cs, &bs, &ls}, call);
  copy_out(cs, "last");
  phase("input check");
  for (Side* side : {&cs, &bs, &ls}) {
    if (side->in.empty()) continue;
    for (size_t i = 0; i < job.inputs.size(); ++i) {
      std::string now(job.inputs[i].bytes, '\0');
      check(cudaMemcpy(now.data(), side->in[i].data, now.size(), cudaMemcpyDeviceToHost), "the input check");
      if (now != host_in[i])
        fail(6, "the input check", 0, "inputs_modified",
             std::string(side == &cs ? "the candidate" : side == &bs ? "the baseline" : "the library") +
                 " wrote into input " + job.inputs[i].name);
    }
  }
  std::ofstream res(g_dir + "/result.json");
  res << "{\"timer\": \"cudaEvent\", \"device\": \"" << escape(prop.name) << "\", \"flush_bytes\": " << flush_bytes
      << ", \"order\": \"" << t.order << "\", \"library_error\": \"" << escape(lib_error) << "\"";
  for (const auto& [key, v] : {std::pair{"cand_ns", &t.ns[0]}, std::pair{"base_ns", &t.ns[1]}, std::pair{"lib_ns", &t.ns[2]}}) {
    res << ", \"" << key << "\": [";
    for (size_t i = 0; i < v->size(); ++i) res << (i ? ", " : "") << (*v)[i];
    res << "]";
  }
  res << "}\n";
  res.close();
  phase("done");
  return 0;
}
