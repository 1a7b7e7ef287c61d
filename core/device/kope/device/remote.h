// Remote hosts: KIND@[USER@]HOST[:PORT] runs build, measure and profile on HOST over one multiplexed OpenSSH
// connection (the system's ssh, BatchMode, ControlMaster in a private runtime folder), with files moved and
// verified by sha256 on both sides; memory and records stay local.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kope/device/device.h"
#include "kope/base/process.h"

namespace kope::device {

std::unique_ptr<Device> make_remote_device(const std::string& kind, const std::string& host, const DeviceConfig& config);

struct SshOptions {
  std::string host;                      // [user@]host[:port]
  std::vector<std::string> extra;        // more -o options or -i KEY, e.g. from $KOPE_SSH_OPTIONS
  std::filesystem::path control_dir;     // empty: a private folder under $XDG_RUNTIME_DIR or /tmp
  double connect_timeout_seconds = 15;
  int control_persist_seconds = 300;
};

// One multiplexed SSH connection: the first command opens the master, later ones ride it.
class SshSession {
 public:
  explicit SshSession(SshOptions options);
  ~SshSession();  // closes the master (ssh -O exit)
  SshSession(const SshSession&) = delete;
  SshSession& operator=(const SshSession&) = delete;

  // Runs a shell command line on the host (quoted by the caller, see shell_quote).
  ProcessResult run(const std::string& command, double timeout_seconds = 600, const std::string& stdin_file = "");
  // Copies a local file to the host and checks its sha256 there; throws kope::Error on a mismatch.
  void put(const std::filesystem::path& local, const std::string& remote_path);
  // Copies a remote file here and checks its sha256 against the host's; throws kope::Error on a mismatch.
  void get(const std::string& remote_path, const std::filesystem::path& local);
  std::string remote_sha256(const std::string& remote_path);  // "" when the file is absent
  // `ssh -O check`: whether the master connection is up.
  bool master_alive();
  void close();

  const std::filesystem::path& control_path() const { return control_path_; }
  std::vector<std::string> base_command() const;  // ssh and its options, without the command
  // For tests: the hook called with the local temp file after a get, before its check (to corrupt it).
  void set_after_get_hook(std::function<void(const std::filesystem::path&)> hook) { after_get_ = std::move(hook); }

 private:
  SshOptions options_;
  std::string user_host_;
  std::string port_;
  std::filesystem::path control_dir_, control_path_;
  bool own_control_dir_ = false;
  std::function<void(const std::filesystem::path&)> after_get_;
};

std::string shell_quote(const std::string& s);
std::string file_sha256(const std::filesystem::path& p);  // throws kope::Error when unreadable

}  // namespace kope::device
