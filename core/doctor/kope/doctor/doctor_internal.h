// The checks of `kope doctor`, shared between its source files: a view of /sys and /proc under a root, and one
// function per check.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "kope/doctor/doctor.h"

namespace kope::doctor::detail {

// Reads the system's files under `root` ("/" on a real run).
struct SysView {
  std::filesystem::path root = "/";
  std::filesystem::path at(std::string_view abs_path) const;  // root joined with "/sys/..."
  bool exists(std::string_view abs_path) const;
  // The file's first line without its newline, or nullopt when it is absent or unreadable.
  std::optional<std::string> line(std::string_view abs_path) const;
};

DoctorCheck make_check(std::string id, std::string area, std::string title);

// "unknown: /sys/... is absent (a VM usually hides it)"
std::string absent(std::string_view abs_path);

// A byte count as "48 KiB", "1 MiB", "32 MiB".
std::string bytes_text(unsigned long long bytes);

// doctor_build.cpp: the compiler and the library baseline; `cxx_path` receives the compiler's absolute path.
DoctorCheck check_compiler(const DoctorOptions& options, std::string& cxx_path);
DoctorCheck check_library(const std::string& cxx_path);
// doctor_sandbox.cpp
DoctorCheck check_user_namespaces(const SysView& sys);
DoctorCheck check_bubblewrap();
DoctorCheck check_seccomp();
DoctorCheck check_cpu_clock(const SysView& sys);
DoctorCheck check_cgroups(const SysView& sys);
DoctorCheck check_devices();
// doctor_timing.cpp
DoctorCheck check_caches(const SysView& sys);
DoctorCheck check_timer(const SysView& sys);
DoctorCheck check_governor(const SysView& sys);
DoctorCheck check_turbo(const SysView& sys);
DoctorCheck check_isolated_cores(const SysView& sys);
DoctorCheck check_smt(const SysView& sys);
DoctorCheck check_load(const SysView& sys);

}  // namespace kope::doctor::detail
