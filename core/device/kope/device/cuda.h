// The CUDA device: kernels in CUDA C++ with kope_cuda.h, built by nvcc for the present GPU into a shared object,
// run by kope-cuda-worker (CUDA events after an L2 flush, interleaved with the baseline), checked by
// compute-sanitizer and profiled by Nsight Compute where they are installed.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kope/device/device.h"

namespace kope::device {

std::unique_ptr<Device> make_cuda_device(const DeviceConfig& config);

namespace cuda {

// kope-cuda-worker built by nvcc from the embedded source (resources/cuda/kope_cuda_worker.cpp) into `work`, for
// hosts where CMake did not build it (no CUDA at configure time, remote hosts). "" with `error` set on failure.
std::filesystem::path build_worker(const std::filesystem::path& nvcc, const std::filesystem::path& include_dir,
                                   const std::filesystem::path& work, std::string* error);

// nvcc: $KOPE_NVCC, else PATH, else $CUDA_HOME/bin, /usr/local/cuda/bin.
std::filesystem::path find_nvcc(const std::vector<std::string>& env = {});

// `nvidia-smi --query-gpu=compute_cap --format=csv,noheader` output ("9.0\n9.0\n") -> "sm_90"; "" if unparsable.
std::string arch_from_compute_cap(const std::string& nvidia_smi_output);
// `nvcc --list-gpu-arch` lists compute_XX lines; whether -arch=native is accepted (nvcc >= 11.5).
bool nvcc_supports_native(const std::string& nvcc_version_output);
// "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0"
std::string nvcc_release(const std::string& nvcc_version_output);

struct ArchChoice {
  std::string flag;    // "-arch=sm_90" / "-arch=native"
  std::string source;  // "$KOPE_CUDA_ARCH", "nvidia-smi compute_cap", "nvcc -arch=native", "the default sm_90"
};
// $KOPE_CUDA_ARCH (sm_XX or native), else the GPU's compute capability from nvidia-smi, else -arch=native when
// nvcc supports it and a GPU is present, else sm_90.
ArchChoice choose_arch(const std::vector<std::string>& env = {});

// nvcc's own `file(line): error: msg` lines plus the host compiler's gcc-style `file:line:col: error: msg`.
std::vector<Diagnostic> parse_nvcc_output(const std::string& text);

// compute-sanitizer --tool memcheck output: one finding per "========= Invalid __global__ read of size 4 bytes"
// block, with its "at kernel+0x..." and address lines folded in.
std::vector<std::string> parse_sanitizer_report(const std::string& text);

// `ncu --csv --metrics ...` output: rows of "ID","Process ID",...,"Metric Name","Metric Unit","Metric Value".
std::vector<Counter> parse_ncu_csv(const std::string& text);

// nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.memory --format=csv,noheader,nounits
struct GpuInfo {
  std::string name, driver;
  uint64_t memory_mib = 0;
  double sm_clock_mhz = 0, memory_clock_mhz = 0;
};
std::vector<GpuInfo> parse_gpu_query(const std::string& csv);

// A CUDA-enabled libtorch for the ATen CUDA library baselines: $KOPE_LIBTORCH_CUDA (in `env`, else the process
// environment) naming a folder with include/ATen and lib/libtorch_cuda.so. Empty, with `why` saying what is
// missing, when there is none (Debian's libtorch is CPU-only).
std::filesystem::path find_libtorch_cuda(const std::vector<std::string>& env, std::string* why);

// nvcc flags that build a library baseline against that libtorch: its include folders, its lib folder on the
// link and run path, --no-as-needed before the `libs` (the -l flags the library names), C++17.
std::vector<std::string> aten_cuda_flags(const std::filesystem::path& prefix, const std::vector<std::string>& libs);

}  // namespace cuda
}  // namespace kope::device
