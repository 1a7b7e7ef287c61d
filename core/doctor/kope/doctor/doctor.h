// `kope doctor`: what this machine gives kope (compiler, library baseline, sandbox, caches, timer, CPU
// frequency, isolation, SMT, load, devices), each probed for real, with a verdict and what to do.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kope::doctor {

// ok: as kope wants it; info: worth knowing, changes nothing; warn: verdicts hold but are weakened;
// fail: a part of kope cannot work (a check with blocks_verdicts failing means no verdict at all).
enum class Verdict { Ok, Info, Warn, Fail };
std::string_view verdict_name(Verdict v);  // "ok", "info", "warn", "fail"
std::optional<Verdict> verdict_from_name(std::string_view name);

struct DoctorCheck {
  std::string id;     // stable: "compiler", "library-baseline", "user-namespaces", "bubblewrap", "seccomp",
                      // "cgroups", "caches", "timer", "governor", "turbo", "isolated-cores", "smt", "load", "devices"
  std::string area;   // "build", "sandbox", "timing", "devices"
  std::string title;  // "C++ compiler"
  Verdict verdict = Verdict::Info;
  bool unknown = false;          // the system hides what this check reads (a VM without cpufreq): found says which
  bool blocks_verdicts = false;  // failing, kope cannot judge at all (no compiler)
  std::string found;  // what was found, one line; text from the system has control bytes escaped
  std::string todo;   // what to do about it; empty when nothing
  std::string because;  // the phrase this check adds to the summary; empty: none
};

struct DoctorReport {
  std::vector<DoctorCheck> checks;
  std::vector<std::string> trustworthy_because;  // from the ok checks
  std::vector<std::string> weakened_because;     // from the warn and fail checks, and what could not be seen
  bool verdicts_possible() const;                // no check with blocks_verdicts failed
  const DoctorCheck* find(std::string_view id) const;
};

struct DoctorOptions {
  // Where /sys and /proc are read from for the files the doctor reads itself ("/" on a real run; a test points
  // it at a folder without them). The sandbox, compiler and device probes always look at the real system.
  std::filesystem::path root = "/";
  std::string cxx;  // the compiler to check; empty: $CXX, else c++, as kernels are built
  bool devices = true;  // probe the devices as `kope devices` does
};

// Runs every check; never throws for what the system lacks (that is a verdict), only for a bug.
DoctorReport run_doctor(const DoctorOptions& options = {});

// The two summary lists from the checks' verdicts and `because` phrases (run_doctor calls it).
void summarise(DoctorReport& report);

nlohmann::json to_json(const DoctorReport& report);
// Throws kope::Error naming the field when `j` is not a doctor report.
DoctorReport doctor_report_from_json(const nlohmann::json& j);



}  // namespace kope::doctor
