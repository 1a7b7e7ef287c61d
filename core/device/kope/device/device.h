// The device seam: one interface per kind of hardware (cpu, cuda, ascend), local or on a remote host, and a
// registry by name. A device builds a kernel, runs it through its worker and hands back host copies of the
// outputs with device-measured times; goldens, checking, statistics and recording stay in the device-neutral judge.
#pragma once

#include <cstdint>
#include <filesystem>

#include "kope/base/cancel.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/exec/compiler.h"
#include "kope/model/task.h"

namespace kope::device {

// Present, or why not ("nvcc not found in PATH or /usr/local/cuda/bin; install the CUDA toolkit").
struct Availability {
  bool available = false;
  std::string reason;  // why not; when available, where it was found
};

struct Capabilities {
  std::string language;                 // "C++20 with kope_kernel.h", "CUDA C++ with kope_cuda.h", "AscendC"
  std::string source_suffix = ".cpp";   // what a kernel file of this device is called
  std::string header;                   // the ABI header in resources/include
  bool can_build = false;               // the toolchain is here
  bool can_run = false;                 // hardware (or the CPU itself) is here to run kernels
  bool can_time = false;                // times are the hardware's (false: a functional twin only)
  bool profiler = false;                // profile() returns vendor counters
  bool sanitizer = false;               // measure() can run under a memory checker
  std::vector<std::string> build_modes; // ascend: "direct", "msopgen", "cpu-twin"
};

// What the numbers were measured on; recorded with every report from this device.
struct Fingerprint {
  std::string device;            // the registry name ("cuda", "cuda@gpu-box")
  std::string model;             // "NVIDIA H100 80GB HBM3", "Ascend910B3", the CPU's model name
  std::string driver_version;
  std::string toolkit_version;   // nvcc / CANN / the C++ compiler
  std::string host;              // the machine's name
  int count = 0;                 // devices of this kind on the host
  double core_clock_mhz = 0;
  double memory_clock_mhz = 0;
  uint64_t memory_bytes = 0;
  double peak_bandwidth_gbps = 0;  // GB/s = bytes per ns; 0 when unknown
  std::vector<std::pair<std::string, std::string>> extra;  // compute capability, SoC, cache sizes...
};

struct BuildOptions {
  std::filesystem::path build_dir;     // artifacts are cached here by content
  std::string display_name = "kernel"; // what diagnostics call the file
  std::vector<std::string> flags;      // empty: the device's defaults
  std::vector<std::string> defines;    // NAME or NAME=VALUE
  std::vector<std::string> prelude;    // leading #include lines to precompile once and share (cpu; see
                                       // exec::CompileOptions::prelude)
  std::string mode;                    // empty: the device's default (ascend: direct, msopgen, cpu-twin); "library":
                                       // host code calling the vendor library (library_impl_for says with what)
  const ConcreteCase* signature = nullptr;  // the tensors an operator project declares (ascend msopgen)
  double timeout_seconds = 300.0;
  const CancelToken* cancel = nullptr;  // stops the build (the compiler's whole tree) when set
};

// A call's outcome, as the worker reports it. A candidate's failure is an outcome, never an exception.
enum class Outcome {
  Ok,
  KernelError,     // the entry point returned non-zero
  Crash,           // the worker died by a signal, or the device raised an exception (AICORE_EXCEPTION)
  IllegalAddress,  // out-of-bounds / illegal address, from the device or the memory checker
  Timeout,         // the wall clock, or the device's own watchdog (AICORE_TIMEOUT, STREAM_SYNC_TIMEOUT)
  OutOfMemory,     // the device or host allocation failed
  LoadError,       // the artifact did not load or lacks the entry point
  LaunchError,     // the launch failed for another reason (bad configuration, no kernel image)
  InputsModified,  // the kernel wrote into an input
  ToolError,       // the device's tooling failed (no board, a profiler that matched nothing); not the kernel's fault
  BackgroundWork,  // the kernel kept working after it returned (outputs changed while no call was held; cpu)
  Infrastructure   // the cluster lost the job (preempted, killed, a node down): this attempt only, not the kernel's
};
std::string_view outcome_name(Outcome o);
std::optional<Outcome> outcome_from_name(std::string_view name);

// What measure() needs: the case, the judge's input bytes, and two or three built artifacts.
struct MeasureRequest {
  ConcreteCase kcase;
  std::vector<std::string> inputs;     // raw bytes per input tensor of kcase, in order (the judge generates them)
  std::filesystem::path candidate;     // BuildResult::artifact
  std::filesystem::path baseline;      // empty: no baseline calls, candidate only
  // The vendor library's implementation (aclnn on Ascend, ATen CUDA on CUDA), built with BuildOptions::mode
  // "library"; empty: none. Its correctness call and timed calls run beside the others, interleaved like them.
  std::filesystem::path library;
  std::filesystem::path scratch;       // a folder the device may use and the caller removes
  int warmup = 3;
  int reps = 5;
  bool interleave = true;              // baseline and candidate alternate call by call, alternating who goes first
  uint64_t flush_bytes = 0;            // 0: twice the device's last-level cache
  double timeout_seconds = 60.0;
  uint64_t host_memory_bytes = uint64_t{4} << 30;
  bool sanitize = false;               // run the correctness call under the memory checker when there is one
  int device_index = -1;               // which device of the host (a pool's slot); -1: the device's default
  const CancelToken* cancel = nullptr; // stop now: devices that wait on others (a Slurm job) stop them; not sent
};

// The worker-side contract: per-call results, outputs already copied to host memory, device-measured times.
struct MeasureResult {
  Outcome outcome = Outcome::Ok;
  std::string message;                 // what failed, when outcome != Ok
  std::string failed_call;             // "the correctness run", "a timed run", "a baseline run"
  std::vector<std::string> first_outputs;  // the correctness call's outputs, raw bytes per output tensor
  std::vector<std::string> last_outputs;   // the last timed call's outputs (catches replayed answers)
  std::vector<double> candidate_ns;    // device-measured, in call order
  std::vector<double> baseline_ns;
  // The library's: its correctness call's outputs and its times; library_message says why they are missing when
  // the library failed (its failure is its own, never the candidate's: the candidate's result stands).
  std::vector<std::string> library_outputs;
  std::vector<double> library_ns;
  std::string library_message;
  std::vector<char> order;             // 'b', 'c' or 'l' per timed call, in the order they ran
  std::string timer;                   // "steady_clock", "cudaEvent", "msprof Task Duration"
  std::vector<std::string> findings;   // memory-checker reports, one per finding
  std::string log;                     // what the worker printed, truncated
  double measured_bandwidth_gbps = 0;  // a copy bandwidth the worker measured, when it did (cpu)
  bool ok() const { return outcome == Outcome::Ok; }
};

struct Counter {
  std::string section;  // the profiler's table ("ArithmeticUtilization", "ncu section")
  std::string name;
  double value = 0;
  std::string unit;
};

struct ProfileResult {
  bool available = false;
  std::string reason;      // why not
  std::string tool;        // "ncu 2025.3", "msprof op"
  std::vector<Counter> counters;
  std::vector<std::string> command;
  std::string log;
};

// Where a device keeps its builds and which tools it uses; filled by the caller, defaults work.
struct DeviceConfig {
  std::filesystem::path work_dir;     // builds and scratch; empty: $TMPDIR/kope-device
  std::filesystem::path include_dir;  // the folder holding kope_kernel.h and kope_cuda.h; empty: written under work_dir
  std::filesystem::path runner;       // kope-runner; empty: found as the evaluator finds it
  std::vector<std::string> env;       // NAME=value overrides for tool look-up (tests point PATH at fakes)
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;  // registry name, with @host when remote
  virtual std::string kind() const = 0;  // cpu, cuda, ascend
  virtual Availability availability() = 0;
  virtual Capabilities capabilities() = 0;
  virtual Fingerprint fingerprint() = 0;
  virtual BuildResult build(const std::string& source, const BuildOptions& options) = 0;
  virtual MeasureResult measure(const MeasureRequest& request) = 0;
  // Vendor counters for the candidate on the request's case; not available when no profiler exists.
  virtual ProfileResult profile(const MeasureRequest& request);
  // The memory-bound floor of a case: bytes it must move / peak bandwidth; nullopt when the peak is unknown.
  virtual std::optional<double> floor_ns(const ConcreteCase& c);
};

// Bytes a case must move at least: every input read once, every output written once.
double case_bytes(const ConcreteCase& c);

using DeviceFactory = std::function<std::unique_ptr<Device>(const DeviceConfig&)>;

// Built-in kinds (cpu, cuda, ascend) are registered on first use; others may be added.
void register_device(const std::string& kind, DeviceFactory factory);
std::vector<std::string> device_kinds();

// "cpu", "cuda", "ascend", KIND@[USER@]HOST[:PORT] for a remote host, or slurm:KIND for a node of a Slurm
// cluster (kope/device/slurm.h). Throws kope::Error for an unknown kind.
std::unique_ptr<Device> make_device(const std::string& spec, const DeviceConfig& config = {});

struct DeviceSpec {
  std::string kind;
  std::string host;      // empty: local; may carry user@ and :port
  std::string executor;  // "slurm" for slurm:KIND (measured on a node of the cluster), else empty
};
DeviceSpec parse_device_spec(const std::string& spec);  // throws kope::Error on a malformed spec

// The device's own baseline source for a task: task.baselines[kind] when present, else the shipped
// resources/baselines/<kind>/<task>.<suffix>, else "" (cpu: task.baseline or the fp32 reference, as before).
std::string baseline_source(const Task& task, const std::string& kind);

// The device's library baseline for a task (issue 18): task.library[kind] when the task names one (null: none,
// task.library_why says why), else the shipped resources/library/<kind>/<task>.<suffix> with the device's
// libraries (ascend: opapi nnopbase ascendcl; cuda: ATen CUDA), else nullopt. `why` says why there is none.
std::optional<LibraryImpl> library_impl_for(const Task& task, const std::string& kind, std::string* why = nullptr);

// Prompt templates per device: resources/prompts/<kind>/<name> (embedded), overridden by $KOPE_PROMPTS_DIR/<kind>/<name>.
// Returns "" when there is none.
std::string prompt_template(const std::string& kind, const std::string& name);
std::vector<std::string> prompt_template_names(const std::string& kind);

nlohmann::json to_json(const Availability& a);
nlohmann::json to_json(const Capabilities& c);
nlohmann::json to_json(const Fingerprint& f);
// The fields to_json writes (a remote agent's or a Slurm node's answer); missing ones keep their defaults.
Fingerprint fingerprint_from_json(const nlohmann::json& j);
nlohmann::json to_json(const ProfileResult& p);

// Looks a program up in PATH (or the PATH given in `env` entries), then in `extra_dirs`; empty when absent.
std::filesystem::path find_program(const std::string& name, const std::vector<std::string>& env = {},
                                   const std::vector<std::filesystem::path>& extra_dirs = {});
// The value of NAME in `env` entries, else the process environment; nullopt when unset.
std::optional<std::string> env_value(const std::vector<std::string>& env, const std::string& name);

}  // namespace kope::device

namespace kope::device {
// The work folder of a config (created), and an include folder holding every shipped ABI header.
std::filesystem::path work_dir_for(const DeviceConfig& config);
std::filesystem::path include_dir_for(const DeviceConfig& config);
// "..." + the last n bytes.
std::string tail_text(const std::string& s, std::size_t n);
}  // namespace kope::device
