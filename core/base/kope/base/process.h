// Runs a command in its own process group under time and memory limits; the group dies on timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kope {

struct ProcessLimits {
  double wall_seconds = 30.0;           // the whole process group is killed past this
  uint64_t address_space_bytes = 0;     // RLIMIT_AS; 0 leaves it unlimited
  uint64_t cpu_seconds = 0;             // RLIMIT_CPU; 0 leaves it unlimited
  uint64_t max_file_bytes = 0;          // RLIMIT_FSIZE; 0 leaves it unlimited
  std::size_t max_captured_bytes = 1 << 20;  // per stream; the rest is dropped and counted
};

struct ProcessResult {
  bool started = false;     // false: fork or exec failed, see `error`
  bool timed_out = false;
  int exit_code = -1;       // valid when exited normally
  int term_signal = 0;      // the signal that ended it, 0 if it exited
  std::string out;  // captured output, invalid UTF-8 bytes escaped as \xNN (see text.h)
  std::string err;
  std::size_t dropped_bytes = 0;
  double wall_seconds = 0.0;
  std::string error;

  bool ok() const { return started && !timed_out && term_signal == 0 && exit_code == 0; }
  // "exit 3", "signal 11 (SIGSEGV)", "timed out after 2.0 s", "could not start: ..."
  std::string describe() const;
};

// argv[0] is a path or a name looked up in PATH. `env_extra` entries are "NAME=value".
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessLimits& limits,
                          const std::filesystem::path& cwd = {},
                          const std::vector<std::string>& env_extra = {});

std::string signal_name(int sig);

}  // namespace kope
