// `kope doctor`, the build checks: the compiler kernels are built with, and the library baseline (ATen).
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "kope/doctor/doctor_internal.h"
#include "kope/base/process.h"


namespace kope::doctor::detail {

namespace fs = std::filesystem;

namespace {

std::string first_line(const std::string& s) {
  std::string l = s.substr(0, s.find('\n'));
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
  return l;
}

// The compiler's absolute path: a name looked up in $PATH as a shell would (as compile_kernel does).
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? fs::absolute(name).string() : "";
  const char* path = std::getenv("PATH");
  std::istringstream in(path && *path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(in, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path p = fs::path(dir) / name;
    if (access(p.c_str(), X_OK) == 0) return fs::absolute(p).string();
  }
  return "";
}

ProcessResult run_quick(const std::vector<std::string>& argv) {
  ProcessLimits lim;
  lim.wall_seconds = 20;
  return run_process(argv, lim);
}

// The folders `#include <...>` searches, as the compiler prints them for -v.
std::vector<std::string> include_dirs(const std::string& cxx) {
  ProcessResult r = run_quick({cxx, "-xc++", "-E", "-v", "/dev/null"});
  std::vector<std::string> dirs;
  std::istringstream in(r.err);
  std::string l;
  bool inside = false;
  while (std::getline(in, l)) {
    if (l.rfind("#include <...> search starts here:", 0) == 0) inside = true;
    else if (l.rfind("End of search list.", 0) == 0) break;
    else if (inside && l.size() > 1 && l[0] == ' ') dirs.push_back(l.substr(1));
  }
  return dirs;
}

// The library as the linker would find it ("-l" + name), or "" when it would not.
std::string find_library(const std::string& cxx, const std::string& name) {
  ProcessResult r = run_quick({cxx, "-print-file-name=lib" + name + ".so"});
  const std::string p = first_line(r.out);
  std::error_code ec;
  return r.ok() && !p.empty() && p[0] == '/' && fs::exists(p, ec) ? fs::canonical(p, ec).string() : "";
}

// "1.13.0" from torch/version.h under one of `dirs`, or "".
std::string torch_version(const std::vector<std::string>& dirs) {
  for (const auto& d : dirs)
    for (const char* rel : {"torch/csrc/api/include/torch/version.h", "torch/version.h"}) {
      std::ifstream in(fs::path(d) / rel);
      if (!in) continue;
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string text = ss.str();
      std::smatch m;
      std::string v;
      for (const char* part : {"MAJOR", "MINOR", "PATCH"}) {
        const std::regex re(std::string("#define TORCH_VERSION_") + part + R"(\s+(\d+))");
        if (!std::regex_search(text, m, re)) return "";
        v += (v.empty() ? "" : ".") + m[1].str();
      }
      return v;
    }
  return "";
}

}  // namespace

DoctorCheck check_compiler(const DoctorOptions& o, std::string& cxx_path) {
  DoctorCheck c = make_check("compiler", "build", "C++ compiler");
  c.blocks_verdicts = true;
  std::string cxx = o.cxx;
  if (cxx.empty()) {
    const char* env = std::getenv("CXX");
    cxx = env && *env ? env : "c++";
  }
  const std::string how = o.cxx.empty() ? (std::getenv("CXX") && *std::getenv("CXX") ? " ($CXX)" : " (no $CXX set)") : "";
  cxx_path = find_program(cxx);
  if (cxx_path.empty()) {
    c.verdict = Verdict::Fail;
    c.found = "\"" + cxx + "\"" + how +
              (cxx.find('/') != std::string::npos ? " is not an executable file" : " is not an executable in $PATH");
    c.todo = "install a C++20 compiler (Debian: apt-get install g++) or set $CXX to one";
    c.because = "no compiler: kope can build no kernel, so it gives no verdict";
    return c;
  }
  ProcessResult v = run_quick({cxx_path, "--version"});
  std::error_code ec;
  const fs::path real = fs::canonical(cxx_path, ec);
  const std::string where = cxx_path + (!ec && real != cxx_path ? " -> " + real.string() : "") + how;
  if (!v.ok()) {
    c.verdict = Verdict::Fail;
    c.found = where + ": `--version` failed: " + v.describe() + " " + first_line(v.err);
    c.todo = "repair or replace the compiler, or set $CXX to a working one";
    c.because = "the compiler does not run: kope can build no kernel";
    cxx_path.clear();
    return c;
  }
  const std::string version = first_line(v.out);
  ProcessResult std20 = run_quick({cxx_path, "-std=c++20", "-fsyntax-only", "-x", "c++", "/dev/null"});
  c.found = where + ": " + version + (std20.ok() ? "; accepts -std=c++20" : "");
  if (!std20.ok()) {
    c.verdict = Verdict::Fail;
    c.found += "; refuses -std=c++20: " + first_line(std20.err);
    c.todo = "kernels are built with -std=c++20: install g++ 10 or newer, or set $CXX to such a compiler";
    c.because = "the compiler cannot build C++20 kernels";
    cxx_path.clear();
    return c;
  }
  c.verdict = Verdict::Ok;
  c.because = "kernels are built by " + version;
  return c;
}

DoctorCheck check_library(const std::string& cxx) {
  DoctorCheck c = make_check("library-baseline", "build", "Library baseline (ATen)");
  if (cxx.empty()) {
    c.verdict = Verdict::Info;
    c.unknown = true;
    c.found = "unknown: there is no working compiler to ask where ATen's headers and libraries would be found";
    c.todo = "repair the compiler first (see the compiler line)";
    return c;
  }
  const std::vector<std::string> dirs = include_dirs(cxx);
  std::string header;
  for (const auto& d : dirs) {
    std::error_code ec;
    if (fs::exists(fs::path(d) / "ATen/core/Tensor.h", ec)) {
      header = (fs::path(d) / "ATen/core/Tensor.h").string();
      break;
    }
  }
  const std::string torch_cpu = find_library(cxx, "torch_cpu"), c10 = find_library(cxx, "c10");
  std::vector<std::string> missing;
  if (header.empty()) missing.push_back("ATen/core/Tensor.h in none of the compiler's " + std::to_string(dirs.size()) + " include folders");
  if (torch_cpu.empty()) missing.push_back("libtorch_cpu.so");
  if (c10.empty()) missing.push_back("libc10.so");
  if (!missing.empty()) {
    c.verdict = Verdict::Warn;
    c.found = "not found: ";
    for (std::size_t i = 0; i < missing.size(); ++i) c.found += (i ? ", " : "") + missing[i];
    c.todo = "install libtorch (Debian: apt-get install libtorch-dev); until then the tasks' library baselines "
             "cannot build and speedups are only against the naive baseline";
    c.because = "no library baseline (ATen): speedups are only against the naive reference loops";
    return c;
  }
  const std::string version = torch_version(dirs);
  c.verdict = Verdict::Ok;
  c.found = "libtorch " + (version.empty() ? std::string("(version unknown)") : version) + ": " + header + ", " +
            torch_cpu + ", " + c10;
  c.because = "speedups are measured against ATen" + (version.empty() ? std::string() : " " + version) +
              " (one thread), not only against naive loops";
  return c;
}

}  // namespace kope::doctor::detail
