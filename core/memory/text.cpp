#include "kope/memory/text.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace kope::memory {

using nlohmann::json;

const std::vector<TagRule>& tag_rules() {
  // Keep in step with core/memory/README.md.
  static const std::vector<TagRule> rules = {
      {"vectorize", "parallelism", {"vector", "simd", "avx", "sse", "neon", "libmvec", "lanes", "-march=native"}},
      {"unroll", "parallelism", {"unroll"}},
      {"parallel", "parallelism", {"thread", "parallel", "openmp", "omp ", "-pthread", "cores", "multicore"}},
      {"tiling", "memory", {"tiling", "tile", "blocked", "blocking", "block of", "blocks of", "cache-friendly"}},
      {"prefetch", "memory", {"prefetch"}},
      {"layout", "memory", {"layout", "contiguous", "stride", "transpose", "aos", "soa", "memory bound",
                            "bandwidth"}},
      {"fused", "algorithm", {"fuse", "fusion", "single pass", "one pass", "in one loop"}},
      {"approximation", "algorithm", {"approx", "fast-math", "fast math", "polynomial", "minimax", "pade", "padé",
                                      "rational", "schraudolph", "bits", "lim ", "squaring", "tanh form"}},
      {"branchless", "algorithm", {"branchless", "branch-free", "branch free", "no branch", "mask"}},
      {"precision", "precision", {"fp32", "fp16", "bf16", "float", "double", "precision", "widen", "promot"}},
      {"compiler-flags", "compiler", {"-o3", "-ffast-math", "-fno-math-errno", "-funroll", "kope:cxxflags"}},
  };
  return rules;
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string flags_line(const std::string& source) {
  std::istringstream in(source);
  std::string line;
  for (int n = 0; n < 20 && std::getline(in, line); ++n)
    if (auto p = line.find("kope:cxxflags"); p != std::string::npos) return line.substr(p + 13);
  return {};
}
}  // namespace

std::vector<std::string> idea_tags(const std::string& thought, const std::string& source) {
  const std::string text = lower(thought) + " " + lower(flags_line(source));
  std::set<std::string> tags;
  for (const TagRule& r : tag_rules())
    for (const char* k : r.keywords)
      if (text.find(k) != std::string::npos) {
        tags.insert(r.tag);
        break;
      }
  return {tags.begin(), tags.end()};
}

std::vector<std::string> layers_of(const std::vector<std::string>& tags) {
  std::set<std::string> out;
  for (const auto& t : tags)
    for (const TagRule& r : tag_rules())
      if (t == r.tag) out.insert(r.layer);
  return {out.begin(), out.end()};
}

namespace {
std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    auto nl = s.find('\n', start);
    if (nl == std::string::npos) {
      out.push_back(s.substr(start));
      break;
    }
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

struct Op {
  char kind;  // ' ', '-', '+'
  std::size_t a, b;  // line index in before / after
};
}  // namespace

