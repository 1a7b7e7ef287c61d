#include "kope/exec/runner.h"

#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/model/inputs.h"
#include "kope/exec/worker.h"
#include "kope_kernel.h"

namespace kope::exec {

using nlohmann::json;
namespace fs = std::filesystem;

json to_json(const RunnerJob& job) {
  return {{"mode", job.mode == RunnerJob::Mode::Golden ? "golden" : "measure"},
          {"case", to_json(job.kcase)},
          {"kernel", job.kernel.string()},
          {"baseline", job.baseline.string()},
          {"out_dir", job.out_dir.string()},
          {"warmup", job.warmup},
          {"reps", job.reps},
          {"pool", job.pool},
          {"flush_bytes", job.flush_bytes},
          {"interleave", job.interleave},
          {"isolate_network", job.isolate_network},
          {"golden_cases", [&] {
             json a = json::array();
             for (const auto& c : job.golden_cases) a.push_back(to_json(c));
             return a;
           }()}};
}

RunnerJob runner_job_from_json(const json& j) {
  RunnerJob job;
  job.mode = j.at("mode").get<std::string>() == "golden" ? RunnerJob::Mode::Golden : RunnerJob::Mode::Measure;
  job.kcase = concrete_case_from_json(j.at("case"));
  job.kernel = j.at("kernel").get<std::string>();
  job.baseline = j.at("baseline").get<std::string>();
  job.out_dir = j.at("out_dir").get<std::string>();
  job.warmup = j.at("warmup").get<int>();
  job.reps = j.at("reps").get<int>();
  job.pool = j.at("pool").get<int>();
  job.flush_bytes = j.at("flush_bytes").get<std::size_t>();
  job.interleave = j.value("interleave", true);
  job.isolate_network = j.value("isolate_network", true);
  if (j.contains("golden_cases"))
    for (const auto& c : j.at("golden_cases")) job.golden_cases.push_back(concrete_case_from_json(c));
  return job;
}

fs::path golden_output_path(const fs::path& dir, std::size_t i) { return dir / ("golden_" + std::to_string(i) + ".f64"); }
fs::path first_output_path(const fs::path& dir, std::size_t i) { return dir / ("first_" + std::to_string(i) + ".bin"); }
fs::path last_output_path(const fs::path& dir, std::size_t i) { return dir / ("last_" + std::to_string(i) + ".bin"); }
fs::path result_path(const fs::path& dir) { return dir / "result.json"; }
fs::path phase_path(const fs::path& dir) { return dir / "phase"; }
fs::path network_failure_path(const fs::path& dir) { return dir / "network"; }

namespace {

using KernelFn = int (*)(const kope_args*);

struct Buffer {
  std::unique_ptr<unsigned char[]> bytes;
  std::size_t size = 0;
  explicit Buffer(std::size_t n) : bytes(new unsigned char[n ? n : 1]), size(n) {}
};

// One complete set of argument tensors over buffers it owns.
struct ArgSet {
  std::vector<Buffer> inputs, outputs;
  std::vector<kope_tensor> in_t, out_t;
  std::vector<kope_attr> attrs;
  kope_args args{};
};

DType runtime_dtype(DType t, bool golden) { return golden && is_floating(t) ? DType::F64 : t; }

kope_tensor describe(const ConcreteTensor& t, DType dt, void* data) {
  kope_tensor k{};
  k.name = t.name.c_str();
  k.data = data;
  k.dtype = static_cast<int32_t>(dt);
  k.ndim = static_cast<int32_t>(t.shape.size());
  for (std::size_t d = 0; d < t.shape.size(); ++d) k.shape[d] = t.shape[d];
  k.numel = t.numel;
  return k;
}

std::unique_ptr<ArgSet> make_args(const ConcreteCase& c, bool golden, const std::vector<Buffer>* inputs_from) {
  auto a = std::make_unique<ArgSet>();
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const ConcreteTensor& t = c.inputs[i];
    DType dt = runtime_dtype(t.dtype, golden);
    a->inputs.emplace_back(static_cast<std::size_t>(t.numel) * dtype_size(dt));
    Buffer& b = a->inputs.back();
    if (inputs_from) {
      std::memcpy(b.bytes.get(), (*inputs_from)[i].bytes.get(), b.size);
    } else if (dt == t.dtype) {
      generate_tensor(t, c.seed, i, b.bytes.get());
    } else {  // the golden run sees exactly the values a kernel sees, widened to double
      Buffer native(static_cast<std::size_t>(t.numel) * dtype_size(t.dtype));
      generate_tensor(t, c.seed, i, native.bytes.get());
      for (int64_t e = 0; e < t.numel; ++e)
        store_from_double(dt, b.bytes.get(), e, load_as_double(t.dtype, native.bytes.get(), e));
    }
  }
  for (const ConcreteTensor& t : c.outputs) {
    DType dt = runtime_dtype(t.dtype, golden);
    a->outputs.emplace_back(static_cast<std::size_t>(t.numel) * dtype_size(dt));
    fill_sentinel(dt, a->outputs.back().bytes.get(), static_cast<std::size_t>(t.numel));
  }
  for (std::size_t i = 0; i < c.inputs.size(); ++i)
    a->in_t.push_back(describe(c.inputs[i], runtime_dtype(c.inputs[i].dtype, golden), a->inputs[i].bytes.get()));
  for (std::size_t i = 0; i < c.outputs.size(); ++i)
    a->out_t.push_back(describe(c.outputs[i], runtime_dtype(c.outputs[i].dtype, golden), a->outputs[i].bytes.get()));
  for (const auto& [name, value] : c.attrs) a->attrs.push_back({name.c_str(), value});
  a->args.n_inputs = static_cast<int32_t>(a->in_t.size());
  a->args.inputs = a->in_t.data();
  a->args.n_outputs = static_cast<int32_t>(a->out_t.size());
  a->args.outputs = a->out_t.data();
  a->args.n_attrs = static_cast<int32_t>(a->attrs.size());
  a->args.attrs = a->attrs.data();
  return a;
}

KernelFn load_kernel(const fs::path& so, const char* role) {
  void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::fprintf(stderr, "kope-runner: cannot load the %s %s: %s\n", role, so.c_str(), dlerror());
    std::exit(kRunnerLoadError);
  }
  auto fn = reinterpret_cast<KernelFn>(dlsym(h, "kope_kernel"));
  if (!fn) {
    std::fprintf(stderr, "kope-runner: the %s %s exports no kope_kernel (declare it extern \"C\" or include "
                         "kope_kernel.h before defining it)\n", role, so.c_str());
    std::exit(kRunnerLoadError);
  }
  return fn;
}

