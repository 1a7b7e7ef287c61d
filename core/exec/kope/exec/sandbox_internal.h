// Parts of the sandbox shared between its source files: the seccomp filters and the per-child cgroups.
#pragma once

#include <linux/filter.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kope/exec/sandbox.h"

namespace kope::exec::detail {

// The filter every sandboxed child gets (allow_exec = true: no sockets, no namespaces, no ptrace, ...; exec
// allowed so a compiler can run its passes), or the stricter one a worker installs on itself (allow_exec =
// false). Returns "" and fills `program` with the BPF code, else why it could not be built.
std::string seccomp_program(bool allow_exec, bool allow_network, std::vector<sock_filter>& program);

// Where per-child cgroups can be made, probed once: for each controller the parent folder, or why not.
struct CgroupPlan {
  std::filesystem::path memory_parent;   // v1 memory hierarchy or a v2 folder with memory enabled
  std::filesystem::path pids_parent;
  std::filesystem::path cpu_parent;      // v1 cpuacct, or a v2 folder (cpu.stat is always there)
  bool memory_v2 = false, pids_v2 = false, cpu_v2 = false;
  std::string memory_why, pids_why, cpu_why;  // set when the matching parent is empty
};
const CgroupPlan& cgroup_plan();

// The cgroups of one sandboxed tree: made with limits, the child moved in before it runs anything of its own,
// killed and removed on destruction.
class TreeCgroup {
 public:
  // Makes what the plan allows; notes active and missing mechanisms in `iso`.
  TreeCgroup(const SandboxSpec& spec, Isolation& iso);
  ~TreeCgroup();
  TreeCgroup(const TreeCgroup&) = delete;
  TreeCgroup& operator=(const TreeCgroup&) = delete;

  bool has_memory() const { return !memory_.empty(); }
  bool has_pids() const { return !pids_.empty(); }
  bool has_cpu() const { return !cpu_.empty(); }
  // Moves `pid` into every cgroup made; on failure drops that cgroup and notes it missing in `iso`.
  void add(pid_t pid, Isolation& iso);
  void kill_all();
  // Kills and waits (bounded) until no process is left, then removes the folders.
  void destroy();
  uint64_t peak_memory() const;
  double cpu_seconds() const;  // CPU time of the whole tree, -1 if not measured
  std::string limit_hit() const;  // "memory" / "process count" when the kernel enforced one, else ""

 private:
  std::vector<std::filesystem::path> all() const;
  std::filesystem::path memory_, pids_, cpu_;
  bool memory_v2_ = false, pids_v2_ = false, cpu_v2_ = false;
  uint64_t memory_limit_ = 0;
};

}  // namespace kope::exec::detail
