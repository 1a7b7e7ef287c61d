// kope_fake_tool: a stand-in external program with scripted behaviours, for testing process handling for real.
// The first argument selects the behaviour:
//   exit N             exit with code N
//   echo TEXT          print TEXT to stdout and "err:TEXT" to stderr, exit 0
//   spew N             write N bytes of 'x' to stdout
//   segv               write through a null pointer
//   abort              std::abort()
//   hang               sleep forever
//   fork-hang PIDFILE  fork a child that writes its pid to PIDFILE and sleeps forever; the parent sleeps too
//   fork-exit PIDFILE  as fork-hang, but the parent exits 0 at once, leaving the child holding stdout open
//   alloc MB           allocate and touch MB megabytes; print "ok"
//   burn               spin the CPU forever
//   pwd                print the current directory
//   env NAME           print getenv(NAME), or "(unset)"
// It has no kope dependency.

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int usage() {
  std::fprintf(stderr, "usage: kope_fake_tool exit N | echo TEXT | spew N | segv | abort | hang | fork-hang PIDFILE | "
                       "fork-exit PIDFILE | alloc MB | burn | pwd | env NAME\n");
  return 2;
}

[[noreturn]] void sleep_forever() {
  for (;;) pause();
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

// Forks a child that writes its own pid to `pidfile` (atomically, by rename) and then sleeps forever. The parent
// returns once the pid file is in place, so a test never races the child's write.
int fork_sleeper(const char* pidfile) {
  int ready[2];
  if (pipe(ready) != 0) {
    std::perror("pipe");
    return 1;
  }
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return 1;
  }
  if (pid == 0) {
    close(ready[0]);
    std::string tmp = std::string(pidfile) + ".tmp";
    std::string text = std::to_string(getpid()) + "\n";
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || !write_all(fd, text.data(), text.size()) || close(fd) != 0 || rename(tmp.c_str(), pidfile) != 0)
      _exit(1);
    char c = 1;
    (void)!write(ready[1], &c, 1);
    close(ready[1]);
    sleep_forever();
  }
  close(ready[1]);
  char c = 0;
  ssize_t got;
  do got = read(ready[0], &c, 1);
  while (got < 0 && errno == EINTR);
  close(ready[0]);
  if (got != 1) {
    std::fprintf(stderr, "fork: the child did not write %s\n", pidfile);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string mode = argv[1];
  const char* arg = argc > 2 ? argv[2] : nullptr;

  if (mode == "exit" && arg) return std::atoi(arg);

  if (mode == "echo" && arg) {
    std::printf("%s", arg);
    std::fprintf(stderr, "err:%s", arg);
    return 0;
  }

  if (mode == "spew" && arg) {
    unsigned long long left = std::strtoull(arg, nullptr, 10);
    char buf[8192];
    std::memset(buf, 'x', sizeof buf);
    while (left > 0) {
      std::size_t n = left < sizeof buf ? static_cast<std::size_t>(left) : sizeof buf;
      if (!write_all(1, buf, n)) return 1;
      left -= n;
    }
    return 0;
  }

  if (mode == "segv") {
    volatile int* p = nullptr;
    *p = 42;
    return 0;
  }

  if (mode == "abort") std::abort();

  if (mode == "hang") sleep_forever();

  if ((mode == "fork-hang" || mode == "fork-exit") && arg) {
    if (int rc = fork_sleeper(arg)) return rc;
    if (mode == "fork-exit") return 0;
    sleep_forever();
  }

  if (mode == "alloc" && arg) {
    const std::size_t bytes = static_cast<std::size_t>(std::strtoull(arg, nullptr, 10)) << 20;
    char* p = new char[bytes];
    for (std::size_t i = 0; i < bytes; i += 4096) p[i] = static_cast<char>(i);
    if (bytes) p[bytes - 1] = 1;
    volatile char sink = p[bytes / 2];
    (void)sink;
    std::printf("ok\n");
    delete[] p;
    return 0;
  }

  if (mode == "burn") {
    volatile unsigned long long n = 0;
    for (;;) n = n + 1;
  }

  if (mode == "pwd") {
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf)) {
      std::perror("getcwd");
      return 1;
    }
    std::printf("%s\n", buf);
    return 0;
  }

  if (mode == "env" && arg) {
    const char* v = std::getenv(arg);
    std::printf("%s\n", v ? v : "(unset)");
    return 0;
  }

  return usage();
}
