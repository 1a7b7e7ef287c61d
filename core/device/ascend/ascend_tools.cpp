// Parsers and command lines of the CANN tools, each to a documented format (shared/docs/ASCEND_TOOLS.md).
// Over 600 lines on purpose: one section per tool (toolkit, npu-smi, aclError, msprof op, builds), all on the
// same few text helpers, each section read against its own part of that document.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/device/ascend.h"
#include "kope/model/dtype.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/base/text.h"

using namespace kope::exec;

namespace kope::device::ascend {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  std::string x;
  while (in >> x) w.push_back(x);
  return w;
}

bool is_int(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::optional<double> number(const std::string& s) {
  if (s.empty() || s == "-" || s == "NA" || s == "N/A") return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

// ---- toolkit --------------------------------------------------------------------------------------------------

std::vector<std::string> source_env_script(const fs::path& script, const std::vector<std::string>& env,
                                           std::string* error) {
  ProcessLimits lim;
  lim.wall_seconds = 60;
  lim.max_captured_bytes = 4 << 20;
  // The script's own output goes nowhere; only `env -0` reaches stdout.
  ProcessResult r = run_process({"bash", "-c", "source \"$0\" >/dev/null 2>&1 && env -0", script.string()}, lim, {}, env);
  if (!r.ok()) {
    if (error) *error = "sourcing " + script.string() + " failed (" + r.describe() + "): " + trim(r.err);
    return {};
  }
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < r.out.size()) {
    std::size_t end = r.out.find('\0', start);
    if (end == std::string::npos) end = r.out.size();
    std::string entry = r.out.substr(start, end - start);
    if (entry.find('=') != std::string::npos && entry.rfind("BASH_FUNC_", 0) != 0) out.push_back(entry);
    start = end + 1;
  }
  return out;
}

std::string parse_version_cfg(const std::string& text) {
  static const std::regex re(R"(^\s*[A-Za-z_]*installed_version\s*=\s*\[([^\]]*)\])");
  std::smatch m;
  for (const auto& line : lines_of(text))
    if (std::regex_search(line, m, re)) {
      std::string v = m[1];
      auto colon = v.rfind(':');
      return colon == std::string::npos ? v : v.substr(colon + 1);
    }
  return "";
}

std::map<std::string, std::string> parse_install_info(const std::string& text) {
  std::map<std::string, std::string> kv;
  for (const auto& line : lines_of(text)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    kv[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
  }
  return kv;
}

Toolkit find_toolkit(const std::vector<std::string>& env) {
  Toolkit tk;
  std::vector<std::pair<fs::path, std::string>> candidates;  // a toolkit folder, where the path came from
  for (const char* var : {"ASCEND_INSTALL_PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"})
    if (auto v = env_value(env, var); v && !v->empty()) candidates.emplace_back(*v, std::string("$") + var);
  candidates.emplace_back("/usr/local/Ascend/ascend-toolkit/latest", "the default path");
  if (auto home = env_value(env, "HOME"); home && !home->empty())
    candidates.emplace_back(fs::path(*home) / "Ascend/ascend-toolkit/latest", "the default user path");
  candidates.emplace_back("/usr/local/Ascend/cann", "the CANN 8.5+ default path (unverified)");
  std::string tried;
  std::error_code ec;
  for (const auto& [dir, origin] : candidates) {
    // set_env.sh lives beside `latest` (ascend-toolkit/set_env.sh), or inside the folder itself (cann/).
    fs::path script;
    for (const fs::path& p : {dir / "set_env.sh", dir.parent_path() / "set_env.sh", dir / "bin/setenv.bash"})
      if (fs::is_regular_file(p, ec)) {
        script = p;
        break;
      }
    tried += (tried.empty() ? "" : ", ") + dir.string() + " (" + origin + ")";
    if (!fs::is_directory(dir, ec) || script.empty()) continue;
    std::string err;
    std::vector<std::string> sourced = source_env_script(script, env, &err);
    if (sourced.empty()) {
      tk.reason = err;
      return tk;
    }
    tk.found = true;
    tk.set_env = script;
    tk.env = sourced;
    tk.home = env_value(sourced, "ASCEND_HOME_PATH").value_or(env_value(sourced, "ASCEND_TOOLKIT_HOME").value_or(dir.string()));
    tk.version = parse_version_cfg(read_file_or_empty(tk.home / "version.cfg"));
    for (const auto& e : fs::directory_iterator(tk.home, ec)) {
      const fs::path info = e.path() / "ascend_toolkit_install.info";
      if (!e.is_directory() || !fs::is_regular_file(info)) continue;
      auto kv = parse_install_info(read_file_or_empty(info));
      if (!kv["version"].empty()) tk.version = kv["version"];
      tk.arch = kv["arch"];
    }
    const std::vector<fs::path> extra = {tk.home / "bin", tk.home / "compiler/ccec_compiler/bin", tk.home / "tools/msopgen/bin"};
    tk.bisheng = find_program("bisheng", sourced, extra);
    tk.msprof = find_program("msprof", sourced, extra);
    tk.msopgen = find_program("msopgen", sourced, extra);
    tk.npu_smi = find_program("npu-smi", sourced, {"/usr/local/sbin", "/usr/local/Ascend/driver/tools"});
    if (fs::is_directory(tk.home / "tools/tikicpulib/lib/cmake", ec)) tk.tikicpulib_cmake = tk.home / "tools/tikicpulib/lib/cmake";
    tk.reason = "CANN " + (tk.version.empty() ? std::string("(version unknown)") : tk.version) + " at " +
                tk.home.string() + " (" + origin + ", " + script.string() + ")";
    return tk;
  }
  tk.reason = "no CANN toolkit: tried " + tried + "; install the CANN toolkit or set ASCEND_HOME_PATH";
  return tk;
}

// ---- npu-smi --------------------------------------------------------------------------------------------------

namespace {

// "used / total" pairs, as npu-smi prints memory and hugepages.
const std::regex& used_total_re() {
  static const std::regex re(R"((\d+)\s*/\s*(\d+))");
  return re;
}

// The trimmed cells of a table row "| a | b | c |".
std::vector<std::string> table_cells(const std::string& t) {
  std::vector<std::string> cells;
  std::string inner = t.substr(1, t.size() > 1 && t.back() == '|' ? t.size() - 2 : std::string::npos);
  std::stringstream ss(inner);
  std::string c;
  while (std::getline(ss, c, '|')) cells.push_back(trim(c));
  return cells;
}

// | 0       0                 | 632268        | python3.1          | 197                   | NA |
// Fills `p`; returns what is wrong with the row, empty when nothing is.
std::string parse_process_row(const std::vector<std::string>& cells, NpuProcess& p) {
  if (cells.size() < 4) return "a process row needs NPU/Chip, process id, name and memory";
  auto w = words(cells[0]);
  if (w.size() < 1 || !is_int(w[0]) || !is_int(cells[1])) return "a process row without numbers";
  p.npu = std::stoi(w[0]);
  p.chip = w.size() > 1 && is_int(w[1]) ? std::stoi(w[1]) : 0;
  p.pid = std::stol(cells[1]);
  p.name = cells[2];
  p.memory_mb = static_cast<uint64_t>(number(words(cells[3]).empty() ? "" : words(cells[3])[0]).value_or(0));
  return "";
}

// | 0     910B3               | OK            | 97.5        41                0    / 0             |
// The first row of a chip (w0: the words of its first cell); returns what is wrong with it, empty when nothing is.
std::string parse_device_row(const std::vector<std::string>& cells, const std::vector<std::string>& w0, NpuChip& c) {
  if (w0.size() != 2 || !is_int(w0[0])) return "expected \"NPU Name\" in the first column";
  c.npu = std::stoi(w0[0]);
  c.name = w0[1];
  c.health = cells[1];
  if (c.health.empty()) return "no health in the second column";
  auto w2 = words(cells[2]);
  if (w2.size() >= 1) c.power_w = number(w2[0]);
  if (w2.size() >= 2 && number(w2[1])) c.temp_c = static_cast<int>(*number(w2[1]));
  std::smatch m;
  if (std::regex_search(cells[2], m, used_total_re())) {
    c.hugepages_used = std::stoull(m[1]);
    c.hugepages_total = std::stoull(m[2]);
  }
  return "";
}

// | 0                         | 0000:C1:00.0  | 0           0    / 0          3379 / 65536         |   (A2)
// | 1     1                   | 0000:9F:00.0  | 0           0    / 0          3195 / 65536         |   (A3)
// The second row of a chip, completing `c`; returns what is wrong with it, empty when nothing is.
std::string parse_chip_row(const std::vector<std::string>& cells, const std::vector<std::string>& w0, NpuChip& c) {
  if (w0.empty() || w0.size() > 2 || !is_int(w0[0]) || (w0.size() == 2 && !is_int(w0[1])))
    return "expected \"Chip [Phy-ID]\" in the first column";
  c.chip = std::stoi(w0[0]);
  if (w0.size() == 2) c.phy_id = std::stoi(w0[1]);
  c.bus_id = cells[1];
  auto w2 = words(cells[2]);
  if (!w2.empty() && number(w2[0])) c.aicore_pct = static_cast<int>(*number(w2[0]));
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (std::sregex_iterator it(cells[2].begin(), cells[2].end(), used_total_re()), end; it != end; ++it)
    pairs.emplace_back(std::stoull((*it)[1]), std::stoull((*it)[2]));
  if (pairs.size() != 2) return "expected Memory-Usage and HBM-Usage as used / total";
  c.memory_used_mb = pairs[0].first;
  c.memory_total_mb = pairs[0].second;
  c.hbm_used_mb = pairs[1].first;
  c.hbm_total_mb = pairs[1].second;
  return "";
}

}  // namespace

NpuSmiInfo parse_npu_smi_info(const std::string& text) {
  NpuSmiInfo info;
  static const std::regex version_re(R"(npu-smi\s+(\S+))");
  static const std::regex bus_re(R"(^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]$)");
  static const std::regex idle_re(R"(No running processes found in NPU\s+(\d+))");
  auto fail = [&](std::size_t n, const std::string& line, const std::string& why) {
    info.ok = false;
    info.chips.clear();
    info.error = "could not parse npu-smi info: line " + std::to_string(n + 1) + ": " + why + ": \"" + line + "\"";
    return info;
  };
  const auto lines = lines_of(text);
  bool in_processes = false, saw_header = false;
  std::optional<NpuChip> pending;  // the name row waits for its chip row
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string& line = lines[n];
    const std::string t = trim(line);
    if (t.empty() || t[0] == '+') continue;
    std::smatch m;
    if (info.version.empty() && std::regex_search(t, m, version_re) && t.find("Version") != std::string::npos) {
      info.version = m[1];
      continue;
    }
    if (t[0] != '|') {
      if (!saw_header) continue;  // a banner or warning before the table
      return fail(n, line, "expected a table row starting with '|'");
    }
    const std::vector<std::string> cells = table_cells(t);
    if (std::regex_search(t, m, idle_re)) {
      info.idle_npus.push_back(std::stoi(m[1]));
      in_processes = true;
      continue;
    }
    if (!cells.empty() && cells[0].rfind("NPU", 0) == 0 && t.find("Process id") != std::string::npos) {
      in_processes = true;
      continue;
    }
    if (!cells.empty() && (cells[0].rfind("NPU", 0) == 0 || cells[0].rfind("Chip", 0) == 0)) {
      saw_header = true;
      continue;
    }
    std::string why;
    if (in_processes) {
      NpuProcess p;
      if (!(why = parse_process_row(cells, p)).empty()) return fail(n, line, why);
      info.processes.push_back(p);
      continue;
    }
    if (cells.size() < 3) return fail(n, line, "a device row needs three columns");
    const auto w0 = words(cells[0]);
    if (!std::regex_match(cells[1], bus_re)) {
      if (pending) return fail(n - 1, lines[n - 1], "a device row without its chip row");
      NpuChip c;
      if (!(why = parse_device_row(cells, w0, c)).empty()) return fail(n, line, why);
      pending = c;
      continue;
    }
    if (!pending) return fail(n, line, "a chip row without its device row");
    NpuChip c = *pending;
    pending.reset();
    if (!(why = parse_chip_row(cells, w0, c)).empty()) return fail(n, line, why);
    info.chips.push_back(c);
  }
  if (pending) return fail(lines.size() - 1, lines.empty() ? "" : lines.back(), "the last device row has no chip row");
  if (info.chips.empty()) {
    info.error = "could not parse npu-smi info: no NPU rows in " + std::to_string(lines.size()) + " lines" +
                 (lines.empty() ? "" : " (first: \"" + lines[0] + "\")");
    return info;
  }
  info.ok = true;
  return info;
}

std::string soc_version_for(const std::string& chip_name) {
  if (chip_name.rfind("Ascend", 0) == 0) return chip_name;
  return "Ascend" + chip_name;
}

std::string npu_arch_for(const std::string& soc) {
  if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0 || soc == "Ascend910") return "dav-2201";
  if (soc.rfind("Ascend950", 0) == 0) return "dav-3510";
  if (soc.rfind("Ascend310P", 0) == 0) return "dav-2002";  // unverified
  return "";
}

