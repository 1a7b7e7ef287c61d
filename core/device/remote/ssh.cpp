// One multiplexed OpenSSH connection per host: the system's ssh client, BatchMode, a ControlMaster socket in a
// private folder, and file transfers through `cat` verified by sha256 on both sides.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "kope/device/remote.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"

namespace kope::device {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string file_sha256(const fs::path& p) { return sha256_hex(read_file(p, "file to checksum")); }

SshSession::SshSession(SshOptions options) : options_(std::move(options)) {
  // [user@]host[:port]; an IPv6 literal would need brackets, which we do not take.
  const std::string& h = options_.host;
  const auto at = h.rfind('@');
  std::string hostpart = at == std::string::npos ? h : h.substr(at + 1);
  if (auto colon = hostpart.rfind(':'); colon != std::string::npos) {
    port_ = hostpart.substr(colon + 1);
    hostpart = hostpart.substr(0, colon);
    if (port_.empty()) throw Error("host \"" + h + "\": no port after ':'");
    for (char ch : port_)
      if (!std::isdigit(static_cast<unsigned char>(ch))) throw Error("host \"" + h + "\": the port is not a number");
  }
  if (hostpart.empty() || hostpart[0] == '-') throw Error("host \"" + h + "\": not a host name");
  user_host_ = (at == std::string::npos ? "" : h.substr(0, at + 1)) + hostpart;
  control_dir_ = options_.control_dir;
  if (control_dir_.empty()) {
    const char* rt = std::getenv("XDG_RUNTIME_DIR");
    std::string base = (rt && *rt && access(rt, W_OK) == 0) ? rt : "/tmp";
    std::string tmpl = base + "/kope-ssh-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw Error("cannot create a private folder for the SSH control socket under " + base);
    control_dir_ = tmpl;
    own_control_dir_ = true;
  }
  chmod(control_dir_.c_str(), 0700);
  // %C: a hash of the connection, short enough for a socket path.
  control_path_ = control_dir_ / "cm-%C";
}

SshSession::~SshSession() {
  try {
    close();
  } catch (...) {
  }
  if (own_control_dir_) {
    std::error_code ec;
    fs::remove_all(control_dir_, ec);
  }
}

std::vector<std::string> SshSession::base_command() const {
  std::vector<std::string> cmd = {"ssh",
                                  "-o", "BatchMode=yes",
                                  "-o", "ControlMaster=auto",
                                  "-o", "ControlPath=" + control_path_.string(),
                                  "-o", "ControlPersist=" + std::to_string(options_.control_persist_seconds),
                                  "-o", "ConnectTimeout=" + std::to_string(static_cast<int>(options_.connect_timeout_seconds)),
                                  "-o", "ServerAliveInterval=15"};
  if (!port_.empty()) cmd.insert(cmd.end(), {"-p", port_});
  cmd.insert(cmd.end(), options_.extra.begin(), options_.extra.end());
  return cmd;
}

ProcessResult SshSession::run(const std::string& command, double timeout_seconds, const std::string& stdin_file) {
  std::vector<std::string> argv = base_command();
  argv.insert(argv.end(), {"--", user_host_, command});
  ProcessLimits lim;
  lim.wall_seconds = timeout_seconds;
  lim.max_captured_bytes = 4 << 20;
  if (stdin_file.empty()) {
    argv.insert(argv.begin() + 1, "-n");  // no stdin: ssh must not read ours
    return run_process(argv, lim);
  }
  // ssh reads the file as its stdin: sh redirects, so no quoting of the file name is needed.
  std::vector<std::string> sh = {"sh", "-c", "exec \"$@\" < \"$0\"", stdin_file};
  sh.insert(sh.end(), argv.begin(), argv.end());
  return run_process(sh, lim);
}

std::string SshSession::remote_sha256(const std::string& remote_path) {
  ProcessResult r = run("sha256sum " + shell_quote(remote_path) + " 2>/dev/null || true", 120);
  if (!r.ok()) throw Error("ssh " + user_host_ + ": cannot checksum " + remote_path + " (" + r.describe() + "): " + r.err);
  return r.out.size() >= 64 ? r.out.substr(0, 64) : "";
}

// One round trip each way (a login shell on the host can cost a second per command): the host checks what it
// received before placing it, and says the checksum of what it sends after the bytes, on stderr.
void SshSession::put(const fs::path& local, const std::string& remote_path) {
  const std::string want = file_sha256(local);
  const std::string tmp = shell_quote(remote_path + ".part"), dest = shell_quote(remote_path);
  // sh -c: the host's login shell may not be a POSIX one.
  ProcessResult r = run("sh -c " + shell_quote("cat > " + tmp + " && h=$(sha256sum < " + tmp + ") && h=${h%% *} && "
                                               "echo \"kope-sha256 $h\" && if [ \"$h\" = " + want + " ]; then mv -f " +
                                               tmp + " " + dest + "; else rm -f " + tmp + "; fi"),
                        600, local.string());
  if (!r.ok()) throw Error("ssh " + user_host_ + ": copying " + local.string() + " to " + remote_path + " failed (" + r.describe() + "): " + r.err);
  const auto at = r.out.rfind("kope-sha256 ");
  const std::string got = at == std::string::npos ? "" : r.out.substr(at + 12, 64);
  if (got != want)
    throw Error("ssh " + user_host_ + ": checksum mismatch after copying " + local.string() + " to " + remote_path +
                " (local sha256 " + want + ", remote " + (got.empty() ? "none" : got) + "); nothing was placed there");
}

void SshSession::get(const std::string& remote_path, const fs::path& local) {
  const fs::path tmp = local.string() + ".part";
  const std::string q = shell_quote(remote_path);
  std::vector<std::string> argv = base_command();
  argv.insert(argv.begin() + 1, "-n");
  argv.insert(argv.end(), {"--", user_host_,
                           "sh -c " + shell_quote("[ -f " + q + " ] || { echo \"kope: no such file\" >&2; exit 3; }; cat " + q +
                                                  " && h=$(sha256sum < " + q + ") && echo \"kope-sha256 ${h%% *}\" >&2")});
  std::vector<std::string> sh = {"sh", "-c", "exec \"$@\" > \"$0\"", tmp.string()};
  sh.insert(sh.end(), argv.begin(), argv.end());
  ProcessLimits lim;
  lim.wall_seconds = 600;
  ProcessResult r = run_process(sh, lim);
  std::error_code ec;
  if (!r.ok()) {
    fs::remove(tmp, ec);
    if (r.exit_code == 3 && r.err.find("kope: no such file") != std::string::npos)
      throw Error("ssh " + user_host_ + ": " + remote_path + " does not exist on the host");
    throw Error("ssh " + user_host_ + ": copying " + remote_path + " here failed (" + r.describe() + "): " + r.err);
  }
  const auto at = r.err.rfind("kope-sha256 ");
  const std::string want = at == std::string::npos ? "" : r.err.substr(at + 12, 64);
  if (after_get_) after_get_(tmp);
  const std::string got = file_sha256(tmp);
  if (got != want) {
    fs::remove(tmp, ec);
    throw Error("ssh " + user_host_ + ": checksum mismatch copying " + remote_path + " to " + local.string() +
                " (remote sha256 " + (want.empty() ? "not said" : want) + ", received " + got + ")");
  }
  fs::rename(tmp, local, ec);
  if (ec) throw Error("cannot place " + local.string() + ": " + ec.message());
}

bool SshSession::master_alive() {
  std::vector<std::string> argv = base_command();
  argv.insert(argv.end(), {"-O", "check", "--", user_host_});
  ProcessLimits lim;
  lim.wall_seconds = 20;
  return run_process(argv, lim).ok();
}

void SshSession::close() {
  std::vector<std::string> argv = base_command();
  argv.insert(argv.end(), {"-O", "exit", "--", user_host_});
  ProcessLimits lim;
  lim.wall_seconds = 20;
  run_process(argv, lim);
}

}  // namespace kope::device
