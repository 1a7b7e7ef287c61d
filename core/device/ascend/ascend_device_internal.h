// The Ascend device's class, private to kope_device: ascend_device.cpp holds what it is (toolkit, board,
// fingerprint, builds), ascend_library.cpp the aclnn library baseline's build, ascend_measure.cpp how it runs
// (the worker in its sandbox, the CPU twin, `msprof op` times and counters).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kope/base/process.h"
#include "kope/device/ascend.h"

namespace kope::device {

namespace fs = std::filesystem;

// Ascend through the CANN toolkit: see ascend_device.cpp.
class AscendDevice : public Device {
 public:
  explicit AscendDevice(DeviceConfig c) : config_(std::move(c)) {}
  std::string name() const override { return "ascend"; }
  std::string kind() const override { return "ascend"; }
  Availability availability() override;
  Capabilities capabilities() override;
  Fingerprint fingerprint() override;
  BuildResult build(const std::string& source, const BuildOptions& o) override;
  MeasureResult measure(const MeasureRequest& q) override;
  ProfileResult profile(const MeasureRequest& q) override;
  std::optional<double> floor_ns(const ConcreteCase& c) override;

 private:
  static std::string trim(std::string s);  // without its trailing newlines, spaces and CRs
  const ascend::Toolkit& toolkit();

  // What set_env.sh left (it was sourced on top of config_.env), else config_.env itself.
  std::vector<std::string> tool_env() { return toolkit().found ? toolkit().env : config_.env; }

  // A worker run (or msprof op running one) in the sandbox: the job folder writable; the worker, the artifacts
  // and the toolkit folders the environment names readable; the NPU's device nodes bound; no network.
  ProcessResult run_worker(const std::vector<std::string>& argv, const fs::path& dir, const MeasureRequest& q,
                           const ProcessLimits& lim);
  const ascend::NpuSmiInfo& smi();
  std::vector<ascend::NpuChip> healthy_chips();
  std::string board_state();
  std::string soc_version();
  std::string npu_arch();
  static fs::path entry_file(const fs::path& artifact) { return fs::path(artifact.string() + ".entry"); }
  BuildResult build_direct(const std::string& source, const BuildOptions& o);
  static void finish_build(BuildResult& b, const ProcessResult& pr, const std::string& tool);
  BuildResult build_msopgen(const std::string& source, const BuildOptions& o);
  BuildResult build_twin(const std::string& source, const BuildOptions& o);
  // The aclnn library baseline: host code built against the toolkit's aclnn headers and libraries.
  BuildResult build_library(const std::string& source, const BuildOptions& o);
  static fs::path twin_file(const fs::path& artifact) { return fs::path(artifact.string() + ".twin"); }

  // kope's worker built for the CPU twin: the same source, KOPE_ASCEND_TWIN, linked with tikicpulib::<SoC>.
  fs::path ensure_twin_worker(const std::string& soc, std::string* error);

  // No board: the CPU twin's functional run, outputs only.
  MeasureResult measure_twin(const MeasureRequest& q);
  fs::path ensure_worker(std::string* error);
  void explain_acl_failure(MeasureResult& m, const ProcessResult& pr);
  std::string newest_plog();
  static std::vector<ascend::OpBasicInfo> read_op_basic_info_in(const fs::path& dir);
  std::optional<std::vector<double>> msprof_times(const fs::path& worker, const fs::path& dir, const std::string& role,
                                                  const std::string& entry, const MeasureRequest& q, std::string* why,
                                                  std::string* log);

  DeviceConfig config_;
  std::optional<ascend::Toolkit> tk_;
  std::optional<ascend::NpuSmiInfo> smi_;
};

}  // namespace kope::device