// ---- aclError -------------------------------------------------------------------------------------------------

std::optional<AclError> acl_error(int code) {
  switch (code) {
    case 507014: return AclError{code, "ACL_ERROR_RT_AICORE_TIMEOUT", Outcome::Timeout, 11};
    case 507015: return AclError{code, "ACL_ERROR_RT_AICORE_EXCEPTION", Outcome::Crash, 10};
    case 507016: return AclError{code, "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION", Outcome::Crash, 10};
    case 507034: return AclError{code, "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT", Outcome::Timeout, 11};
    case 507035: return AclError{code, "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION", Outcome::Crash, 10};
    case 507036: return AclError{code, "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION", Outcome::Crash, 10};
    case 507046: return AclError{code, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", Outcome::Timeout, 11};
    case 507899: return AclError{code, "ACL_ERROR_RT_DRV_INTERNAL_ERROR", Outcome::ToolError, 12};
    case 207001: return AclError{code, "ACL_ERROR_RT_MEMORY_ALLOCATION", Outcome::OutOfMemory, 9};
    default: return std::nullopt;
  }
}

std::string inner_error_message(const std::string& log) {
  const auto lines = lines_of(log);
  static const std::regex re(R"(\bE[A-Z0-9]\d{4}:)");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, re)) continue;
    std::string msg = trim(lines[i].substr(static_cast<std::size_t>(m.position(0))));
    // Continuation lines are indented or start with "TraceBack".
    for (std::size_t j = i + 1; j < lines.size() && j < i + 8; ++j) {
      if (lines[j].empty() || !(lines[j][0] == ' ' || lines[j][0] == '\t')) break;
      msg += "\n" + trim(lines[j]);
    }
    return msg;
  }
  return "";
}

