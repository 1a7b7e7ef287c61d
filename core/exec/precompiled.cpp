// The precompiled prelude of trusted builds (see compiler_internal.h).
//
// A cache folder per prelude key (compiler, flags without the link-only ones, the prelude's text) holds:
//   src/prelude.h      the prelude's lines, the file builds name with -include
//   src/prelude.h.gch  GCC's precompiled header of it, placed last, so its presence means "built"
//   deps               "size mtime_ns path" of every header it read, checked before each use
// GCC itself checks the flags and the compiler; it does not notice a header that changed (an upgraded libtorch),
// which is what `deps` is for. Builds, checks and rebuilds hold an exclusive flock on `<key>.lock`.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "compiler_internal.h"
#include "kope/base/cancel.h"
#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"
#include "kope/base/text.h"

namespace kope::exec {

namespace fs = std::filesystem;

fs::path default_prelude_cache() {
  if (const char* k = std::getenv("KOPE_CACHE_DIR"); k && *k) return fs::path(k) / "pch";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "kope" / "pch";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "kope" / "pch";
  return {};
}

namespace detail {

namespace {

// A flock on a file, released when destroyed; waits in short steps so a cancel is seen.
class FileLock {
 public:
  FileLock(const fs::path& path, const CancelToken* cancel, std::string* why) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) *why = "cannot open the lock " + path.string() + ": " + std::strerror(errno);
    else held_ = take(LOCK_EX, cancel, why);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  bool held() const { return held_; }
  // From exclusive to shared. Not atomic (flock(2)): whoever calls it checks again what it locked.
  bool share(const CancelToken* cancel, std::string* why) { return held_ = take(LOCK_SH, cancel, why); }

 private:
  bool take(int how, const CancelToken* cancel, std::string* why) {
    while (::flock(fd_, how | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        *why = std::string("cannot lock the prelude: ") + std::strerror(errno);
        return false;
      }
      if (cancel && cancel->cancelled()) {
        *why = "cancelled while waiting for another process's prelude build";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }
  int fd_ = -1;
  bool held_ = false;
};

std::string stamp(const fs::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return "";
  return std::to_string(st.st_size) + " " +
         std::to_string(static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec);
}

// The headers named by a make-style dependency file (`target: a b \` ...), but not `skip` (the prelude itself).
std::vector<std::string> dependency_paths(const std::string& text, const fs::path& skip) {
  std::string flat;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      flat += ' ';
      ++i;
    } else if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      flat += '\x01';  // an escaped space inside a path
      ++i;
    } else {
      flat += text[i] == '\n' ? ' ' : text[i];
    }
  }
  std::vector<std::string> out;
  const auto colon = flat.find(": ");
  std::istringstream in(colon == std::string::npos ? std::string() : flat.substr(colon + 2));
  std::set<std::string> seen;
  for (std::string w; in >> w;) {
    for (auto& c : w) if (c == '\x01') c = ' ';
    if (fs::path(w) == skip || !seen.insert(w).second) continue;
    out.push_back(w);
  }
  return out;
}

// Whether the prelude in `dir` was built and every header it read is as it was then.
bool still_valid(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / "src" / "prelude.h.gch", ec)) return false;
  std::istringstream in(read_file_or_empty(dir / "deps"));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    // "size mtime path": the path is everything after the second space.
    const auto a = line.find(' '), b = a == std::string::npos ? a : line.find(' ', a + 1);
    if (b == std::string::npos) return false;
    if (stamp(line.substr(b + 1)) != line.substr(0, b)) return false;
    ++n;
  }
  return n > 0;
}

