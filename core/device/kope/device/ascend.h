// The Ascend NPU device (CANN): toolkit discovery, npu-smi parsing, bisheng and msOpGen builds, msprof op timing
// and counters, aclError outcomes. Written to CANN's documented command lines and formats
// (shared/docs/ASCEND_TOOLS.md); tested only against the fakes in tests/fake_ascend, never on a real board.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/device/device.h"

namespace kope::device {

std::unique_ptr<Device> make_ascend_device(const DeviceConfig& config);

namespace ascend {

// ---- the toolkit --------------------------------------------------------------------------------------------
struct Toolkit {
  bool found = false;
  std::string reason;                 // why not found, or where it was
  std::filesystem::path home;         // ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME (the `latest` folder)
  std::filesystem::path set_env;      // the set_env.sh that was sourced
  std::string version;                // "8.3.RC2" from *_install.info, else version.cfg's
  std::string arch;                   // aarch64, x86_64
  std::vector<std::string> env;       // the environment set_env.sh produced (NAME=value), for every tool run
  std::filesystem::path bisheng, msprof, msopgen, npu_smi;
  std::filesystem::path tikicpulib_cmake;  // tools/tikicpulib/lib/cmake when the CPU twin is installed
};

// $ASCEND_INSTALL_PATH, $ASCEND_HOME_PATH, /usr/local/Ascend/ascend-toolkit/latest, $HOME/Ascend/ascend-toolkit/latest,
// then /usr/local/Ascend/cann/ (CANN 8.5+); `env` entries override the process environment.
Toolkit find_toolkit(const std::vector<std::string>& env = {});

// Runs `bash -c 'source SCRIPT >/dev/null 2>&1 && env -0'` and returns the environment it leaves; on failure
// returns {} and sets `error`.
std::vector<std::string> source_env_script(const std::filesystem::path& script, const std::vector<std::string>& env,
                                           std::string* error);

// version.cfg: `toolkit_installed_version=[7.6.0.1.220:8.0.0]` -> "8.0.0" (the part after ':'), else the whole.
std::string parse_version_cfg(const std::string& text);
// ascend_toolkit_install.info: `version=8.3.RC2`, `arch=aarch64`.
std::map<std::string, std::string> parse_install_info(const std::string& text);

// ---- npu-smi ------------------------------------------------------------------------------------------------
struct NpuChip {
  int npu = -1;
  int chip = -1;
  int phy_id = -1;              // A3 boards only
  std::string name;             // "910B3", "Ascend910"
  std::string health;           // OK, Warning, Alarm, Critical...
  std::optional<double> power_w;
  std::optional<int> temp_c;
  std::string bus_id;
  std::optional<int> aicore_pct;
  uint64_t memory_used_mb = 0, memory_total_mb = 0;
  uint64_t hbm_used_mb = 0, hbm_total_mb = 0;
  uint64_t hugepages_used = 0, hugepages_total = 0;
};
struct NpuProcess {
  int npu = -1, chip = -1;
  long pid = 0;
  std::string name;
  uint64_t memory_mb = 0;
};
struct NpuSmiInfo {
  bool ok = false;
  std::string error;             // "could not parse npu-smi info: line 5: ..." naming the line
  std::string version;           // npu-smi's version
  std::vector<NpuChip> chips;
  std::vector<NpuProcess> processes;
  std::vector<int> idle_npus;    // "No running processes found in NPU N"
};
NpuSmiInfo parse_npu_smi_info(const std::string& text);

// SoC of a chip name: "910B3" -> "Ascend910B3"; A3's "Ascend910" stays (use the Phy-ID table or `-t board`).
std::string soc_version_for(const std::string& chip_name);
// bisheng --npu-arch for a SoC: Ascend910B*, Ascend910_93* -> dav-2201; Ascend950* -> dav-3510;
// Ascend310P* -> dav-2002 (unverified). "" when unknown.
std::string npu_arch_for(const std::string& soc_version);

// ---- aclError -----------------------------------------------------------------------------------------------
struct AclError {
  int code = 0;
  std::string name;  // ACL_ERROR_RT_AICORE_EXCEPTION
  Outcome outcome = Outcome::LaunchError;
  int worker_exit = 8;  // the WorkerExit the Ascend worker uses for it
};
std::optional<AclError> acl_error(int code);
// The first "EZ9999" (or other E*9999 inner-error) message in a log, with its continuation lines; "" if none.
std::string inner_error_message(const std::string& log);
// An aclError code printed in a log: "error code is 507015", "ret=507015", "aclError 507015"; nullopt if none.
std::optional<int> find_acl_error_code(const std::string& log);

// ---- msprof op ------------------------------------------------------------------------------------------------
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // a trailing empty field (the trailing comma) is dropped
  std::optional<std::size_t> column(const std::vector<std::string>& names) const;  // first match, case-insensitive
};
CsvTable parse_csv(const std::string& text);

struct OpBasicInfo {
  std::string op_name, op_type;
  double task_duration_us = 0;
  int block_dim = 0;
  std::optional<int> mix_block_dim;  // NA -> nullopt
  int device_id = -1;
  long pid = 0;
  std::optional<double> current_freq_mhz, rated_freq_mhz;
};
// Reads every row of an OpBasicInfo*.csv; throws kope::Error naming the file and the missing column.
std::vector<OpBasicInfo> read_op_basic_info(const std::filesystem::path& csv);

// The newest OPPROF_<14 digits>_<16 letters> folder under `output` (by its timestamp, then mtime); empty if none.
std::filesystem::path newest_opprof_dir(const std::filesystem::path& output);
// Every folder below `opprof` that holds an OpBasicInfo*.csv (the folder itself, <Op>/<launch>/, device<N>/...),
// in launch order.
std::vector<std::filesystem::path> opprof_result_dirs(const std::filesystem::path& opprof);
// Counters of one result folder: every numeric cell of ArithmeticUtilization, Memory, MemoryL0, MemoryUB,
// PipeUtilization, L2Cache, ResourceConflictRatio (the unit from the column header's "(...)").
std::vector<Counter> read_opprof_counters(const std::filesystem::path& dir);

std::vector<std::string> msprof_op_command(const std::filesystem::path& msprof, const std::string& kernel_name,
                                           int launch_count, int warmup, const std::filesystem::path& output,
                                           const std::vector<std::string>& app);

// ---- builds ---------------------------------------------------------------------------------------------------
// The name of the first `__global__ __aicore__ void NAME(` in a source; "" when there is none.
std::string kernel_entry_name(const std::string& source);
std::vector<std::string> bisheng_command(const Toolkit& tk, const std::string& npu_arch,
                                         const std::filesystem::path& source, const std::filesystem::path& out,
                                         const std::vector<std::string>& include_dirs,
                                         const std::vector<std::string>& flags);
// bisheng's clang-style diagnostics, also when wrapped by ascendc.cmake's "Output of ascend_compiler:" text.
std::vector<Diagnostic> parse_bisheng_output(const std::string& text);
// An msOpGen op.json for a case: one operator, its tensors as required inputs/outputs, ND format.
nlohmann::json op_json_for(const std::string& op_type, const ConcreteCase& c);
std::vector<std::string> msopgen_command(const Toolkit& tk, const std::filesystem::path& op_json,
                                         const std::string& soc_version, const std::filesystem::path& out_dir);

}  // namespace ascend
}  // namespace kope::device
