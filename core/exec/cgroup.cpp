// Per-child cgroups: memory, process count and CPU time of a whole sandboxed tree, and a kill that reaches every
// descendant. Uses cgroup v2 where a writable subtree has the controllers (a delegated one, or $KOPE_CGROUP), else
// the v1 hierarchies (memory, pids, cpuacct), each probed on its own, under the cgroup kope itself runs in.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "kope/exec/sandbox_internal.h"

namespace kope::exec::detail {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes `text` to a control file; returns "" or the OS reason.
std::string write_ctl(const fs::path& p, const std::string& text) {
  int fd = open(p.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return p.string() + ": " + std::strerror(errno);
  ssize_t n = write(fd, text.data(), text.size());
  int e = errno;
  close(fd);
  if (n != static_cast<ssize_t>(text.size())) return "writing '" + text + "' to " + p.string() + ": " + std::strerror(e);
  return "";
}

uint64_t read_u64(const fs::path& p) {
  std::string t = read_text(p);
  return t.empty() ? 0 : std::strtoull(t.c_str(), nullptr, 10);
}

uint64_t field_u64(const fs::path& p, const std::string& key) {
  std::istringstream in(read_text(p));
  std::string k;
  uint64_t v;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

struct Mount {
  fs::path point;
  std::string root;       // the mount's root inside the hierarchy
  std::string fstype;     // cgroup or cgroup2
  std::string options;    // super options: the v1 controllers
};

std::vector<Mount> cgroup_mounts() {
  std::vector<Mount> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root point options [optional...] - fstype source superoptions
    auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream pre(line.substr(0, dash)), post(line.substr(dash + 3));
    std::string id, parent, dev, root, point, fstype, source, super;
    pre >> id >> parent >> dev >> root >> point;
    post >> fstype >> source >> super;
    if (fstype == "cgroup" || fstype == "cgroup2") out.push_back({point, root, fstype, super});
  }
  return out;
}

bool has_word(const std::string& list, const std::string& word, char sep) {
  std::istringstream in(list);
  std::string w;
  while (std::getline(in, w, sep))
    if (w == word) return true;
  return false;
}

bool has_token(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  std::string w;
  while (in >> w)
    if (w == word) return true;
  return false;
}

// The folder of kope's own cgroup in a hierarchy, from /proc/self/cgroup.
fs::path own_dir(const Mount& m, const std::map<std::string, std::string>& own) {
  std::string path;
  bool found = false;
  for (const auto& [controllers, p] : own) {
    bool match = controllers.empty() == (m.fstype == "cgroup2");
    if (match && !controllers.empty()) {
      std::istringstream in(controllers);
      std::string c;
      while (std::getline(in, c, ','))
        if (!has_word(m.options, c, ',')) match = false;
    }
    if (match) path = p, found = true;
  }
  if (!found) return {};
  if (m.root != "/" && path.rfind(m.root, 0) == 0) path = path.substr(m.root.size());
  const fs::path rel = fs::path(path).relative_path();
  return rel.empty() ? m.point : m.point / rel;
}

// Makes and removes a probe child under `parent`; returns "" when the controller's file `ctl` appears in it.
std::string try_child(const fs::path& parent, const std::string& ctl) {
  fs::path probe = parent / ("kope-probe-" + std::to_string(getpid()));
  if (mkdir(probe.c_str(), 0755) != 0 && errno != EEXIST) return "cannot create a cgroup under " + parent.string() + ": " + std::strerror(errno);
  bool ok = access((probe / ctl).c_str(), W_OK) == 0 || (ctl == "cpuacct.usage" && access((probe / ctl).c_str(), R_OK) == 0) ||
            (ctl == "cpu.stat" && access((probe / ctl).c_str(), R_OK) == 0);
  rmdir(probe.c_str());
  return ok ? "" : (probe / ctl).string() + " is missing or not writable";
}

CgroupPlan probe() {
  CgroupPlan plan;
  std::map<std::string, std::string> own;  // controllers -> path
  {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
      auto a = line.find(':'), b = line.find(':', a + 1);
      if (a == std::string::npos || b == std::string::npos) continue;
      own[line.substr(a + 1, b - a - 1)] = line.substr(b + 1);
    }
  }
  const auto mounts = cgroup_mounts();
  plan.memory_why = plan.pids_why = plan.cpu_why = "no cgroup hierarchy is mounted";

  // v2: an explicitly delegated folder, else kope's own cgroup, if its children get the controllers.
  for (const auto& m : mounts) {
    if (m.fstype != "cgroup2") continue;
    fs::path parent;
    if (const char* env = std::getenv("KOPE_CGROUP"); env && *env) parent = env;
    else parent = own_dir(m, own);
    if (parent.empty()) continue;
    std::string controllers = read_text(parent / "cgroup.controllers");
    std::string subtree = read_text(parent / "cgroup.subtree_control");
    // A delegated cgroup that holds kope alone (e.g. `systemd-run --user --scope -p Delegate=yes kope ...`):
    // a cgroup with processes of its own cannot give its children controllers, so kope moves into a leaf of it.
    const bool wants = (has_token(controllers, "memory") && !has_token(subtree, "memory")) ||
                       (has_token(controllers, "pids") && !has_token(subtree, "pids"));
    if (wants && !std::getenv("KOPE_CGROUP") && parent != m.point && access((parent / "cgroup.procs").c_str(), W_OK) == 0) {
      std::istringstream procs(read_text(parent / "cgroup.procs"));
      std::vector<long> members;
      long pid;
      while (procs >> pid) members.push_back(pid);
      if (members.size() == 1 && members[0] == getpid()) {
        fs::path leaf = parent / "kope-main";
        if ((mkdir(leaf.c_str(), 0755) == 0 || errno == EEXIST) &&
            write_ctl(leaf / "cgroup.procs", std::to_string(getpid())).empty())
          subtree = read_text(parent / "cgroup.subtree_control");
      }
    }
    auto enable = [&](const std::string& c) -> std::string {
      if (!has_token(controllers, c))
        return "cgroup v2 at " + parent.string() + " offers no " + c + " controller (cgroup.controllers: " +
               (controllers.empty() ? std::string("empty") : controllers.substr(0, controllers.find('\n'))) + ")";
      if (!has_token(subtree, c)) {
        if (std::string e = write_ctl(parent / "cgroup.subtree_control", "+" + c); !e.empty())
          return "cgroup v2 at " + parent.string() + ": cannot give child cgroups the " + c + " controller (" + e +
                 "); start kope in a delegated cgroup of its own (systemd-run --user --scope -p Delegate=yes) or "
                 "point $KOPE_CGROUP at an empty delegated one";
      }
      return try_child(parent, c == "memory" ? "memory.max" : "pids.max");
    };
    if (std::string e = enable("memory"); e.empty()) plan.memory_parent = parent, plan.memory_v2 = true;
    else plan.memory_why = e;
    if (std::string e = enable("pids"); e.empty()) plan.pids_parent = parent, plan.pids_v2 = true;
    else plan.pids_why = e;
    if (std::string e = try_child(parent, "cpu.stat"); e.empty()) plan.cpu_parent = parent, plan.cpu_v2 = true;
    else plan.cpu_why = e;
  }
  // v1 for whatever v2 did not give.
  for (const auto& m : mounts) {
    if (m.fstype != "cgroup") continue;
    auto take = [&](const char* controller, const char* ctl, fs::path& parent, std::string& why) {
      if (!parent.empty() || !has_word(m.options, controller, ',')) return;
      fs::path dir = own_dir(m, own);
      if (dir.empty()) {
        why = std::string("kope's own ") + controller + " cgroup is not in /proc/self/cgroup";
        return;
      }
      if (std::string e = try_child(dir, ctl); e.empty()) parent = dir;
      else why = "cgroup v1 " + std::string(controller) + ": " + e;
    };
    take("memory", "memory.limit_in_bytes", plan.memory_parent, plan.memory_why);
    take("pids", "pids.max", plan.pids_parent, plan.pids_why);
    take("cpuacct", "cpuacct.usage", plan.cpu_parent, plan.cpu_why);
  }
  if (!plan.memory_parent.empty()) plan.memory_why.clear();
  if (!plan.pids_parent.empty()) plan.pids_why.clear();
  if (!plan.cpu_parent.empty()) plan.cpu_why.clear();
  return plan;
}

std::vector<pid_t> procs(const fs::path& dir) {
  std::vector<pid_t> out;
  std::istringstream in(read_text(dir / "cgroup.procs"));
  long p;
  while (in >> p) out.push_back(static_cast<pid_t>(p));
  return out;
}

}  // namespace