std::optional<int> find_acl_error_code(const std::string& log) {
  static const std::regex re(R"((error code is|result\s*=|ret\s*=|aclError|error\s*=|code)\s*[:=]?\s*(\d{6}))", std::regex::icase);
  std::smatch m;
  if (std::regex_search(log, m, re)) return std::stoi(m[2]);
  return std::nullopt;
}

// ---- msprof op ------------------------------------------------------------------------------------------------

std::optional<std::size_t> CsvTable::column(const std::vector<std::string>& names) const {
  for (const auto& want : names)
    for (std::size_t i = 0; i < header.size(); ++i)
      if (lower(header[i]) == lower(want)) return i;
  return std::nullopt;
}

CsvTable parse_csv(const std::string& text) {
  CsvTable t;
  bool first = true;
  for (const auto& raw : lines_of(text)) {
    if (trim(raw).empty()) continue;
    std::vector<std::string> cells;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      char ch = raw[i];
      if (quoted) {
        if (ch == '"' && i + 1 < raw.size() && raw[i + 1] == '"') cur += '"', ++i;
        else if (ch == '"') quoted = false;
        else cur += ch;
      } else if (ch == '"') quoted = true;
      else if (ch == ',') cells.push_back(trim(cur)), cur.clear();
      else cur += ch;
    }
    cells.push_back(trim(cur));
    if (cells.size() > 1 && cells.back().empty()) cells.pop_back();  // msprof's trailing comma
    if (first) {
      if (!cells.empty() && cells[0].size() >= 3 && cells[0].compare(0, 3, "\xEF\xBB\xBF") == 0) cells[0].erase(0, 3);
      t.header = cells;
      first = false;
    } else {
      t.rows.push_back(cells);
    }
  }
  return t;
}

