#include "test_support.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "kope/base/fsutil.h"

namespace kope::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  static std::atomic<int> n{0};
  std::random_device rd;
  path_ = fs::temp_directory_path() /
          ("kope-test-" + std::to_string(getpid()) + "-" + std::to_string(n++) + "-" + std::to_string(rd() % 1000000));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string affine_task_json() {
  // The task the hostile kernels attack (bench/honest_verdicts runs them too): y = 2 x + 1 in three sizes.
  std::ifstream in(std::string(KOPE_HOSTILE_DIR) + "/affine.json");
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw std::runtime_error(std::string("cannot read ") + KOPE_HOSTILE_DIR + "/affine.json");
  return text.str();
}

std::string slow_to_compile(int steps) {
  return "constexpr long kope_burn(long k) { long s = 0; for (long i = 0; i < 200000; ++i) s += (i ^ k) % 7; return s; }\n"
         "template <long K> struct KopeBurn { static constexpr long v = kope_burn(K) + KopeBurn<K - 1>::v; };\n"
         "template <> struct KopeBurn<0> { static constexpr long v = 0; };\n"
         "static_assert(KopeBurn<" + std::to_string(steps) + ">::v > 0);\n";
}

Task affine_task() { return parse_task_text(affine_task_json(), "test:affine.json"); }

std::string affine_kernel(const std::string& body, const std::string& header_lines) {
  return header_lines + "#include \"kope_kernel.h\"\n#include <stdlib.h>\n#include <unistd.h>\n"
         "int kope_kernel(const kope_args* a) {\n"
         "  const float* x = (const float*)a->inputs[0].data;\n"
         "  float* y = (float*)a->outputs[0].data;\n"
         "  const int64_t n = a->inputs[0].numel;\n"
         "  (void)x; (void)y; (void)n;\n" +
         body + "\n  return 0;\n}\n";
}

namespace {
std::string read_proc_file(const fs::path& p) {
  std::FILE* f = std::fopen(p.c_str(), "rb");
  if (!f) return {};
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  std::fclose(f);
  return out;
}
}  // namespace

std::vector<int> processes_mentioning(const std::vector<std::string>& parts) {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int pid = std::stoi(name);
    if (pid == getpid()) continue;
    // A process may end while its cmdline is read (ESRCH from the read): it is no longer there to find.
    std::string cmd = read_proc_file(e.path() / "cmdline");
    if (cmd.empty()) continue;
    for (char& ch : cmd)
      if (ch == '\0') ch = ' ';
    bool all = true;
    for (const auto& p : parts) all = all && cmd.find(p) != std::string::npos;
    if (all) out.push_back(pid);
  }
  return out;
}

EvalOptions quick_options() {
  EvalOptions o;
  o.warmup = 1;
  o.reps = 3;
  o.max_reps = 3;  // no adaptive repetitions: tests assert verdicts, not speeds
  o.pool = 2;
  o.case_timeout_seconds = 20;
  o.memory_bytes = uint64_t{1} << 30;
  o.flush_bytes = std::size_t{4} << 20;
  o.library = false;  // a libtorch build is 5-30 s: the library baseline has its own tests
  return o;
}

}  // namespace kope::test
