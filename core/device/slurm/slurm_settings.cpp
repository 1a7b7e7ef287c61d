// The Slurm executor's options: the settings file (kope/slurm.json beside the LLM profiles' llm.json), the
// command line's over it, and the job states scontrol and sacct print.
#include <cstdlib>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/device/slurm.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path slurm_settings_path() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return fs::path(x) / "kope" / "slurm.json";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".config" / "kope" / "slurm.json";
  return fs::current_path() / "slurm.json";
}

SlurmOptions slurm_options_from_json(const json& j, const std::string& where) {
  auto bad = [&](const std::string& ptr, const std::string& what) {
    return Error("Slurm settings " + where + ": " + ptr + ": " + what);
  };
  if (!j.is_object()) throw bad("(root)", "expected an object with partition, gres, time, account, sbatch_args, dir, exclusive");
  static const char* known[] = {"partition", "gres", "time", "account", "sbatch_args", "dir", "exclusive"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) throw bad("/" + it.key(), "unknown field (fields: partition, gres, time, account, sbatch_args, dir, exclusive)");
  }
  SlurmOptions o;
  auto str = [&](const char* k, std::string& out) {
    if (!j.contains(k)) return;
    if (!j[k].is_string()) throw bad(std::string("/") + k, "expected a string");
    out = j[k].get<std::string>();
  };
  str("partition", o.partition);
  str("gres", o.gres);
  str("time", o.time);
  str("account", o.account);
  std::string dir;
  str("dir", dir);
  if (!dir.empty() && !fs::path(dir).is_absolute())
    throw bad("/dir", "expected an absolute path on a filesystem the nodes share, got \"" + dir + "\"");
  o.dir = dir;
  if (j.contains("sbatch_args")) {
    const json& a = j["sbatch_args"];
    if (!a.is_array()) throw bad("/sbatch_args", "expected an array of strings, one sbatch argument each");
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_string()) throw bad("/sbatch_args/" + std::to_string(i), "expected a string");
      o.sbatch_args.push_back(a[i].get<std::string>());
    }
  }
  if (j.contains("exclusive")) {
    if (!j["exclusive"].is_boolean()) throw bad("/exclusive", "expected true or false");
    o.exclusive = j["exclusive"].get<bool>();
  }
  return o;
}

SlurmOptions load_slurm_settings(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  const std::string text = read_file(file, "Slurm settings file");
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error("Slurm settings '" + file.string() + "': not valid JSON at byte " + std::to_string(e.byte) + ": " +
                e.what());
  }
  return slurm_options_from_json(j, "'" + file.string() + "'");
}

json to_json(const SlurmOptions& o) {
  return {{"partition", o.partition}, {"gres", o.gres}, {"time", o.time}, {"account", o.account},
          {"sbatch_args", o.sbatch_args}, {"dir", o.dir.string()}, {"exclusive", o.exclusive}};
}

namespace {

struct ProcessOptions {
  std::mutex mu;
  std::optional<SlurmOptions> options;
};

ProcessOptions& process_options() {
  static ProcessOptions p;
  return p;
}

}  // namespace

void set_slurm_options(const SlurmOptions& o) {
  ProcessOptions& p = process_options();
  std::lock_guard<std::mutex> lock(p.mu);
  p.options = o;
}

SlurmOptions slurm_options() {
  ProcessOptions& p = process_options();
  std::lock_guard<std::mutex> lock(p.mu);
  if (!p.options) p.options = load_slurm_settings(slurm_settings_path());
  return *p.options;
}

std::optional<std::string> slurm_kind(const std::string& spec) {
  static const std::string prefix = "slurm:";
  if (spec.rfind(prefix, 0) != 0) return std::nullopt;
  return spec.substr(prefix.size());
}

bool slurm_state_final(const std::string& state) {
  static const char* running[] = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED",
                                  "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "RESV_DEL_HOLD", "REVOKED",
                                  "SIGNALING", "SPECIAL_EXIT", "STAGE_OUT", "STOPPED", "POWER_UP_NODE"};
  if (state.empty()) return false;
  for (const char* s : running)
    if (state == s) return false;
  return true;
}

std::optional<SlurmJobEnd> parse_scontrol_job(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  SlurmJobEnd e;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "JobState") e.state = value;
    else if (key == "Reason") e.reason = value;
    else if (key == "ExitCode") {
      // "status:signal"
      const auto colon = value.find(':');
      e.exit_code = std::atoi(value.substr(0, colon).c_str());
      if (colon != std::string::npos) e.signal = std::atoi(value.substr(colon + 1).c_str());
    }
  }
  if (e.state.empty()) return std::nullopt;
  return e;
}

}  // namespace kope::device
