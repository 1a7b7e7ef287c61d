// kope-cuda-worker: runs a candidate (and its baseline) on the GPU for the judge (worker_protocol.h):
//   kope-cuda-worker --probe                 one JSON line about device 0, exit 12 when there is no GPU
//   kope-cuda-worker JOB_DIR [both|candidate|correctness]
// Inputs are copied to the device once per side; before every timed call a buffer twice the L2 is written
// (cudaMemsetAsync) to evict it; each call is timed with CUDA events on the worker's stream; baseline and
// candidate alternate call by call, alternating which goes first. Sticky errors (illegal address...) end the
// worker with the exit code of their outcome, since the context is unusable afterwards.
#include <cuda_runtime.h>
#include <dlfcn.h>

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
  std::string candidate, baseline;
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
    if (key == "candidate" || key == "baseline") {
      std::string rest;
      std::getline(ls >> std::ws, rest);
      (key == "candidate" ? j.candidate : j.baseline) = rest;
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

kope_cuda_kernel_fn load(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) fail(4, "loading the kernel", 0, "dlopen", dlerror());
  auto fn = reinterpret_cast<kope_cuda_kernel_fn>(dlsym(h, "kope_cuda_kernel"));
  if (!fn) fail(4, "loading the kernel", 0, "dlsym", path + " does not export kope_cuda_kernel");
  return fn;
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
  Side cs = make_side(job, host_in, "the copy to the device");
  Side bs = base ? make_side(job, host_in, "the copy to the device") : Side{};

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

  phase("timed runs");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "the timed runs");
  check(cudaEventCreate(&stop), "the timed runs");
  std::vector<double> cand_ns, base_ns;
  std::string order;
  for (int r = 0; r < job.warmup + job.reps; ++r) {
    const bool base_first = base && job.interleave && (r % 2 == 1);
    for (int k = 0; k < 2; ++k) {
      const bool is_base = (k == 0) == base_first;
      if (is_base && !base) continue;
      Side& side = is_base ? bs : cs;
      const char* what = is_base ? "a baseline run" : "a timed run";
      check(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s), what);
      check(cudaEventRecord(start, s), what);
      call(is_base ? base : cand, side, what);
      check(cudaEventRecord(stop, s), what);
      check(cudaEventSynchronize(stop), what);
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), what);
      if (r >= job.warmup) {
        (is_base ? base_ns : cand_ns).push_back(ms * 1e6);
        order += is_base ? 'b' : 'c';
      }
    }
  }
  copy_out(cs, "last");
  phase("input check");
  for (Side* side : {&cs, &bs}) {
    if (side->in.empty()) continue;
    for (size_t i = 0; i < job.inputs.size(); ++i) {
      std::string now(job.inputs[i].bytes, '\0');
      check(cudaMemcpy(now.data(), side->in[i].data, now.size(), cudaMemcpyDeviceToHost), "the input check");
      if (now != host_in[i])
        fail(6, "the input check", 0, "inputs_modified",
             std::string(side == &cs ? "the candidate" : "the baseline") + " wrote into input " + job.inputs[i].name);
    }
  }
  std::ofstream res(g_dir + "/result.json");
  res << "{\"timer\": \"cudaEvent\", \"device\": \"" << escape(prop.name) << "\", \"flush_bytes\": " << flush_bytes
      << ", \"order\": \"" << order << "\", \"cand_ns\": [";
  for (size_t i = 0; i < cand_ns.size(); ++i) res << (i ? ", " : "") << cand_ns[i];
  res << "], \"base_ns\": [";
  for (size_t i = 0; i < base_ns.size(); ++i) res << (i ? ", " : "") << base_ns[i];
  res << "]}\n";
  res.close();
  phase("done");
  return 0;
}
