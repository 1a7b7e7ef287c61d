// Helpers shared by the tests: scratch folders, small task files, the evaluation paths of a scratch workspace.
#pragma once

#include <cstdlib>

#include <filesystem>
#include <string>
#include <vector>

#include "kope/model/report.h"
#include "kope/model/task.h"

// Skips are for missing hardware only (a GPU, an NPU, and the vendor toolkits that come with one, which are not
// Debian packages), or for a daemon the test starts that cannot run on this machine at all (slurmd without root). Everything else a test needs is installed by scripts/install-deps.sh or started by the test
// itself, so its absence fails the test; tests/check_skips.sh, part of the test command, fails on any other
// GTEST_SKIP.
#define KOPE_SKIP_WITHOUT_HARDWARE(why) GTEST_SKIP() << "no hardware here: " << why
// Where a daemon the test starts itself cannot run at all on this machine (slurmd without root), whatever is
// installed; a missing package is never such a reason.
#define KOPE_SKIP_CANNOT_START(why) GTEST_SKIP() << "cannot start here: " << why
// Where a test runs a deliberately degraded sandbox mode (KOPE_SANDBOX=...), the mechanism it checks is absent
// on purpose: the report must then name it as missing, with the reason, and the test checks no further.
#define KOPE_RETURN_IF_REPORTED_MISSING(iso, mech)                                               \
  if (!active(iso, mech)) {                                                                      \
    EXPECT_FALSE(missing_reason(iso, mech).empty()) << mech << " is neither in force nor reported missing: " \
                                                    << (iso).summary();                          \
    return;                                                                                      \
  }


namespace kope::test {

// Sets an environment variable for one scope (nullptr: unsets it), and puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_, old_;
  bool had_ = false;
};

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& rel) const { return path_ / rel; }

 private:
  std::filesystem::path path_;
};

void write_text(const std::filesystem::path& p, const std::string& text);

// A small fp32 elementwise task, y = 2 * x + 1, with three small cases.
std::string affine_task_json();
Task affine_task();

// A kernel for the affine task whose body is `body` (it sees x, y and n).
std::string affine_kernel(const std::string& body, const std::string& header_lines = "");

// Quick evaluation settings for tests.
EvalOptions quick_options();

// C++ that g++ takes about `steps` x 0.4 s to compile here (constant evaluation, each step under the compiler's
// constexpr loop limit), for tests that watch or time out a compile.
std::string slow_to_compile(int steps);

// Live processes (not this one) whose command line contains every one of `parts` (from /proc/*/cmdline; a
// zombie has none, so it does not count).
std::vector<int> processes_mentioning(const std::vector<std::string>& parts);

}  // namespace kope::test
