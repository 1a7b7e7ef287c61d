// nvcc, nvidia-smi, compute-sanitizer and Nsight Compute: finding them and reading what they print.
#include <algorithm>
#include <regex>
#include <sstream>

#include "kope/device/ascend.h"  // parse_csv, shared by every CSV-speaking tool
#include "kope/device/cuda.h"
#include "kope/base/process.h"
#include "kope/base/text.h"

using namespace kope::exec;

namespace kope::device::cuda {

namespace fs = std::filesystem;

namespace {
}  // namespace

fs::path find_nvcc(const std::vector<std::string>& env) {
  if (auto v = env_value(env, "KOPE_NVCC"); v && !v->empty()) return find_program(*v, env);
  std::vector<fs::path> extra;
  if (auto home = env_value(env, "CUDA_HOME"); home && !home->empty()) extra.push_back(fs::path(*home) / "bin");
  extra.push_back("/usr/local/cuda/bin");
  return find_program("nvcc", env, extra);
}

std::string arch_from_compute_cap(const std::string& out) {
  static const std::regex re(R"(^\s*(\d+)\.(\d+)\s*$)");
  std::istringstream in(out);
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_match(line, m, re)) return "sm_" + std::string(m[1]) + std::string(m[2]);
  return "";
}

std::string nvcc_release(const std::string& out) {
  static const std::regex re(R"(release (\d+)\.(\d+))");
  std::smatch m;
  if (std::regex_search(out, m, re)) return std::string(m[1]) + "." + std::string(m[2]);
  return "";
}

bool nvcc_supports_native(const std::string& out) {
  const std::string rel = nvcc_release(out);
  if (rel.empty()) return false;
  const int major = std::stoi(rel.substr(0, rel.find('.'))), minor = std::stoi(rel.substr(rel.find('.') + 1));
  return major > 11 || (major == 11 && minor >= 5);  // -arch=native arrived in CUDA 11.5
}

ArchChoice choose_arch(const std::vector<std::string>& env) {
  if (auto v = env_value(env, "KOPE_CUDA_ARCH"); v && !v->empty())
    return {"-arch=" + *v, "$KOPE_CUDA_ARCH"};
  ProcessLimits lim;
  lim.wall_seconds = 20;
  if (fs::path smi = find_program("nvidia-smi", env); !smi.empty()) {
    ProcessResult r = run_process({smi.string(), "--query-gpu=compute_cap", "--format=csv,noheader"}, lim, {}, env);
    if (r.ok())
      if (std::string a = arch_from_compute_cap(r.out); !a.empty()) return {"-arch=" + a, "nvidia-smi compute_cap"};
    // nvidia-smi present but unreadable: nvcc's own probe of the GPU
    if (fs::path nvcc = find_nvcc(env); !nvcc.empty()) {
      ProcessResult v = run_process({nvcc.string(), "--version"}, lim, {}, env);
      if (v.ok() && nvcc_supports_native(v.out)) return {"-arch=native", "nvcc -arch=native"};
    }
  }
  return {"-arch=sm_90", "the default sm_90 (no GPU seen; set KOPE_CUDA_ARCH to override)"};
}

std::vector<Diagnostic> parse_nvcc_output(const std::string& text) {
  // nvcc front end: `k.cu(12): error: identifier "x" is undefined` (also "warning #177-D:", "catastrophic error")
  static const std::regex nv(R"(^(.+?)\((\d+)\): (catastrophic error|error|warning|remark|note)( #[0-9A-Za-z-]+)?: (.*)$)");
  std::vector<Diagnostic> out;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (std::regex_match(line, m, nv)) {
      std::string sev = m[3];
      if (sev == "catastrophic error") sev = "fatal error";
      out.push_back({m[1], std::stoi(m[2]), 0, sev, m[5]});
    }
  }
  for (auto& d : parse_diagnostics(text)) out.push_back(d);  // the host compiler's gcc form
  return out;
}

