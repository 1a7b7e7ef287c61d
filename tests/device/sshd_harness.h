// A throwaway sshd for the tests of remote devices (test_device_remote, test_doctor_device): its own host key,
// one client key, 127.0.0.1 on a free port; skip() says why it could not start.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "kope/base/process.h"
#include "kope/device/device.h"
#include "test_support.h"

namespace kope::test {

namespace sshd_detail {

using namespace kope::device;
namespace fs = std::filesystem;

inline int free_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  int port = ntohs(a.sin_port);
  close(s);
  return port;
}

inline bool port_open(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(s);
  return ok;
}


// A throwaway sshd: its own host key, one client key, a generated sshd_config, 127.0.0.1 on a free port.
class Sshd {
 public:
  Sshd() {
    if (!fs::exists("/usr/sbin/sshd")) {
      skip_ = "/usr/sbin/sshd is not installed (apt-get install openssh-server): remote tests skipped";
      return;
    }
    if (find_program("ssh").empty() || find_program("ssh-keygen").empty()) {
      skip_ = "the OpenSSH client (ssh, ssh-keygen) is not installed: remote tests skipped";
      return;
    }
    ProcessLimits lim;
    lim.wall_seconds = 30;
    for (const char* k : {"host_key", "client_key"}) {
      ProcessResult r = run_process({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", (tmp_ / k).string()}, lim);
      if (!r.ok()) {
        skip_ = "ssh-keygen failed: " + r.err;
        return;
      }
    }
    fs::copy_file(tmp_ / "client_key.pub", tmp_ / "authorized_keys");
    port_ = free_port();
    test::write_text(tmp_ / "sshd_config",
                     "Port " + std::to_string(port_) + "\nListenAddress 127.0.0.1\nHostKey " + (tmp_ / "host_key").string() +
                         "\nPidFile " + (tmp_ / "sshd.pid").string() + "\nAuthorizedKeysFile " + (tmp_ / "authorized_keys").string() +
                         "\nUsePAM no\nStrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                         "PubkeyAuthentication yes\nPermitRootLogin prohibit-password\nMaxSessions 64\nMaxStartups 64\n"
                         "LogLevel ERROR\nSubsystem sftp internal-sftp\n");
    if (geteuid() == 0) {
      std::error_code ec;
      fs::create_directories("/run/sshd", ec);  // privilege separation folder sshd insists on as root
    }
    pid_ = fork();
    if (pid_ == 0) {
      int log = open((tmp_ / "sshd.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (log >= 0) dup2(log, 2);
      execl("/usr/sbin/sshd", "/usr/sbin/sshd", "-D", "-e", "-f", (tmp_ / "sshd_config").c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 100 && !port_open(port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!port_open(port_)) skip_ = "sshd did not start listening on 127.0.0.1:" + std::to_string(port_);
  }
  ~Sshd() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& skip() const { return skip_; }
  int port() const { return port_; }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  std::vector<std::string> client_options() const {
    return {"-i", (tmp_ / "client_key").string(), "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"};
  }
  std::string options_line() const {
    std::string s;
    for (const auto& o : client_options()) s += (s.empty() ? "" : " ") + o;
    return s;
  }
  const test::TempDir& tmp() const { return tmp_; }

 private:
  test::TempDir tmp_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::string skip_;
};


}  // namespace sshd_detail

using sshd_detail::Sshd;

}  // namespace kope::test