std::vector<OpBasicInfo> read_op_basic_info(const fs::path& csv) {
  CsvTable t = parse_csv(read_file(csv, "msprof OpBasicInfo.csv"));
  auto need = [&](const std::vector<std::string>& names) {
    auto c = t.column(names);
    if (!c) throw Error(csv.string() + ": no column \"" + names[0] + "\" in the header (msprof's format changed?)");
    return *c;
  };
  const std::size_t name = need({"Op Name"}), dur = need({"Task Duration(us)"});
  auto type = t.column({"Op Type"}), block = t.column({"Block Dim", "Block Num"}),
       mix = t.column({"Mix Block Dim", "Mix Block Num"}), dev = t.column({"Device Id", "Device ID"}),
       pid = t.column({"Pid", "PID"}), cur = t.column({"Current Freq"}), rated = t.column({"Rated Freq"});
  std::vector<OpBasicInfo> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    auto cell = [&](std::optional<std::size_t> c) { return c && *c < row.size() ? row[*c] : std::string(); };
    OpBasicInfo o;
    o.op_name = cell(name);
    o.op_type = cell(type);
    auto d = number(cell(dur));
    if (!d) throw Error(csv.string() + ": row " + std::to_string(r + 2) + ": Task Duration(us) is \"" + cell(dur) + "\"");
    o.task_duration_us = *d;
    o.block_dim = static_cast<int>(number(cell(block)).value_or(0));
    if (auto v = number(cell(mix))) o.mix_block_dim = static_cast<int>(*v);
    o.device_id = static_cast<int>(number(cell(dev)).value_or(-1));
    o.pid = static_cast<long>(number(cell(pid)).value_or(0));
    o.current_freq_mhz = number(cell(cur));
    o.rated_freq_mhz = number(cell(rated));
    out.push_back(o);
  }
  return out;
}

