// Timing never overlaps with other timing on the same cores or device (issue 19): with several tasks evaluated
// at once, every timed phase holds one slot of its device's pool for as long as it measures. Builds, goldens,
// correctness calls and model requests run side by side; only measurements queue here. A slot is a set of CPU
// cores (the local CPU: `cpu:0-3,cpu:4-7` gives two slots that time side by side on their own cores) or one
// accelerator (`cuda:0,1`, `ascend:0-7`). A slot whose device fails its health check is retired with the reason,
// and measurements go on on the others.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "kope/base/cancel.h"

namespace kope {

struct SlotSpec {
  std::string name;       // what the pool shows: "cpu:0-3", "cuda:1", "ascend:3"
  std::vector<int> cpus;  // the cores its timed calls are pinned to; empty: not pinned
  int device_index = -1;  // the accelerator's index; -1: the device's default
};

// What one slot is doing, for a live view of the pool.
struct SlotState {
  SlotSpec spec;
  bool busy = false;
  std::string doing;    // "gelu: timing case n4096" while busy
  bool retired = false;
  std::string why;      // why it was taken out of the pool
  int64_t measurements = 0;
};

class TimingSlots {
 public:
  // The process-wide pool of a device ("cpu", "cuda", "ascend", "cuda@host"); one unpinned slot until configured.
  static TimingSlots& of(const std::string& device);

  // Replaces the slots (between runs: not while one is held). An empty list means one unpinned slot.
  void configure(std::vector<SlotSpec> slots);

  class Held {
   public:
    Held() = default;
    Held(Held&& o) noexcept : pool_(o.pool_), index_(o.index_) { o.pool_ = nullptr; }
    Held& operator=(Held&&) = delete;
    Held(const Held&) = delete;
    ~Held() { release(); }
    explicit operator bool() const { return pool_ != nullptr; }
    const SlotSpec& spec() const;
    int index() const { return index_; }
    // The slot's device failed its health check: it leaves the pool with `why` (never the kernel's fault).
    void retire(const std::string& why);
    void release();

   private:
    friend class TimingSlots;
    Held(TimingSlots* pool, int index) : pool_(pool), index_(index) {}
    TimingSlots* pool_ = nullptr;
    int index_ = -1;
  };

  // Waits for a free slot. An empty Held when `cancel` fires first; throws kope::Error when every slot is
  // retired (naming each one's reason).
  Held acquire(const std::string& doing, const CancelToken* cancel = nullptr);

  std::vector<SlotState> states() const;
  // For tests and the benchmark: the most slots ever held at once, and measurements that had to wait.
  int max_held_at_once() const;
  int64_t waits() const;

 private:
  TimingSlots() { configure({}); }
  void put_back(int index);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<SlotState> slots_;
  int held_now_ = 0, max_held_ = 0;
  int64_t waits_ = 0;
};

// "0-3,8" -> {0,1,2,3,8}; throws kope::Error naming `what` on anything else.
std::vector<int> parse_index_list(const std::string& text, const std::string& what);

}  // namespace kope
