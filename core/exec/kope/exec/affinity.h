// Pinning a measurement to its timing slot's cores (kope/base/timing_slots.h): the judge's thread and every
// thread of the workers' process trees, for as long as the slot is held.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <sched.h>

namespace kope::exec {

class CorePin {
 public:
  // Pins the calling thread and each thread of each process tree under `roots` to `cpus`; nothing when `cpus`
  // is empty. A thread that cannot be pinned (it ended meanwhile) is skipped; `failures` says how many were.
  CorePin(const std::vector<pid_t>& roots, const std::vector<int>& cpus);
  ~CorePin();  // the calling thread's own mask comes back
  CorePin(const CorePin&) = delete;
  CorePin& operator=(const CorePin&) = delete;
  int pinned() const { return pinned_; }
  int failures() const { return failures_; }

 private:
  bool active_ = false;
  cpu_set_t saved_{};
  int pinned_ = 0, failures_ = 0;
};

// Every thread id of the process tree under `root` (its threads, its children's, and so on), from /proc.
std::vector<pid_t> tree_threads(pid_t root);

}  // namespace kope::exec
