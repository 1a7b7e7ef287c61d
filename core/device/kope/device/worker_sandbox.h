// Device workers (kope-cuda-worker, kope-ascend-worker, the tools they run) start through the sandbox like the
// CPU's: no network, a clean environment, a private view of the filesystem with the job folder writable, and
// only the accelerator's own device nodes bound (SandboxSpec::dev_paths).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kope/base/process.h"
#include "kope/exec/sandbox.h"

namespace kope::device {

// The device nodes a kind needs, as patterns ("/dev/nvidia*": a trailing * matches any suffix).
std::vector<std::string> cuda_device_patterns();    // /dev/nvidia*, /dev/nvidiactl, /dev/nvidia-uvm*, /dev/nvidia-caps
std::vector<std::string> ascend_device_patterns();  // /dev/davinci*, /dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc
// The nodes present here that match `patterns`, sorted.
std::vector<std::filesystem::path> device_nodes(const std::vector<std::string>& patterns);

struct WorkerSandbox {
  std::vector<std::string> argv;             // argv[0]: the worker (or a tool), an absolute path
  std::filesystem::path job_dir;             // read-write, the working folder
  std::vector<std::filesystem::path> ro;     // readable: the worker's folder, the artifacts, toolkit folders
  std::vector<std::string> dev_patterns;     // cuda_device_patterns(), ascend_device_patterns()
  std::vector<std::string> env;              // the child's whole environment ("NAME=value")
  uint64_t memory_bytes = 0;                 // the tree; 0: unlimited (device runtimes map a lot of address space)
};

// A worker's whole environment: LC_ALL=C, HOME=`home`, PATH, LD_LIBRARY_PATH and the visible-devices variables
// from `overrides` or this process, then every other entry of `overrides`.
std::vector<std::string> worker_env(const std::vector<std::string>& overrides, const std::filesystem::path& home);

// The SandboxSpec for `w`: its paths, the device nodes present, and the folders the environment names for
// the toolchain (PATH and LD_LIBRARY_PATH entries, *_HOME/*_PATH/ASCEND_*/CUDA_* values) outside the system's.
exec::SandboxSpec worker_sandbox_spec(const WorkerSandbox& w);

// sandbox_run, answered as a ProcessResult (what read_worker_result reads). A sandbox that cannot start is a
// result with started = false and the reason.
ProcessResult run_sandboxed(const exec::SandboxSpec& spec, double wall_seconds, std::size_t max_captured_bytes = 256 << 10);

}  // namespace kope::device
