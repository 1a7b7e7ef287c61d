// The Ascend device's library baseline (issue 18): host code calling CANN's aclnn operators (the two-phase
// aclnnXxxGetWorkspaceSize / aclnnXxx through include/aclnnop/), built with the toolkit's host compiler into a
// shared object with kope_ascend_kernel, linked against libopapi, libnnopbase and libascendcl from lib64.
#include "ascend_device_internal.h"
#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"

namespace kope::device {

using namespace ascend;

// o.flags carry the library's -I folders and -l libraries (the eval's library_candidate_flags); the -l ones go
// after the source, where the linker needs them. The toolkit's include/ (acl/, aclnn/, aclnnop/) and lib64/
// come first. No .entry file: msprof times the library without --kernel-name (the operators' kernel names are
// CANN's own), which profiles the first kernel each call launches.
BuildResult AscendDevice::build_library(const std::string& source, const BuildOptions& o) {
  BuildResult b;
  const Toolkit& tk = toolkit();
  if (!tk.found || tk.bisheng.empty()) {
    b.error = "cannot build the aclnn library baseline: " + (tk.found ? tk.reason + ", but without bisheng" : tk.reason);
    return b;
  }
  std::vector<std::string> head, libs;
  for (const auto& f : o.flags) (f.rfind("-l", 0) == 0 ? libs : head).push_back(f);
  std::string key_material = source + '\0' + tk.version + '\0' + tk.home.string();
  for (const auto& f : o.flags) key_material += '\0' + f;
  const fs::path dir = (o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir) /
                       ("ascend-lib-" + sha256_hex(key_material).substr(0, 24));
  fs::create_directories(dir);
  b.artifact = dir / "library.so";
  // bisheng without -xcce compiles host code as clang++ does (ASCEND_TOOLS.md: the worker is built so too).
  b.command = {tk.bisheng.string(), "-shared", "-fPIC", "-O2", "-std=c++17", "-I" + include_dir_for(config_).string(),
               "-I" + (tk.home / "include").string()};
  b.command.insert(b.command.end(), head.begin(), head.end());
  b.command.insert(b.command.end(), {(dir / "library.cpp").string(), "-L" + (tk.home / "lib64").string(),
                                     "-Wl,-rpath," + (tk.home / "lib64").string()});
  b.command.insert(b.command.end(), libs.begin(), libs.end());
  b.command.insert(b.command.end(), {"-o", (dir / "library.so.tmp").string()});
  if (fs::exists(b.artifact)) {
    b.ok = b.cached = true;
    return b;
  }
  std::string display = o.display_name;
  for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
  write_file_atomic(dir / "library.cpp", "#line 1 \"" + display + "\"\n" + source);
  ProcessLimits lim;
  lim.wall_seconds = o.timeout_seconds;
  lim.max_captured_bytes = 256 << 10;
  finish_build(b, run_process(b.command, lim, dir, tool_env()), "bisheng (host)");
  if (!b.ok) return b;
  std::error_code ec;
  fs::rename(dir / "library.so.tmp", b.artifact, ec);
  if (ec) {
    b.ok = false;
    b.error = "cannot place the built library at " + b.artifact.string() + ": " + ec.message();
  }
  return b;
}

}  // namespace kope::device