// Builds the prelude into `dir` (the lock held): src/prelude.h, then the header compiled in the sandbox into out/,
// then deps, then the .gch moved into src/ last.
std::string build(const fs::path& dir, const std::string& cxx_path, const std::vector<std::string>& flags,
                  const CompileOptions& options) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  const fs::path src = dir / "src", out = dir / "out";
  fs::create_directories(src, ec);
  if (!ec) fs::create_directories(out, ec);
  if (ec) return "cannot make " + dir.string() + ": " + ec.message();
  std::string text;
  for (const auto& l : options.prelude) text += l + "\n";
  write_file_atomic(src / "prelude.h", text);

  SandboxSpec spec = compiler_sandbox(cxx_path, {}, options);
  spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
  spec.argv.insert(spec.argv.end(), {"-x", "c++-header", (src / "prelude.h").string(),
                                     "-MD", "-MF", (out / "prelude.d").string(), "-o",
                                     (out / "prelude.h.gch").string()});
  spec.ro_paths.push_back(src);
  spec.rw_paths = {out};
  spec.cwd = out;
  spec.max_file_bytes = 2ull << 30;  // ATen's is about 250 MB
  SandboxRun pr = sandbox_run(spec, options.timeout_seconds, 64 << 10, options.cancel);
  if (!pr.ok()) {
    std::string first = trim(pr.err.substr(0, pr.err.find('\n')));
    return "its compilation failed (" + pr.describe() + ")" + (first.empty() ? "" : ": " + first);
  }
  // The files become kope's own, so no sandboxed process can rewrite them later.
  for (const char* f : {"prelude.d", "prelude.h.gch"})
    if (lchown((out / f).c_str(), getuid(), getgid()) != 0 || chmod((out / f).c_str(), 0644) != 0)
      return "cannot take ownership of " + (out / f).string() + ": " + std::strerror(errno);
  std::string deps;
  for (const auto& p : dependency_paths(read_file_or_empty(out / "prelude.d"), src / "prelude.h")) {
    const std::string s = stamp(p);
    if (s.empty()) return "a header it read is gone: " + p;
    deps += s + " " + p + "\n";
  }
  if (deps.empty()) return "the compiler named no header it read";
  write_file_atomic(dir / "deps", deps);
  fs::rename(out / "prelude.h.gch", src / "prelude.h.gch", ec);
  if (ec) return "cannot place " + (src / "prelude.h.gch").string() + ": " + ec.message();
  fs::remove_all(out, ec);
  return "";
}

}  // namespace

bool starts_with_prelude(const std::string& source, const std::vector<std::string>& prelude) {
  std::set<std::string> leading;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) {
    const std::string t = trim(line);
    if (t.empty() || t.rfind("//", 0) == 0) continue;
    if (t.rfind("#include", 0) != 0) break;
    leading.insert(t);
  }
  for (const auto& p : prelude)
    if (!leading.count(trim(p))) return false;
  return true;
}

Prelude ensure_prelude(const std::string& cxx_path, const std::string& compiler_identity,
                       const std::vector<std::string>& build_flags, const CompileOptions& options) {
  Prelude r;
  const fs::path cache = options.prelude_cache.empty() ? default_prelude_cache() : options.prelude_cache;
  if (cache.empty()) {
    r.why_not = "no cache folder ($KOPE_CACHE_DIR, $XDG_CACHE_HOME and $HOME are all unset)";
    return r;
  }
  std::vector<std::string> flags;  // the build's, less what only the link step reads
  for (const auto& f : build_flags)
    if (f != "-shared" && f.rfind("-Wl,", 0) != 0 && f.rfind("-l", 0) != 0 && f.rfind("-L", 0) != 0)
      flags.push_back(f);
  std::string material = cxx_path + '\0' + compiler_identity;
  for (const auto& f : flags) material += '\0' + f;
  for (const auto& l : options.prelude) material += '\0' + trim(l);
  const std::string key = sha256_hex(material).substr(0, 24);
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) {
    r.why_not = "cannot make the cache folder " + cache.string() + ": " + ec.message();
    return r;
  }
  const fs::path dir = cache / key;
  // Checked and (re)built under an exclusive lock; used under a shared one, held until the build that uses it is
  // over, so no other process rebuilds it meanwhile.
  for (int tries = 0; tries < 3; ++tries) {
    auto lock = std::make_shared<FileLock>(cache / (key + ".lock"), options.cancel, &r.why_not);
    if (!lock->held()) return r;
    if (!still_valid(dir)) {
      r.why_not = build(dir, cxx_path, flags, options);
      if (!r.why_not.empty()) {
        fs::remove_all(dir, ec);  // nothing half-made stays for the next build to trust
        return r;
      }
    }
    if (!lock->share(options.cancel, &r.why_not)) return r;
    if (still_valid(dir)) {
      r.header = dir / "src" / "prelude.h";
      r.hold = lock;
      return r;
    }
  }
  r.why_not = "other processes kept rebuilding it";
  return r;
}

}  // namespace detail
}  // namespace kope::exec