std::vector<std::string> parse_sanitizer_report(const std::string& text) {
  std::vector<std::string> findings;
  std::istringstream in(text);
  std::string line;
  const std::string prefix = "========= ";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::string rest = line.substr(prefix.size());
    if (rest.empty()) continue;
    if (rest[0] == ' ' || rest[0] == '\t') {  // a detail of the current finding
      std::string d = trim(rest);
      if (!findings.empty() && (d.rfind("at ", 0) == 0 || d.rfind("by thread", 0) == 0 || d.rfind("Address", 0) == 0 ||
                                d.rfind("and is", 0) == 0))
        findings.back() += "; " + d;
      continue;
    }
    if (rest.rfind("COMPUTE-SANITIZER", 0) == 0 || rest.rfind("ERROR SUMMARY", 0) == 0 || rest.rfind("LEAK SUMMARY", 0) == 0)
      continue;
    findings.push_back(trim(rest));
  }
  return findings;
}

std::vector<Counter> parse_ncu_csv(const std::string& text) {
  // ncu prints "==PROF==" progress lines and the application's own output before the CSV.
  auto start = text.find("\"ID\",");
  if (start == std::string::npos) return {};
  ascend::CsvTable t = ascend::parse_csv(text.substr(start));
  auto name = t.column({"Metric Name"}), unit = t.column({"Metric Unit"}), value = t.column({"Metric Value"}),
       section = t.column({"Section Name"}), kernel = t.column({"Kernel Name"});
  std::vector<Counter> out;
  if (!name || !value) return out;
  for (const auto& row : t.rows) {
    if (*name >= row.size() || *value >= row.size()) continue;
    std::string v = row[*value];
    v.erase(std::remove(v.begin(), v.end(), ','), v.end());  // "1,234.5"
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0') continue;
    Counter c;
    c.section = section && *section < row.size() ? row[*section] : (kernel && *kernel < row.size() ? row[*kernel] : "ncu");
    c.name = row[*name];
    c.unit = unit && *unit < row.size() ? row[*unit] : "";
    c.value = d;
    out.push_back(c);
  }
  return out;
}

std::vector<GpuInfo> parse_gpu_query(const std::string& csv) {
  std::vector<GpuInfo> out;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) f.push_back(trim(c));
    if (f.size() < 5) continue;
    GpuInfo g;
    g.name = f[0];
    g.driver = f[1];
    g.memory_mib = std::strtoull(f[2].c_str(), nullptr, 10);
    g.sm_clock_mhz = std::atof(f[3].c_str());
    g.memory_clock_mhz = std::atof(f[4].c_str());
    out.push_back(g);
  }
  return out;
}

fs::path find_libtorch_cuda(const std::vector<std::string>& env, std::string* why) {
  const auto prefix = env_value(env, "KOPE_LIBTORCH_CUDA");
  if (!prefix || prefix->empty()) {
    *why = "ATen CUDA not found (set KOPE_LIBTORCH_CUDA to a CUDA-enabled libtorch: the folder holding include/ATen "
           "and lib/libtorch_cuda.so)";
    return {};
  }
  const fs::path p(*prefix);
  for (const fs::path& need : {p / "include/ATen/ATen.h", p / "lib/libtorch_cuda.so"})
    if (!fs::exists(need)) {
      *why = "ATen CUDA not found: KOPE_LIBTORCH_CUDA=" + *prefix + " has no " + need.string();
      return {};
    }
  return p;
}

std::vector<std::string> aten_cuda_flags(const fs::path& prefix, const std::vector<std::string>& libs) {
  std::vector<std::string> f = {"-O3", "-I" + (prefix / "include").string(),
                                "-I" + (prefix / "include/torch/csrc/api/include").string(),
                                "-L" + (prefix / "lib").string(), "-Xlinker", "-rpath=" + (prefix / "lib").string(),
                                "-Xlinker", "--no-as-needed"};
  f.insert(f.end(), libs.begin(), libs.end());
  return f;
}

}  // namespace kope::device::cuda
