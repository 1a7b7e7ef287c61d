#include "kope/exec/paths.h"

#include <cstdlib>
#include <string>

#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"

namespace kope::exec {

namespace fs = std::filesystem;

EvalPaths EvalPaths::under(const fs::path& root) {
  EvalPaths p;
  p.build = root / "build";
  p.golden = root / "golden";
  p.jobs = root / "jobs";
  p.include = root / "include";
  std::error_code ec;
  for (const auto* d : {&p.build, &p.golden, &p.jobs, &p.include}) {
    fs::create_directories(*d, ec);
    if (ec) throw EnvError("workspace '" + root.string() + "': cannot create '" + d->string() + "': " + ec.message());
  }
  const fs::path header = p.include / "kope_kernel.h";
  const std::string text(embedded_kernel_header());
  if (read_file_or_empty(header) != text) write_file_atomic(header, text);
  p.runner = find_runner();
  return p;
}

fs::path find_runner() {
  if (const char* env = std::getenv("KOPE_RUNNER"); env && *env) return fs::absolute(env);  // the sandbox wants it
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path beside = self.parent_path() / "kope-runner";
    if (fs::exists(beside, ec)) return beside;
  }
#ifdef KOPE_RUNNER_BUILD_PATH
  if (fs::exists(KOPE_RUNNER_BUILD_PATH, ec)) return KOPE_RUNNER_BUILD_PATH;
#endif
  throw EnvError("cannot find kope-runner beside " + self.string() + " (set KOPE_RUNNER to its path)");
}

}  // namespace kope::exec