const CgroupPlan& cgroup_plan() {
  static const CgroupPlan plan = probe();
  return plan;
}

TreeCgroup::TreeCgroup(const SandboxSpec& spec, Isolation& iso) {
  const CgroupPlan& plan = cgroup_plan();
  static std::atomic<unsigned> counter{0};
  const std::string name = "kope-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  auto make = [&](const fs::path& parent, const std::string& why, const char* mech, fs::path& into) {
    if (parent.empty()) {
      iso.missing.push_back({mech, why});
      return;
    }
    fs::path dir = parent / name;
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      iso.missing.push_back({mech, "cannot create " + dir.string() + ": " + std::strerror(errno)});
      return;
    }
    into = dir;
  };
  // One folder serves several controllers on v2; make it once.
  make(plan.memory_parent, plan.memory_why, "cgroup-memory", memory_);
  memory_v2_ = plan.memory_v2;
  if (plan.pids_parent == plan.memory_parent && !memory_.empty()) pids_ = memory_;
  else make(plan.pids_parent, plan.pids_why, "cgroup-pids", pids_);
  pids_v2_ = plan.pids_v2;
  if (plan.cpu_parent == plan.memory_parent && !memory_.empty()) cpu_ = memory_;
  else if (plan.cpu_parent == plan.pids_parent && !pids_.empty()) cpu_ = pids_;
  else make(plan.cpu_parent, plan.cpu_why, "cgroup-cpu", cpu_);
  cpu_v2_ = plan.cpu_v2;

  if (!memory_.empty()) {
    std::string e;
    if (spec.memory_bytes) {
      memory_limit_ = spec.memory_bytes;
      const std::string v = std::to_string(spec.memory_bytes);
      if (memory_v2_) {
        e = write_ctl(memory_ / "memory.max", v);
        if (e.empty() && fs::exists(memory_ / "memory.swap.max")) write_ctl(memory_ / "memory.swap.max", "0");
      } else {
        e = write_ctl(memory_ / "memory.limit_in_bytes", v);
        if (e.empty() && fs::exists(memory_ / "memory.memsw.limit_in_bytes"))
          write_ctl(memory_ / "memory.memsw.limit_in_bytes", v);
      }
    }
    if (e.empty()) iso.active.push_back("cgroup-memory");
    else {
      iso.missing.push_back({"cgroup-memory", e});
      rmdir(memory_.c_str());
      if (pids_ == memory_) pids_.clear();
      if (cpu_ == memory_) cpu_.clear();
      memory_.clear();
    }
  }
  if (!pids_.empty()) {
    std::string e = spec.max_processes ? write_ctl(pids_ / "pids.max", std::to_string(spec.max_processes)) : "";
    if (e.empty()) iso.active.push_back("cgroup-pids");
    else {
      iso.missing.push_back({"cgroup-pids", e});
      if (pids_ != memory_) rmdir(pids_.c_str());
      if (cpu_ == pids_) cpu_.clear();
      pids_.clear();
    }
  }
  if (!cpu_.empty()) iso.active.push_back("cgroup-cpu");
}