fs::path newest_opprof_dir(const fs::path& output) {
  static const std::regex re(R"(^OPPROF_(\d{14})_[A-Z]{16}$)");
  fs::path best;
  std::string best_key;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(output, ec)) {
    std::smatch m;
    const std::string n = e.path().filename().string();
    if (!e.is_directory() || !std::regex_match(n, m, re)) continue;
    auto mtime = fs::last_write_time(e.path(), ec).time_since_epoch().count();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%020lld", static_cast<long long>(mtime));
    std::string key = std::string(m[1]) + buf + n;
    if (key > best_key) best_key = key, best = e.path();
  }
  return best;
}

std::vector<fs::path> opprof_result_dirs(const fs::path& opprof) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(opprof, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string n = it->path().filename().string();
    if (it->is_directory() && (n == "dump" || n == "simulator")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && n.rfind("OpBasicInfo", 0) == 0 && it->path().extension() == ".csv")
      out.push_back(it->path().parent_path());
  }
  // Launch folders are numbers: order them numerically, the rest by name.
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
    auto num = [](const fs::path& p) {
      const std::string s = p.filename().string();
      return is_int(s) ? std::stoll(s) : -1LL;
    };
    if (a.parent_path() == b.parent_path() && num(a) >= 0 && num(b) >= 0) return num(a) < num(b);
    return a < b;
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Counter> read_opprof_counters(const fs::path& dir) {
  static const char* kTables[] = {"ArithmeticUtilization", "Memory", "MemoryL0", "MemoryUB", "PipeUtilization",
                                  "L2Cache", "ResourceConflictRatio"};
  static const std::regex unit_re(R"(^(.*?)\s*\(([^()]*)\)\s*$)");
  std::vector<Counter> out;
  std::error_code ec;
  for (const char* table : kTables) {
    // "Memory.csv" or, with several kernels, "Memory_20250101120000.csv": never MemoryL0 for Memory.
    fs::path file;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (e.path().extension() != ".csv" || n.rfind(table, 0) != 0) continue;
      const std::string rest = n.substr(std::string(table).size());
      if (rest == ".csv" || (rest.size() > 1 && rest[0] == '_' && std::isdigit(static_cast<unsigned char>(rest[1])))) file = e.path();
    }
    if (file.empty()) continue;
    CsvTable t = parse_csv(read_file_or_empty(file));
    for (const auto& row : t.rows) {
      std::string prefix;
      if (auto core = t.column({"block_id", "Block Id", "core_id"}); core && *core < row.size()) prefix = "[" + row[*core] + "] ";
      for (std::size_t i = 0; i < row.size() && i < t.header.size(); ++i) {
        auto v = number(row[i]);
        if (!v) continue;
        Counter c;
        c.section = table;
        std::smatch m;
        if (std::regex_match(t.header[i], m, unit_re)) c.name = prefix + std::string(m[1]), c.unit = m[2];
        else c.name = prefix + t.header[i];
        c.value = *v;
        out.push_back(c);
      }
    }
  }
  return out;
}

