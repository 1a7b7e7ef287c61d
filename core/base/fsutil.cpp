#include "kope/base/fsutil.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kope/base/error.h"

namespace kope {

std::string read_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(what + " '" + path.string() + "': cannot be read (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_file_or_empty(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const std::filesystem::path& path, const std::string& data) {
  std::filesystem::path tmp = path;
  tmp += ".tmp" + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw EnvError("cannot write '" + tmp.string() + "': " + std::strerror(errno));
  const char* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      throw EnvError("cannot write '" + tmp.string() + "': " + std::strerror(e));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 && errno != EINVAL) {
    int e = errno;
    close(fd);
    unlink(tmp.c_str());
    throw EnvError("cannot write '" + tmp.string() + "': " + std::strerror(e));
  }
  if (close(fd) != 0) {
    int e = errno;
    unlink(tmp.c_str());
    throw EnvError("cannot write '" + tmp.string() + "': " + std::strerror(e));
  }
  if (rename(tmp.c_str(), path.c_str()) != 0)
    throw EnvError("cannot rename '" + tmp.string() + "' to '" + path.string() + "': " + std::strerror(errno));
}

}  // namespace kope