void write_file(const fs::path& p, const void* data, std::size_t n) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  if (!out) {
    std::fprintf(stderr, "kope-runner: cannot write %s\n", p.c_str());
    std::exit(kRunnerJobError);
  }
}

void set_phase(const fs::path& dir, const std::string& phase) {
  std::string s = phase + "\n";
  write_file(phase_path(dir), s.data(), s.size());
}

int call_checked(KernelFn fn, const ArgSet& a, const char* what, const fs::path& dir, json& result) {
  int rc = fn(&a.args);
  if (rc != 0) {
    result["kernel_error"] = {{"call", what}, {"code", rc}};
    std::string s = result.dump(2);
    write_file(result_path(dir), s.data(), s.size());
    std::fprintf(stderr, "kope-runner: the kernel returned %d during %s\n", rc, what);
    std::exit(kRunnerKernelError);
  }
  return rc;
}

// One case's goldens into dir; the reference is already loaded.
void golden_case(KernelFn ref, const ConcreteCase& kcase, const fs::path& dir, json& result) {
  auto a = make_args(kcase, true, nullptr);
  set_phase(dir, "reference run");
  call_checked(ref, *a, "the reference run", dir, result);
  // Golden files are always double; integer outputs keep their own type in the reference and widen here.
  for (std::size_t i = 0; i < a->outputs.size(); ++i) {
    const ConcreteTensor& t = kcase.outputs[i];
    std::vector<double> wide(static_cast<std::size_t>(t.numel));
    const DType dt = runtime_dtype(t.dtype, true);
    for (std::size_t e = 0; e < wide.size(); ++e) wide[e] = load_as_double(dt, a->outputs[i].bytes.get(), e);
    write_file(golden_output_path(dir, i), wide.data(), wide.size() * sizeof(double));
  }
}

int run_golden(const RunnerJob& job) {
  KernelFn ref = load_kernel(job.kernel, "reference");
  json result = json::object();
  if (job.golden_cases.empty()) {
    golden_case(ref, job.kcase, job.out_dir, result);
  } else {
    // Every case of a task in one process: one sandbox start and one load of the reference instead of one per case.
    for (std::size_t k = 0; k < job.golden_cases.size(); ++k) {
      const fs::path dir = job.out_dir / std::to_string(k);
      fs::create_directories(dir);
      result["case"] = job.golden_cases[k].name;
      golden_case(ref, job.golden_cases[k], dir, result);
    }
    result.erase("case");
  }
  result["ok"] = true;
  std::string s = result.dump(2);
  write_file(result_path(job.out_dir), s.data(), s.size());
  return 0;
}

}  // namespace

int runner_main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--worker") == 0) return worker_main(argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: kope-runner JOB.json | kope-runner --worker ...\n");
    return kRunnerJobError;
  }
  RunnerJob job;
  try {
    std::ifstream in(argv[1]);
    if (!in) throw std::runtime_error("cannot read the job file");
    job = runner_job_from_json(json::parse(in));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kope-runner: bad job %s: %s\n", argv[1], e.what());
    return kRunnerJobError;
  }
  // Before any kernel is loaded: in a fresh network namespace even loopback is down, so a kernel reaches
  // nothing. Without CAP_SYS_ADMIN this fails and the report says so.
  if (job.isolate_network && unshare(CLONE_NEWNET) != 0) {
    const std::string why = std::strerror(errno);
    const std::string s = why + "\n";
    write_file(network_failure_path(job.out_dir), s.data(), s.size());
  }
  if (job.mode != RunnerJob::Mode::Golden) {
    std::fprintf(stderr, "kope-runner: measure jobs are run by the judge and its workers now (--worker)\n");
    return kRunnerJobError;
  }
  return run_golden(job);
}

}  // namespace kope::exec
