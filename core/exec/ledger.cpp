// The judge's ledger of CPU spent outside calls: see kope/ledger.h.
#include "kope/exec/ledger.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace kope::exec {

int open_task_clock(int pid, std::string& why) {
  perf_event_attr a{};
  a.type = PERF_TYPE_SOFTWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.inherit = 1;
  const int fd = static_cast<int>(syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0) why = std::string("perf_event_open: ") + std::strerror(errno);
  return fd;
}

namespace {
void insert_sorted(std::vector<int64_t>& v, int64_t x) { v.insert(std::upper_bound(v.begin(), v.end(), x), x); }
int64_t median_or(const std::vector<int64_t>& v, int64_t fallback) { return v.empty() ? fallback : v[v.size() / 2]; }
constexpr int64_t kTickNs = 10000000;  // the coarsest tick a Linux kernel uses (HZ=100)
}  // namespace

void Ledger::baseline_window(const Window& w) {
  insert_sorted(after_, std::max<int64_t>(0, w.after_ns));
  insert_sorted(before_, std::max<int64_t>(0, w.before_ns));
  last_ = w;
}

int64_t Ledger::after_bookkeeping_ns() const { return std::max(median_or(after_, kDefaultAfterNs), last_.after_ns); }
int64_t Ledger::before_bookkeeping_ns() const { return std::max(median_or(before_, kDefaultBeforeNs), last_.before_ns); }

Ledger::Excess Ledger::kernel_window(const Window& w, bool warming) {
  const int64_t after = std::max<int64_t>(0, w.after_ns), before = std::max<int64_t>(0, w.before_ns);
  const int64_t tick = (coarse_ ? kTickNs : 0) + (warming ? kWarmingSlackNs : 0);
  Excess e;
  e.after_ns = std::max<int64_t>(0, after - after_bookkeeping_ns() - kAfterSlackNs - tick);
  e.before_ns = std::max<int64_t>(0, before - before_bookkeeping_ns() - kBeforeSlackNs - tick);
  ++windows_;
  cpu_ns_ += after + before;
  wall_ns_ += std::max<int64_t>(0, w.wall_ns);
  excess_ns_ += e.after_ns + e.before_ns;
  return e;
}

std::string Ledger::describe() const {
  std::ostringstream s;
  s << excess_ns_ / 1000 << " us of CPU beyond the worker's own bookkeeping (" << cpu_ns_ / 1000 << " us in "
    << windows_ << " window(s) between its calls, " << wall_ns_ / 1000
    << " us long; the baseline's worker spent " << after_bookkeeping_ns() / 1000.0 << " us after a call and "
    << before_bookkeeping_ns() / 1000.0 << " us before one; allowed " << allowed_ns() / 1000 << " us"
    << (coarse_ ? ", less a tick a window: no exact clock here" : "") << ")";
  return s.str();
}

}  // namespace kope::exec