std::vector<fs::path> TreeCgroup::all() const {
  std::vector<fs::path> out;
  for (const fs::path* p : {&memory_, &pids_, &cpu_})
    if (!p->empty() && std::find(out.begin(), out.end(), *p) == out.end()) out.push_back(*p);
  return out;
}

void TreeCgroup::add(pid_t pid, Isolation& iso) {
  const std::string text = std::to_string(pid);
  auto drop = [&](fs::path& dir, const char* mech, const std::string& why) {
    iso.missing.push_back({mech, why});
    iso.active.erase(std::remove(iso.active.begin(), iso.active.end(), std::string(mech)), iso.active.end());
    dir.clear();
  };
  std::map<fs::path, std::string> done;
  for (auto [dir, mech] : {std::pair<fs::path*, const char*>{&memory_, "cgroup-memory"}, {&pids_, "cgroup-pids"},
                           {&cpu_, "cgroup-cpu"}}) {
    if (dir->empty()) continue;
    auto it = done.find(*dir);
    std::string e = it != done.end() ? it->second : write_ctl(*dir / "cgroup.procs", text);
    done[*dir] = e;
    if (!e.empty()) {
      fs::path gone = *dir;
      drop(*dir, mech, e);
      rmdir(gone.c_str());
    }
  }
}

void TreeCgroup::kill_all() {
  // cgroup.kill (v2, Linux 5.14) kills atomically; otherwise signal every member until none is left. A fork
  // racing the loop is bounded by pids.max and caught by the next round.
  for (const auto& dir : all()) {
    if (fs::exists(dir / "cgroup.kill") && write_ctl(dir / "cgroup.kill", "1").empty()) continue;
    for (int round = 0; round < 50; ++round) {
      auto ps = procs(dir);
      if (ps.empty()) break;
      for (pid_t p : ps) kill(p, SIGKILL);
    }
  }
}

void TreeCgroup::destroy() {
  auto dirs = all();
  if (dirs.empty()) return;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (const auto& dir : dirs) {
    while (true) {
      kill_all();
      if (rmdir(dir.c_str()) == 0 || errno == ENOENT) break;
      if (std::chrono::steady_clock::now() > deadline) break;  // left behind; named in no report, but harmless
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  memory_.clear();
  pids_.clear();
  cpu_.clear();
}

TreeCgroup::~TreeCgroup() { destroy(); }

uint64_t TreeCgroup::peak_memory() const {
  if (memory_.empty()) return 0;
  return memory_v2_ ? read_u64(memory_ / "memory.peak") : read_u64(memory_ / "memory.max_usage_in_bytes");
}

double TreeCgroup::cpu_seconds() const {
  if (cpu_.empty()) return -1;
  if (cpu_v2_) return static_cast<double>(field_u64(cpu_ / "cpu.stat", "usage_usec")) * 1e-6;
  return static_cast<double>(read_u64(cpu_ / "cpuacct.usage")) * 1e-9;
}

std::string TreeCgroup::limit_hit() const {
  if (!memory_.empty()) {
    bool hit = memory_v2_ ? field_u64(memory_ / "memory.events", "oom_kill") > 0
                          : field_u64(memory_ / "memory.oom_control", "oom_kill") > 0;
    if (hit) return "memory";
  }
  if (!pids_.empty() && field_u64(pids_ / "pids.events", "max") > 0) return "process count";
  return "";
}

}  // namespace kope::exec::detail
