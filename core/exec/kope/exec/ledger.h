// The judge's account of the CPU a kernel's worker spends while no call of it is under way. A call ends when
// the worker says "done", and a kernel could say it early and finish afterwards, work before its call from
// inputs already in memory, or keep threads busy between calls: all of that is CPU outside the call. The
// judge reads the worker's CPU from the OS with a clock nothing in the worker can write or stop (a perf
// task-clock counter on the worker and every thread it starts, exact even while a thread runs), just before
// it wakes the worker, when it sees the worker's acknowledgement, and when it sees "done":
//   - after: from "done" to the next wake-up (an honest worker is asleep for all but its first microseconds);
//   - before: from that wake-up to the acknowledgement (the worker readies the call and spins briefly for go).
// The trusted baseline's worker runs the same worker code around its own calls, so its windows measure honest
// bookkeeping on this machine at this moment (the larger of its median and its latest window, so that a moment
// of load that slows both is not held against the kernel). What a kernel spends after "done" beyond it is added to
// that call's time (an early "done" buys nothing); before "go", a wake-up is too variable to charge to the
// microsecond, so only what goes well beyond it counts. More than a little of either in a case is work outside
// the calls: CaseStatus::Background, with these figures as its evidence.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kope::exec {

// A perf task-clock counter on process `pid` and every thread it starts from now on (exact CPU ns, read with
// read(2) as a uint64_t): the clock the ledger reads. Returns the fd, or -1 with `why` set.
int open_task_clock(int pid, std::string& why);

class Ledger {
 public:
  static constexpr int64_t kAfterSlackNs = 3000;   // an interrupt, a cold cache line on the way to sleep
  // The way in: a wake-up on a busy machine varies by tens of microseconds (measured: honest windows 20-60 us
  // over a baseline's 8-15 us beside another test), so only what goes beyond this counts, and it is not charged.
  static constexpr int64_t kBeforeSlackNs = 50000;
  static constexpr int64_t kWarmingSlackNs = 200000;
  static constexpr int64_t kFlagNs = 100000;       // unexplained CPU a case may hold before it is flagged
  static constexpr double kFlagShare = 0.01;       // ... plus this share of the time between its calls
  // Until the baseline has had windows of its own, a window's bookkeeping is taken to be at most this.
  static constexpr int64_t kDefaultAfterNs = 10000, kDefaultBeforeNs = 20000;

  struct Window {
    int64_t after_ns = 0, before_ns = 0;  // CPU, see above
    int64_t wall_ns = 0;                  // how long the "after" part lasted
  };
  // What a kernel window spent beyond the baseline's bookkeeping: `after` is work after "done", added to the call
  // before the window; `before` is work before "go", held against the kernel but not added to a call's time.
  struct Excess {
    int64_t after_ns = 0, before_ns = 0;
  };

  // `coarse`: the clock is the process clock, which Linux brings up to date for a running thread only at ticks
  // and switches (no perf counter here): a window may then hold up to a tick of its call's own time, and only
  // what goes beyond a tick per window counts.
  explicit Ledger(bool coarse = false) : coarse_(coarse) {}

  void baseline_window(const Window& w);
  // `warming`: a window before the first timed call (after the correctness call, around the warm-ups), while
  // both workers' pages and caches warm up: it may spend kWarmingSlackNs more before anything counts.
  Excess kernel_window(const Window& w, bool warming = false);

  int64_t after_bookkeeping_ns() const;
  int64_t before_bookkeeping_ns() const;
  bool flagged() const { return excess_ns_ > allowed_ns(); }
  int64_t allowed_ns() const { return kFlagNs + static_cast<int64_t>(kFlagShare * static_cast<double>(wall_ns_)); }
  int64_t excess_ns() const { return excess_ns_; }
  int64_t cpu_ns() const { return cpu_ns_; }
  int64_t wall_ns() const { return wall_ns_; }
  int windows() const { return windows_; }
  bool coarse() const { return coarse_; }
  // One line for a report: what was measured against what was allowed.
  std::string describe() const;

 private:
  bool coarse_;
  std::vector<int64_t> after_, before_;  // the baseline's windows, sorted
  Window last_;                          // the baseline's latest window: the same moment's conditions
  int64_t excess_ns_ = 0, cpu_ns_ = 0, wall_ns_ = 0;
  int windows_ = 0;
};

}  // namespace kope::exec
