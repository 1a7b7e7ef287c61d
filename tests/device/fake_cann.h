// The fake CANN installation the Ascend tests run against (tests/device/fake_ascend): a toolkit tree whose tools
// are the fake programs, for test_device_ascend and test_ascend_kernels.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "kope/device/device.h"
#include "test_support.h"

namespace kope::test {

namespace fs = std::filesystem;

inline const std::filesystem::path kFakeAscendData = std::filesystem::path(KOPE_FAKE_ASCEND_DIR) / "data";

// A fake toolkit tree: ascend-toolkit/{set_env.sh, latest/{version.cfg, <arch>-linux/*.info, bin/msprof,
// compiler/ccec_compiler/bin/bisheng, tools/msopgen/bin/msopgen, include/{acl,aclnn,aclnnop}/,
// lib64/{libascendcl,libnnopbase,libopapi}.so}}, and npu-smi in a separate sbin folder as the driver installs it.
struct FakeCann {
  TempDir tmp;
  fs::path root = tmp / "Ascend/ascend-toolkit";
  fs::path latest = root / "latest";
  fs::path sbin = tmp / "sbin";

  FakeCann() {
    for (const auto& d : {latest / "bin", latest / "compiler/ccec_compiler/bin", latest / "tools/msopgen/bin",
                          latest / "lib64", latest / "x86_64-linux", sbin, tmp / "home", tmp / "work"})
      fs::create_directories(d);
    fs::copy_file(fs::path(KOPE_FAKE_ASCEND_DIR) / "set_env.sh", root / "set_env.sh");
    write_text(latest / "version.cfg", "# version: 1.0\nruntime_running_version=[7.6.0.1.220:8.0.0]\n"
                                             "toolkit_installed_version=[7.6.0.1.220:8.0.0]\n");
    write_text(latest / "x86_64-linux/ascend_toolkit_install.info",
                     "package_name=Ascend-cann-toolkit\nversion=8.3.RC2\ninnerversion=V100R001C23SPC001B238\narch=x86_64\n"
                     "os=linux\npath=" + latest.string() + "\n");
    fs::copy(fs::path(KOPE_FAKE_ASCEND_DIR) / "include", latest / "include", fs::copy_options::recursive);
    fs::copy_file(KOPE_FAKE_ASCENDCL, latest / "lib64/libascendcl.so");
    fs::copy_file(KOPE_FAKE_NNOPBASE, latest / "lib64/libnnopbase.so");
    fs::copy_file(KOPE_FAKE_OPAPI, latest / "lib64/libopapi.so");
    fs::create_symlink(KOPE_FAKE_ASCEND, latest / "bin/msprof");
    fs::create_symlink(KOPE_FAKE_ASCEND, latest / "compiler/ccec_compiler/bin/bisheng");
    fs::create_symlink(KOPE_FAKE_ASCEND, latest / "tools/msopgen/bin/msopgen");
    fs::create_symlink(KOPE_FAKE_ASCEND, sbin / "npu-smi");
  }

  // The CPU twin's tikicpulib package under tools/tikicpulib.
  void install_twin() const {
    fs::copy(fs::path(KOPE_FAKE_ASCEND_DIR) / "tikicpulib", latest / "tools/tikicpulib", fs::copy_options::recursive);
  }

  device::DeviceConfig config(const std::vector<std::string>& more = {}) const {
    device::DeviceConfig c;
    c.work_dir = tmp / "work";
    c.env = {"ASCEND_HOME_PATH=" + latest.string(), "PATH=" + sbin.string() + ":" + std::getenv("PATH"),
             "FAKE_ASCEND_DATA=" + kFakeAscendData.string(), "HOME=" + (tmp / "home").string(),
             "ASCEND_PROCESS_LOG_PATH=" + (tmp / "log").string()};
    c.env.insert(c.env.end(), more.begin(), more.end());
    return c;
  }
};

}  // namespace kope::test