std::string unified_diff(const std::string& before, const std::string& after, const std::string& before_name,
                         const std::string& after_name) {
  if (before == after) return {};
  const auto A = split_lines(before), B = split_lines(after);
  const std::size_t n = A.size(), m = B.size();
  std::vector<Op> ops;
  // Trim the common head and tail, then LCS on the middle.
  std::size_t head = 0;
  while (head < n && head < m && A[head] == B[head]) ++head;
  std::size_t tail = 0;
  while (tail < n - head && tail < m - head && A[n - 1 - tail] == B[m - 1 - tail]) ++tail;
  for (std::size_t i = 0; i < head; ++i) ops.push_back({' ', i, i});
  const std::size_t an = n - head - tail, bn = m - head - tail;
  if (an * bn <= 4'000'000) {
    std::vector<uint32_t> L((an + 1) * (bn + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> uint32_t& { return L[i * (bn + 1) + j]; };
    for (std::size_t i = an; i-- > 0;)
      for (std::size_t j = bn; j-- > 0;)
        at(i, j) = A[head + i] == B[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    std::size_t i = 0, j = 0;
    while (i < an || j < bn) {
      if (i < an && j < bn && A[head + i] == B[head + j]) {
        ops.push_back({' ', head + i, head + j});
        ++i, ++j;
      } else if (i < an && (j == bn || at(i + 1, j) >= at(i, j + 1))) {
        ops.push_back({'-', head + i, head + j});  // deletions before insertions, as diff -u prints them
        ++i;
      } else {
        ops.push_back({'+', head + i, head + j});
        ++j;
      }
    }
  } else {
    for (std::size_t i = 0; i < an; ++i) ops.push_back({'-', head + i, head});
    for (std::size_t j = 0; j < bn; ++j) ops.push_back({'+', head + an, head + j});
  }
  for (std::size_t k = 0; k < tail; ++k) ops.push_back({' ', n - tail + k, m - tail + k});

  std::ostringstream out;
  out << "--- " << (before.empty() ? std::string("/dev/null") : before_name) << "\n+++ " << after_name << "\n";
  const std::size_t ctx = 3;
  std::size_t k = 0;
  while (k < ops.size()) {
    while (k < ops.size() && ops[k].kind == ' ') ++k;
    if (k == ops.size()) break;
    std::size_t start = k >= ctx ? k - ctx : 0;
    std::size_t end = k;  // extend while changes are within 2*ctx of each other
    std::size_t last_change = k;
    while (end < ops.size()) {
      if (ops[end].kind != ' ') last_change = end;
      else if (end - last_change > 2 * ctx) break;
      ++end;
    }
    end = std::min(ops.size(), last_change + ctx + 1);
    std::size_t a0 = ops[start].a, b0 = ops[start].b, ac = 0, bc = 0;
    for (std::size_t x = start; x < end; ++x) {
      if (ops[x].kind != '+') ++ac;
      if (ops[x].kind != '-') ++bc;
    }
    out << "@@ -" << (ac ? a0 + 1 : a0) << "," << ac << " +" << (bc ? b0 + 1 : b0) << "," << bc << " @@\n";
    for (std::size_t x = start; x < end; ++x) {
      const auto& o = ops[x];
      out << o.kind << (o.kind == '+' ? B[o.b] : A[o.a]) << "\n";
    }
    k = end;
  }
  return out.str();
}

std::pair<int, int> diff_stat(const std::string& diff) {
  int add = 0, del = 0;
  for (const auto& l : split_lines(diff)) {
    if (l.rfind("+++", 0) == 0 || l.rfind("---", 0) == 0) continue;
    if (!l.empty() && l[0] == '+') ++add;
    if (!l.empty() && l[0] == '-') ++del;
  }
  return {add, del};
}

std::string diff_excerpt(const std::string& diff, int max_lines) {
  std::string out;
  int n = 0;
  for (const auto& l : split_lines(diff)) {
    if (l.rfind("+++", 0) == 0 || l.rfind("---", 0) == 0) continue;
    if (n >= max_lines) {
      out += "...\n";
      break;
    }
    out += l + "\n";
    ++n;
  }
  return out;
}

namespace {
std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

std::string compiler_version() {
  const char* cxx = std::getenv("CXX");
  std::string cmd = std::string(cxx && *cxx ? cxx : "c++") + " --version 2>/dev/null";
  std::string line;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[512];
    if (fgets(buf, sizeof buf, p)) line = buf;
    while (fgets(buf, sizeof buf, p)) {
    }
    pclose(p);
  }
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line.empty() ? "unknown" : line;
}
}  // namespace

const json& hardware_fingerprint() {
  static const json fp = [] {
    json j;
    std::string model = "unknown";
    {
      std::ifstream in("/proc/cpuinfo");
      std::string line;
      while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
          auto c = line.find(':');
          if (c != std::string::npos) {
            model = line.substr(c + 1);
            model.erase(0, model.find_first_not_of(" \t"));
          }
          break;
        }
    }
    j["cpu_model"] = model;
    j["cores"] = static_cast<int64_t>(sysconf(_SC_NPROCESSORS_ONLN));
    json caches = json::object();
    for (int i = 0; i < 8; ++i) {
      const std::string base = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
      std::string level = read_first_line(base + "level");
      if (level.empty()) break;
      std::string type = read_first_line(base + "type");
      std::string size = read_first_line(base + "size");
      std::string key = "L" + level + (type == "Data" ? "d" : type == "Instruction" ? "i" : "");
      caches[key] = size;
    }
    j["caches"] = caches;
    j["compiler"] = compiler_version();
    struct utsname u {};
    if (uname(&u) == 0) {
      j["machine"] = u.machine;
      j["kernel"] = std::string(u.sysname) + " " + u.release;
    }
    return j;
  }();
  return fp;
}

std::string fingerprint_digest(const json& fp) {
  const std::string s = fp.dump();
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> query_terms(const std::string& text, std::size_t max) {
  static const std::set<std::string> stop = {
      "the", "and", "for", "with", "from", "that", "this", "into", "than", "then", "when", "are", "was", "were",
      "not", "but", "each", "per", "its", "has", "have", "all", "any", "one", "two", "case", "cases", "kernel",
      "correct", "speedup", "beat", "over", "only", "via", "out", "got", "expected", "max", "mean", "rel",
      "err", "error", "let", "use", "loop", "element", "elements"};
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::string w;
  auto flush = [&] {
    if (w.size() >= 3 && std::isalpha(static_cast<unsigned char>(w[0])) && !stop.count(w) && seen.insert(w).second &&
        out.size() < max)
      out.push_back("\"" + w + "\"");
    w.clear();
  };
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '_') w += static_cast<char>(std::tolower(c));
    else flush();
  }
  flush();
  return out;
}

std::string new_uuid() {
  std::string s = read_first_line("/proc/sys/kernel/random/uuid");
  if (s.size() == 36) return s;
  std::random_device rd;
  std::mt19937_64 g((static_cast<uint64_t>(rd()) << 32) ^ rd());
  const char* hex = "0123456789abcdef";
  std::string u;
  for (int i = 0; i < 36; ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) u += '-';
    else if (i == 14) u += '4';
    else u += hex[g() % 16];
  }
  return u;
}

}  // namespace kope::memory