std::vector<std::string> msprof_op_command(const fs::path& msprof, const std::string& kernel_name, int launch_count,
                                           int warmup, const fs::path& output, const std::vector<std::string>& app) {
  std::vector<std::string> cmd = {msprof.string(), "op"};
  if (!kernel_name.empty()) cmd.push_back("--kernel-name=" + kernel_name);
  cmd.push_back("--launch-count=" + std::to_string(std::clamp(launch_count, 1, 5000)));
  cmd.push_back("--warm-up=" + std::to_string(std::max(warmup, 0)));
  cmd.push_back("--output=" + output.string());
  cmd.insert(cmd.end(), app.begin(), app.end());
  return cmd;
}

// ---- builds ---------------------------------------------------------------------------------------------------

std::string kernel_entry_name(const std::string& source) {
  static const std::regex re(R"(__global__\s+__aicore__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  static const std::regex re2(R"(__aicore__\s+__global__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  std::smatch m;
  if (std::regex_search(source, m, re) || std::regex_search(source, m, re2)) return m[1];
  return "";
}

std::vector<std::string> bisheng_command(const Toolkit& tk, const std::string& npu_arch, const fs::path& source,
                                         const fs::path& out, const std::vector<std::string>& include_dirs,
                                         const std::vector<std::string>& flags) {
  std::vector<std::string> cmd = {tk.bisheng.empty() ? std::string("bisheng") : tk.bisheng.string(),
                                  "-fPIC", "-shared", "-xcce"};
  if (flags.empty()) cmd.insert(cmd.end(), {"-O2", "-std=c++17"});
  else cmd.insert(cmd.end(), flags.begin(), flags.end());
  cmd.push_back("--npu-arch=" + npu_arch);
  cmd.push_back("-I" + (tk.home / "include").string());
  for (const auto& d : include_dirs) cmd.push_back("-I" + d);
  cmd.insert(cmd.end(), {source.string(), "-o", out.string()});
  return cmd;
}

std::vector<Diagnostic> parse_bisheng_output(const std::string& text) {
  // Through ascendc.cmake the compiler's own lines follow "Output of ascend_compiler:"; they are clang-style
  // either way, so the same gcc/clang parser reads both, and duplicates from the wrapper's echo are dropped.
  std::string unwrapped;
  const std::string marker = "Output of ascend_compiler:";
  for (const auto& line : lines_of(text)) {
    auto at = line.find(marker);
    unwrapped += (at == std::string::npos ? line : trim(line.substr(at + marker.size()))) + "\n";
  }
  std::vector<Diagnostic> all = parse_diagnostics(unwrapped), out;
  for (const auto& d : all) {
    bool dup = std::any_of(out.begin(), out.end(), [&](const Diagnostic& o) {
      return o.file == d.file && o.line == d.line && o.column == d.column && o.message == d.message;
    });
    if (!dup) out.push_back(d);
  }
  return out;
}

json op_json_for(const std::string& op_type, const ConcreteCase& c) {
  auto type_name = [](DType d) -> std::string {
    switch (d) {
      case DType::F32: return "float";
      case DType::F16: return "float16";
      case DType::BF16: return "bfloat16";
      case DType::F64: return "double";
      case DType::I32: return "int32";
      case DType::I64: return "int64";
      case DType::U8: return "uint8";
      case DType::I8: return "int8";
    }
    return "float";
  };
  auto descs = [&](const std::vector<ConcreteTensor>& ts) {
    json a = json::array();
    for (const auto& t : ts)
      a.push_back({{"name", t.name}, {"param_type", "required"}, {"format", {"ND"}}, {"type", {type_name(t.dtype)}}});
    return a;
  };
  json op = {{"op", op_type}, {"language", "cpp"}, {"input_desc", descs(c.inputs)}, {"output_desc", descs(c.outputs)}};
  if (!c.attrs.empty()) {
    json attrs = json::array();
    for (const auto& [n, v] : c.attrs)
      attrs.push_back({{"name", n}, {"param_type", "optional"}, {"type", "float"}, {"default_value", std::to_string(v)}});
    op["attr"] = attrs;
  }
  return json::array({op});
}

std::vector<std::string> msopgen_command(const Toolkit& tk, const fs::path& op_json, const std::string& soc,
                                         const fs::path& out_dir) {
  return {tk.msopgen.empty() ? std::string("msopgen") : tk.msopgen.string(),
          "gen", "-i", op_json.string(), "-c", "ai_core-" + soc, "-lan", "cpp", "-out", out_dir.string()};
}

}  // namespace kope::device::ascend
