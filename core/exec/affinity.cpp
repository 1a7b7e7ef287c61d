#include "kope/exec/affinity.h"

#include <pthread.h>

#include <filesystem>
#include <fstream>

namespace kope::exec {

namespace fs = std::filesystem;

std::vector<pid_t> tree_threads(pid_t root) {
  std::vector<pid_t> out, procs = {root};
  for (std::size_t i = 0; i < procs.size() && procs.size() < 4096; ++i) {
    std::error_code ec;
    const fs::path tasks = "/proc/" + std::to_string(procs[i]) + "/task";
    for (const auto& t : fs::directory_iterator(tasks, ec)) {
      const pid_t tid = static_cast<pid_t>(std::atoi(t.path().filename().c_str()));
      if (tid <= 0) continue;
      out.push_back(tid);
      std::ifstream children(t.path() / "children");  // CONFIG_PROC_CHILDREN: the thread's child processes
      for (pid_t c; children >> c;) procs.push_back(c);
    }
  }
  return out;
}

CorePin::CorePin(const std::vector<pid_t>& roots, const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
  active_ = pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) == 0;
  if (active_) pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  for (pid_t root : roots)
    for (pid_t tid : tree_threads(root)) (sched_setaffinity(tid, sizeof set, &set) == 0 ? pinned_ : failures_)++;
}

CorePin::~CorePin() {
  if (active_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
}

}  // namespace kope::exec
