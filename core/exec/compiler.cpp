#include "kope/exec/compiler.h"

#include <sys/stat.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "kope/base/cancel.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/base/sha256.h"
#include "kope/exec/sandbox.h"
#include "compiler_internal.h"

namespace kope::exec {

namespace fs = std::filesystem;

namespace {

// Flags that name, read or write a file, or hand options to another program: refused with that reason even where
// the grammar below would take them.
constexpr const char* kFileFlags[] = {
    "-fopt-info", "-fdump", "-fprofile", "-fplugin", "-fstack-usage", "-fcallgraph-info", "-fdebug-prefix-map",
    "-ffile-prefix-map", "-fmacro-prefix-map", "-fsanitize-blacklist", "-fsanitize-ignorelist",
    "-fsanitize-coverage", "-fauto-profile", "-fcreate-profile", "-fbranch-probabilities", "-ftest-coverage",
    "-fcoverage", "-fsave-optimization-record", "-fdiagnostics-format", "-fdiagnostics-add-output", "-fmodule",
    "-fpch", "-fcompare-debug", "-flto", "-fuse-ld", "-frecord", "-fworking-directory", "-finstrument-functions",
    "-ftime-trace", "-fcrash-diagnostics", "-save-temps", "-specs", "--specs", "-wrapper", "@", "-include",
    "-imacros", "-iquote", "-isystem", "-idirafter", "-iprefix", "-iwithprefix", "-isysroot", "--sysroot", "-I",
    "-L", "-l", "-B", "-o", "-x", "-M", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Wl,", "-Wa,", "-Wp,",
    "-print", "-dump", "-aux-info", "--",
};

// The -f families a kernel may ask for (each also as -fno-...): floating point, vectorisation, loops, inlining,
// scheduling and code generation. A value may hold letters, digits and _ . , + - only, so never a path.
constexpr const char* kFamilies[] = {
    "fast-math", "unsafe-math-optimizations", "associative-math", "reciprocal-math", "finite-math-only",
    "math-errno", "signed-zeros", "trapping-math", "rounding-math", "fp-contract=", "excess-precision=",
    "cx-limited-range", "cx-fortran-rules", "single-precision-constant", "signaling-nans", "fp-int-builtin-inexact",
    "tree-", "vect-cost-model", "simd-cost-model", "unroll-", "peel-loops", "openmp", "openmp-simd", "inline", "early-inlining",
    "partial-inlining", "ipa-", "omit-frame-pointer", "strict-aliasing", "strict-overflow", "wrapv", "trapv",
    "prefetch-loop-arrays", "align-", "gcse", "schedule-insns", "sched-", "sched2-", "selective-scheduling",
    "loop-", "predictive-commoning", "split-", "version-loops-for-strides", "modulo-sched", "rename-registers",
    "web", "variable-expansion-in-unroller", "optimize-sibling-calls", "optimize-strlen", "stack-protector",
    "stack-clash-protection", "exceptions", "rtti", "builtin", "pic", "PIC", "permissive", "max-errors=",
    "template-depth=", "constexpr-", "diagnostics-color", "diagnostics-show-", "ivopts", "move-loop-invariants",
    "thread-jumps", "crossjumping", "expensive-optimizations", "devirtualize", "caller-saves", "cse-", "dce", "dse",
    "delete-null-pointer-checks", "reorder-", "hoist-adjacent-loads", "if-conversion", "isolate-erroneous-paths-",
    "merge-constants", "merge-all-constants", "code-hoisting", "store-merging", "ssa-", "shrink-wrap",
    "function-sections", "data-sections", "visibility", "semantic-interposition", "plt", "threadsafe-statics",
    "aggressive-loop-optimizations", "auto-inc-dec", "combine-stack-adjustments", "compare-elim",
    "cprop-registers", "defer-pop", "forward-propagate", "guess-branch-probability", "ree", "peephole",
    "tracer", "unswitch-loops", "float-store", "trivial-auto-var-init=", "cf-protection", "lifetime-dse",
    "allow-store-data-races", "ira-", "lra-", "live-range-shrinkage", "sched-pressure", "vpt", "gnu89-inline",
    "char8_t", "coroutines", "concepts", "implicit-constexpr", "elide-constructors", "strong-eval-order",
    "sized-deallocation", "aligned-new", "new-inheriting-ctors", "nothrow-opt", "enforce-eh-specs",
    "non-call-exceptions", "unwind-tables", "asynchronous-unwind-tables", "jump-tables", "bit-tests",
    "finite-loops", "keep-inline-functions", "visibility-inlines-hidden",
};

const char* kAllowedSummary =
    "allowed: -O*, -std=c++17/20/23, -pthread, -D/-U NAME[=VALUE], -W warnings, -m target options, and -f "
    "floating-point, vectorisation, loop, inlining, scheduling and code-generation families";

// "" when `f` may be used, else why not.
std::string flag_refusal(const std::string& f) {
  for (const char* bad : kFileFlags)
    if (f.rfind(bad, 0) == 0) return "it names, reads or writes a file, or passes options to another program";
  static const std::regex value_safe(R"(^[A-Za-z0-9_.,+=-]*$)");
  if (!std::regex_match(f, value_safe)) return "it holds characters a flag needs only to name a file";
  static const std::regex plain(
      R"(^-(O[0-3sgz]?|Ofast|std=(c|gnu)\+\+(17|20|23|2a|2b)|pthread|[DU][A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.]+)?|)"
      R"(W[a-z][a-z0-9+-]*(=[a-z0-9-]+)?|m[a-z0-9][a-z0-9-]*(=[a-z0-9.,_-]+)?)$)");
  if (std::regex_match(f, plain)) return "";
  if (f.rfind("-f", 0) == 0 && f.size() > 2) {
    std::string name = f.substr(2);
    if (name.rfind("no-", 0) == 0) name = name.substr(3);
    for (const char* fam : kFamilies) {
      const std::string p = fam;
      if (name.rfind(p, 0) != 0) continue;
      // A family ending in '=' or '-' is a prefix; any other must match the name exactly, or up to "=".
      const char last = p.back();
      if (last == '=' || last == '-' || name.size() == p.size() || name[p.size()] == '=') return "";
    }
    return "it is not among the -f families a kernel may set";
  }
  return "it is not a flag a kernel may set";
}

}  // namespace

namespace {

// The lines (1-based, among the first `max_lines`) that begin, after blanks, with a `//` comment the compiler
// sees as one: not inside a block comment, a string or a raw string literal, and not continued from the line
// before by a backslash. A small lexer: only where a directive can hide matters here.
std::vector<std::pair<int, std::string>> line_comments(const std::string& source, int max_lines) {
  std::vector<std::pair<int, std::string>> out;
  enum class St { Code, Block, Str, Chr, Raw, Line } st = St::Code;
  std::string raw_end;  // )delim" of the open raw string
  int line = 1;
  bool at_start = true;     // only blanks so far on this line, in code
  bool continued = false;   // this line is spliced onto the one before (backslash-newline)
  for (std::size_t i = 0; i < source.size() && line <= max_lines; ++i) {
    const char ch = source[i];
    if (ch == '\n') {
      continued = i > 0 && source[i - 1] == '\\';
      if (st == St::Line && !continued) st = St::Code;
      if ((st == St::Str || st == St::Chr) && !continued) st = St::Code;  // an unterminated literal ends here
      ++line;
      at_start = st == St::Code && !continued;
      continue;
    }
    switch (st) {
      case St::Code:
        if (ch == '/' && i + 1 < source.size() && source[i + 1] == '/') {
          if (at_start) {
            const std::size_t end = source.find('\n', i);
            out.push_back({line, source.substr(i, end == std::string::npos ? std::string::npos : end - i)});
          }
          st = St::Line;
          ++i;
        } else if (ch == '/' && i + 1 < source.size() && source[i + 1] == '*') {
          st = St::Block;
          ++i;
        } else if (ch == 'R' && i + 1 < source.size() && source[i + 1] == '"' &&
                   (i == 0 || !(std::isalnum(static_cast<unsigned char>(source[i - 1])) || source[i - 1] == '_') ||
                    source[i - 1] == 'u' || source[i - 1] == 'U' || source[i - 1] == 'L' || source[i - 1] == '8')) {
          const std::size_t open = source.find('(', i + 2);
          if (open == std::string::npos) return out;
          raw_end = ")" + source.substr(i + 2, open - i - 2) + "\"";
          st = St::Raw;
          for (std::size_t k = i; k < open; ++k) line += source[k] == '\n';
          i = open;
        } else if (ch == '"') {
          st = St::Str;
        } else if (ch == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(source[i - 1])))) {
          st = St::Chr;  // (a digit separator like 1'000 is not a character literal)
        }
        if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\f' && ch != '\v') at_start = false;
        break;
      case St::Block:
        if (ch == '*' && i + 1 < source.size() && source[i + 1] == '/') st = St::Code, ++i;
        break;
      case St::Str:
      case St::Chr:
        if (ch == '\\') ++i;
        else if ((st == St::Str && ch == '"') || (st == St::Chr && ch == '\'')) st = St::Code;
        break;
      case St::Raw:
        if (source.compare(i, raw_end.size(), raw_end) == 0) {
          i += raw_end.size() - 1;
          st = St::Code;
        }
        break;
      case St::Line:
        break;
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> flag_directives(const std::string& source, const std::string& display_name) {
  std::vector<std::string> flags;
  const std::string marker = "// kope:cxxflags";
  for (const auto& [n, text] : line_comments(source, 20)) {
    if (text.compare(0, marker.size(), marker) != 0) continue;
    std::istringstream words(text.substr(marker.size()));
    std::string f;
    while (words >> f) {
      if (std::string why = flag_refusal(f); !why.empty())
        throw Error(display_name + ":" + std::to_string(n) + ": the flag \"" + f +
                    "\" is not allowed in // kope:cxxflags: " + why + " (" + kAllowedSummary + ")");
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

// The compiler as an absolute path: the name looked up in $PATH, as a shell would.
std::string absolute_compiler(const std::string& cxx) {
  if (cxx.find('/') != std::string::npos) return fs::absolute(cxx).string();
  const char* path = std::getenv("PATH");
  std::istringstream in(path && *path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(in, dir, ':')) {
    if (dir.empty()) continue;
    fs::path p = fs::path(dir) / cxx;
    if (access(p.c_str(), X_OK) == 0) return fs::absolute(p).string();
  }
  return "";
}

// A job folder of one compilation, removed with its contents when done.
struct CompileJob {
  fs::path dir, src_dir, out_dir;
  explicit CompileJob(const fs::path& build_dir, const std::string& key) {
    static std::atomic<unsigned> counter{0};
    dir = build_dir / ("job-" + key.substr(0, 16) + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    src_dir = dir / "src";
    out_dir = dir / "out";
    fs::create_directories(src_dir);
    fs::create_directories(out_dir);
  }
  ~CompileJob() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// The compiler to run: options.cxx, else $CXX, else c++.
std::string chosen_compiler(const CompileOptions& options) {
  if (!options.cxx.empty()) return options.cxx;
  const char* env = std::getenv("CXX");
  return env && *env ? env : "c++";
}

// The flags of a kernel build: kope's own, the caller's, the source's // kope:cxxflags, defines and includes.
std::vector<std::string> build_flags(const std::vector<std::string>& own_flags, const CompileOptions& options) {
  std::vector<std::string> flags = {"-std=c++20", "-fPIC", "-shared", "-Wl,--no-undefined", "-pthread"};
  flags.insert(flags.end(), options.flags.begin(), options.flags.end());
  flags.insert(flags.end(), own_flags.begin(), own_flags.end());
  for (const auto& d : options.defines) flags.push_back("-D" + d);
  for (const auto& d : options.include_dirs) flags.push_back("-I" + d);
  return flags;
}

// The cache key of a build: everything that can change the shared object it makes.
std::string build_key(const std::string& source, const std::string& cxx, const fs::path& include_dir,
                      const std::vector<std::string>& flags, const CompileOptions& options) {
  std::string header_text = read_file_or_empty(include_dir / "kope_kernel.h");
  std::string key_material = source + '\0' + cxx + '\0' + compiler_identity(cxx) + '\0' + header_text;
  for (const auto& f : flags) key_material += '\0' + f;
  for (const auto& l : options.link) key_material += std::string("\0-l", 3) + l;
  return sha256_hex(key_material);
}

// The sandboxed compiler: it sees the system folders, kope's include folder, the source (read-only) and an output
// folder, all in a job folder of its own: not the build folder's other kernels, not the workspace, not $HOME.
SandboxSpec compile_spec(const std::string& cxx_path, const std::vector<std::string>& flags,
                         const fs::path& include_dir, const CompileJob& job, const fs::path& src, const fs::path& out,
                         const CompileOptions& options) {
  SandboxSpec spec = detail::compiler_sandbox(cxx_path, include_dir, options);
  spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
  spec.argv.insert(spec.argv.end(), {"-I" + include_dir.string(), "-o", out.string(), src.string()});
  for (const auto& l : options.link) spec.argv.push_back("-l" + l);  // after the source: a library baseline's
  spec.argv.push_back("-lm");
  spec.ro_paths.push_back(job.src_dir);
  spec.rw_paths = {job.out_dir};
  spec.cwd = job.out_dir;
  return spec;
}

// Why a compiler run failed, in res.error (or res.cancelled); a compiler that could not start is the
// environment's fault and throws.
void record_failure(BuildResult& res, const SandboxRun& pr, const CompileOptions& options) {
  if (!pr.started)
    throw EnvError("the compiler could not be started: " + pr.error +
                   (pr.error.rfind("sandbox: cannot start", 0) == 0 ? " (set CXX or install g++)" : ""));
  else if (pr.cancelled) {
    res.cancelled = true;
    res.error = "cancelled while compiling";
  } else if (pr.limit_hit == "memory")
    res.error = "the compiler ran out of memory: its processes together reached the limit of " +
                std::to_string(options.memory_bytes >> 20) + " MiB (" + pr.describe() + ")";
  else if (!pr.limit_hit.empty()) res.error = "the compiler reached its " + pr.limit_hit + " limit (" + pr.describe() + ")";
  else if (pr.timed_out) {
    res.timed_out = true;
    res.error = "the compiler " + pr.describe();
  }
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
}

// Moves the built file into the cache; it becomes kope's own first, so no sandboxed process can rewrite it later.
void place_built(BuildResult& res, const fs::path& out) {
  if (lchown(out.c_str(), getuid(), getgid()) != 0 || chmod(out.c_str(), 0755) != 0) {
    res.error = "cannot take ownership of the built kernel " + out.string() + ": " + std::strerror(errno);
    return;
  }
  std::error_code ec;
  fs::rename(out, res.artifact, ec);
  if (ec) {
    res.error = "cannot place the built kernel at " + res.artifact.string() + ": " + ec.message();
    return;
  }
  res.ok = true;
}

}  // namespace

SandboxSpec detail::compiler_sandbox(const std::string& cxx_path, const fs::path& include_dir,
                                     const CompileOptions& options) {
  SandboxSpec spec;
  spec.argv = {cxx_path};
  if (!include_dir.empty()) spec.ro_paths.push_back(include_dir);
  // A compiler installed outside /usr brings its own prefix (bin/ and lib/ beside it).
  std::error_code cec;
  fs::path real = fs::canonical(cxx_path, cec);
  if (!cec && real.string().rfind("/usr/", 0) != 0) spec.ro_paths.push_back(real.parent_path().parent_path());
  for (const auto& d : options.include_dirs)  // a library baseline's headers, where they are outside /usr
    if (std::error_code iec; fs::is_directory(d, iec) && d.rfind("/usr/", 0) != 0) spec.ro_paths.push_back(d);
  spec.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"};
  spec.memory_bytes = options.memory_bytes;
  spec.max_processes = options.max_processes;
  spec.cpu_seconds = options.timeout_seconds;
  spec.max_file_bytes = 1ull << 30;
  return spec;
}

BuildResult compile_kernel(const std::string& source, const std::string& display_name, const fs::path& build_dir,
                             const fs::path& include_dir, const CompileOptions& options) {
  BuildResult res;
  std::vector<std::string> own_flags = flag_directives(source, display_name);
  const std::string cxx = chosen_compiler(options);
  const std::vector<std::string> flags = build_flags(own_flags, options);
  const std::string key = build_key(source, cxx, include_dir, flags, options);
  fs::create_directories(build_dir);
  res.artifact = build_dir / (key + ".so");
  std::error_code ec;
  if (fs::exists(res.artifact, ec)) {
    res.ok = res.cached = true;
    res.command = {cxx};
    res.command.insert(res.command.end(), flags.begin(), flags.end());
    return res;
  }

  const std::string cxx_path = absolute_compiler(cxx);
  if (cxx_path.empty()) {
    res.error = "the compiler could not be started: '" + cxx + "' is not in $PATH (set CXX or install g++)";
    return res;
  }
  CompileJob job(build_dir, key);
  const fs::path src = job.src_dir / "kernel.cpp", out = job.out_dir / "kernel.so";
  // The #line directive makes diagnostics name the user's file and lines.
  std::string display = display_name;
  for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
  write_file_atomic(src, "#line 1 \"" + display + "\"\n" + source);

  // A trusted source that starts with the options' prelude is built on its precompiled header (the key above is
  // the same either way: the header changes the time a build takes, not what it makes).
  std::vector<std::string> run_flags = flags;
  std::string prelude_note;
  detail::Prelude prelude;  // holds it locked until this build is over
  if (!options.prelude.empty() && detail::starts_with_prelude(source, options.prelude)) {
    prelude = detail::ensure_prelude(cxx_path, compiler_identity(cxx), flags, options);
    if (!prelude.header.empty())
      run_flags.insert(run_flags.end(), {"-Winvalid-pch", "-include", prelude.header.string()});
    else prelude_note = "note: built without the precompiled prelude: " + prelude.why_not + "\n";
  }
  SandboxSpec spec = compile_spec(cxx_path, run_flags, include_dir, job, src, out, options);
  if (!prelude.header.empty()) spec.ro_paths.push_back(prelude.header.parent_path());
  SandboxRun pr = sandbox_run(spec, options.timeout_seconds, 256 << 10, options.cancel);
  if (!pr.started && !prelude.header.empty()) {
    // The sandbox could not show the cache to the compiler (without bubblewrap, uid 65534 may not reach $HOME).
    prelude_note = "note: built without the precompiled prelude: " + pr.error + "\n";
    prelude = {};
    spec = compile_spec(cxx_path, flags, include_dir, job, src, out, options);
    pr = sandbox_run(spec, options.timeout_seconds, 256 << 10, options.cancel);
  }
  res.command = spec.argv;
  res.seconds = pr.wall_seconds;
  res.log = prelude_note + pr.err + pr.out;
  res.isolation = pr.isolation.summary();
  res.diagnostics = parse_diagnostics(res.log);
  if (!pr.ok()) {
    record_failure(res, pr, options);
    return res;
  }
  place_built(res, out);
  return res;
}

}  // namespace kope::exec
