#include "kope/compiler.h"

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "kope/error.h"
#include "kope/fsutil.h"
#include "kope/process.h"
#include "kope/sha256.h"

namespace kope {

namespace fs = std::filesystem;

std::vector<std::string> flag_directives(const std::string& source, const std::string& display_name) {
  static const std::regex allowed(
      R"(^-(O[0-3sg]?|Ofast|f[a-z0-9][a-z0-9-]*(=[a-z0-9-]+)?|m[a-z0-9][a-z0-9-]*(=[a-z0-9.,-]+)?|)"
      R"(D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.]+)?|std=(c|gnu)\+\+(17|20|23)|pthread|W[a-z0-9-]*)$)");
  std::vector<std::string> flags;
  std::istringstream in(source);
  std::string line;
  const std::string marker = "// kope:cxxflags";
  for (int n = 1; n <= 20 && std::getline(in, line); ++n) {
    auto pos = line.find(marker);
    if (pos == std::string::npos) continue;
    std::istringstream words(line.substr(pos + marker.size()));
    std::string f;
    while (words >> f) {
      if (!std::regex_match(f, allowed) || f.rfind("-fplugin", 0) == 0 || f.rfind("-fprofile", 0) == 0)
        throw Error(display_name + ":" + std::to_string(n) + ": the flag \"" + f +
                    "\" is not allowed in // kope:cxxflags (allowed: -O*, -f*, -m*, -D*, -std=c++17/20/23, "
                    "-pthread, -W*)");
      flags.push_back(f);
    }
  }
  return flags;
}

std::vector<Diagnostic> parse_diagnostics(const std::string& text) {
  static const std::regex re(R"(^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
  std::vector<Diagnostic> out;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, re)) continue;
    out.push_back({m[1], std::stoi(m[2]), std::stoi(m[3]), m[4], m[5]});
  }
  return out;
}

namespace {

std::string compiler_identity(const std::string& cxx) {
  static std::mutex mu;
  static std::string cached_for, cached;
  std::lock_guard<std::mutex> lock(mu);
  if (cached_for != cxx) {
    ProcessLimits lim;
    lim.wall_seconds = 20;
    ProcessResult r = run_process({cxx, "--version"}, lim);
    cached = r.ok() ? r.out : "unknown " + cxx;
    cached_for = cxx;
  }
  return cached;
}

}  // namespace

CompileResult compile_kernel(const std::string& source, const std::string& display_name, const fs::path& build_dir,
                             const fs::path& include_dir, const CompileOptions& options) {
  CompileResult res;
  std::vector<std::string> own_flags = flag_directives(source, display_name);
  std::string cxx = options.cxx;
  if (cxx.empty()) {
    const char* env = std::getenv("CXX");
    cxx = env && *env ? env : "c++";
  }
  std::vector<std::string> flags = {"-std=c++20", "-fPIC", "-shared", "-Wl,--no-undefined", "-pthread"};
  flags.insert(flags.end(), options.flags.begin(), options.flags.end());
  flags.insert(flags.end(), own_flags.begin(), own_flags.end());
  for (const auto& d : options.defines) flags.push_back("-D" + d);
  for (const auto& d : options.include_dirs) flags.push_back("-I" + d);

  std::string header_text = read_file_or_empty(include_dir / "kope_kernel.h");
  std::string key_material = source + '\0' + cxx + '\0' + compiler_identity(cxx) + '\0' + header_text;
  for (const auto& f : flags) key_material += '\0' + f;
  for (const auto& l : options.link) key_material += std::string("\0-l", 3) + l;
  const std::string key = sha256_hex(key_material);
  fs::create_directories(build_dir);
  res.shared_object = build_dir / (key + ".so");
  const fs::path src = build_dir / (key + ".cpp");

  std::vector<std::string> cmd = {cxx};
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  const fs::path tmp_so = build_dir / (key + ".so.tmp" + std::to_string(getpid()));
  cmd.insert(cmd.end(), {"-I" + include_dir.string(), "-o", tmp_so.string(), src.string(), "-lm"});
  for (const auto& l : options.link) cmd.insert(cmd.end() - 1, "-l" + l);
  res.command = cmd;
  std::error_code ec;
  if (fs::exists(res.shared_object, ec)) {
    res.ok = res.cached = true;
    return res;
  }
  // The #line directive makes diagnostics name the user's file and lines.
  std::string display = display_name;
  for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
  write_file_atomic(src, "#line 1 \"" + display + "\"\n" + source);
  ProcessLimits lim;
  lim.wall_seconds = options.timeout_seconds;
  lim.max_captured_bytes = 256 << 10;
  ProcessResult pr = run_process(cmd, lim);
  res.seconds = pr.wall_seconds;
  res.log = pr.err + pr.out;
  res.diagnostics = parse_diagnostics(res.log);
  if (!pr.ok()) {
    fs::remove(tmp_so, ec);
    if (!pr.started) res.error = "the compiler could not be started: " + pr.error + " (set CXX or install g++)";
    else if (pr.timed_out) res.error = "the compiler " + pr.describe();
    else {
      res.error = "compilation failed (" + pr.describe() + ")";
      for (const auto& d : res.diagnostics)
        if (d.severity == "error" || d.severity == "fatal error") {
          res.error += ": " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
          break;
        }
      if (res.diagnostics.empty() && res.log.find("undefined reference") != std::string::npos)
        res.error += ": undefined reference at link time (see log)";
    }
    return res;
  }
  fs::rename(tmp_so, res.shared_object, ec);
  if (ec) {
    res.error = "cannot place the built kernel at " + res.shared_object.string() + ": " + ec.message();
    return res;
  }
  res.ok = true;
  return res;
}

}  // namespace kope
