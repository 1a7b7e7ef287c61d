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
//   cat PATH           print the file's first line, or "cannot open: <reason>"
//   ls PATH            print the folder's entries, or "cannot list: <reason>"
//   readfd N           copy what inherited descriptor N holds to stdout
//   uid                print getuid()
//   connect KIND ARG   try a tcp (ARG: port on 127.0.0.1), udp (port) or unix (path) socket and send "hi";
//                      print "connected" or "denied: <reason>"
//   setns PATH         try setns() into the namespace file PATH; print "entered" or "denied: <reason>"
//   heartbeat FILE     double-fork a setsid grandchild that appends a byte to FILE every 10 ms for ever; the
//                      parent sleeps
//   fork-bomb          fork sleeping children until fork fails (at most 2000); print "forked N: <reason>"
//   children N MB      fork N children that each allocate and touch MB megabytes, then hold them for 1 s;
//                      print "ok K of N" for the K that exited 0
//   spawn PATH         execve PATH; print "denied: <reason>" if that fails
// It has no kope dependency.

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int usage() {
  std::fprintf(stderr, "usage: kope_fake_tool exit N | echo TEXT | spew N | segv | abort | hang | fork-hang PIDFILE | "
                       "fork-exit PIDFILE | alloc MB | burn | pwd | env NAME | cat PATH | ls PATH | readfd N | uid | connect KIND ARG | "
                       "setns PATH | heartbeat FILE | fork-bomb | children N MB | spawn PATH\n");
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

  if (mode == "cat" && arg) {
    FILE* f = std::fopen(arg, "r");
    if (!f) {
      std::printf("cannot open: %s\n", std::strerror(errno));
      return 1;
    }
    char line[4096] = {0};
    if (std::fgets(line, sizeof line, f)) std::printf("%s", line);
    std::fclose(f);
    return 0;
  }

  if (mode == "ls" && arg) {
    DIR* d = opendir(arg);
    if (!d) {
      std::printf("cannot list: %s\n", std::strerror(errno));
      return 1;
    }
    while (dirent* e = readdir(d)) std::printf("%s\n", e->d_name);
    closedir(d);
    return 0;
  }

  if (mode == "readfd" && arg) {
    char buf[4096];
    ssize_t n;
    while ((n = read(std::atoi(arg), buf, sizeof buf)) > 0) write_all(1, buf, static_cast<std::size_t>(n));
    if (n < 0) std::printf("cannot read: %s\n", std::strerror(errno));
    return n < 0;
  }

  if (mode == "uid") {
    std::printf("%d\n", static_cast<int>(getuid()));
    return 0;
  }

  if (mode == "connect" && arg && argc > 3) {
    const std::string kind = arg;
    int fd = socket(kind == "unix" ? AF_UNIX : AF_INET, kind == "udp" ? SOCK_DGRAM : SOCK_STREAM, 0);
    if (fd < 0) {
      std::printf("denied: socket: %s\n", std::strerror(errno));
      return 1;
    }
    int rc;
    if (kind == "unix") {
      sockaddr_un a{};
      a.sun_family = AF_UNIX;
      std::snprintf(a.sun_path, sizeof a.sun_path, "%s", argv[3]);
      rc = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    } else {
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_port = htons(static_cast<uint16_t>(std::atoi(argv[3])));
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      rc = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    if (rc != 0 || send(fd, "hi", 2, 0) != 2) {
      std::printf("denied: connect: %s\n", std::strerror(errno));
      return 1;
    }
    std::printf("connected\n");
    return 0;
  }

  if (mode == "setns" && arg) {
    int fd = open(arg, O_RDONLY);
    if (fd < 0) {
      std::printf("denied: open: %s\n", std::strerror(errno));
      return 1;
    }
    if (setns(fd, 0) != 0) {
      std::printf("denied: setns: %s\n", std::strerror(errno));
      return 1;
    }
    std::printf("entered\n");
    return 0;
  }

  if (mode == "heartbeat" && arg) {
    std::fflush(nullptr);
    pid_t child = fork();
    if (child == 0) {
      if (fork() != 0) _exit(0);
      setsid();
      for (;;) {
        int fd = open(arg, O_WRONLY | O_CREAT | O_APPEND, 0666);
        if (fd >= 0) {
          (void)!write(fd, "x", 1);
          close(fd);
        }
        usleep(10000);
      }
    }
    waitpid(child, nullptr, 0);
    sleep_forever();
  }

  if (mode == "fork-bomb") {
    int n = 0;
    int err = 0;
    for (; n < 2000; ++n) {
      pid_t p = fork();
      if (p < 0) {
        err = errno;
        break;
      }
      if (p == 0) sleep_forever();
    }
    std::printf("forked %d: %s\n", n, err ? std::strerror(err) : "no failure");
    std::fflush(nullptr);
    kill(0, SIGKILL);
    return 0;
  }

  if (mode == "children" && arg && argc > 3) {
    const int n = std::atoi(arg);
    const std::size_t bytes = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10)) << 20;
    std::fflush(nullptr);
    for (int i = 0; i < n; ++i) {
      if (fork() == 0) {
        char* p = static_cast<char*>(std::malloc(bytes));
        if (!p) _exit(3);
        for (std::size_t k = 0; k < bytes; k += 4096) p[k] = 1;
        sleep(1);
        _exit(0);
      }
    }
    int ok = 0, status = 0;
    while (wait(&status) > 0)
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) ++ok;
    std::printf("ok %d of %d\n", ok, n);
    return 0;
  }

  if (mode == "spawn" && arg) {
    char* args[] = {argv[2], nullptr};
    execv(arg, args);
    std::printf("denied: %s\n", std::strerror(errno));
    return 1;
  }

  return usage();
}
