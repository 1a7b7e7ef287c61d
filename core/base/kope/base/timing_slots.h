// Timing never overlaps with other timing on the same cores or device (issue 19): with several tasks evaluated
// at once, every timed phase holds one slot of its device's pool for as long as it measures; model requests run
// side by side. Builds, goldens, correctness calls and worker start-ups on this machine are side work (side()):
// they run beside the timing where the slots leave cores to spare, and take turns with it where they do not (one
// unpinned slot, as on a two-core machine), so no compile shares a core with a timed call. A slot is a set of CPU
// cores (the local CPU: `cpu:0-3,cpu:4-7` gives two slots that time side by side on their own cores) or one
// accelerator (`cuda:0,1`, `ascend:0-7`). A slot whose device fails its health check is retired with the reason,
// and measurements go on on the others.
#pragma once

#include <sched.h>

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
  // Timing also waits for the side work under way where the slots leave no core to spare (below).
  Held acquire(const std::string& doing, const CancelToken* cancel = nullptr);

  // Work that uses this machine's cores beside the measurements: builds, goldens, correctness calls, worker
  // start-ups. Where every slot is pinned and some cores are in none (`cpu:1` on two cores, `cpu:0-3,cpu:4-7`
  // on ten), the calling thread is pinned to those spare cores for as long as the Side is held (the processes
  // and threads it starts inherit them) and nothing waits. Otherwise side work and timing take turns: a Side
  // waits while a slot is held or a measurement waits for one (timing goes first), and acquire() waits for every
  // Side to end. A thread's nested Sides count once; a thread should release its Side before it acquires a
  // slot (one that does not is not held back by side work, so that two such threads cannot wait for each
  // other). A Side belongs to the thread that made it. An empty (uncounted) Side when `cancel` fires meanwhile.
  class Side {
   public:
    Side() = default;
    Side(Side&& o) noexcept;
    Side& operator=(Side&&) = delete;
    Side(const Side&) = delete;
    ~Side() { release(); }
    void release();

   private:
    friend class TimingSlots;
    TimingSlots* pool_ = nullptr;
    bool pinned_ = false;
    cpu_set_t saved_{};
  };
  Side side(const CancelToken* cancel = nullptr);

  // One evaluation on this machine's cores, from its compile to its last timed call: evaluations go one after
  // another in the order they came, at most as many at once as the pool has slots in service. Shared call by call
  // instead, evaluations that came together all ended late together: with `--jobs 4` and a fixed model latency
  // the tasks stayed in step, all evaluating at once and then all waiting for the model at once (issue 19's
  // pace). One after another, the first ends as soon as it would alone, its task asks the model again while the
  // next one is judged, and the tasks fall out of step. Little is lost on one slot, where side work and timing
  // take turns anyway. A thread's nested Turns count once. An empty Turn when `cancel` fires while it waits.
  class Turn {
   public:
    Turn() = default;
    Turn(Turn&& o) noexcept : pool_(o.pool_) { o.pool_ = nullptr; }
    Turn& operator=(Turn&&) = delete;
    Turn(const Turn&) = delete;
    ~Turn() { release(); }
    explicit operator bool() const { return pool_ != nullptr; }
    void release();

   private:
    friend class TimingSlots;
    TimingSlots* pool_ = nullptr;
  };
  Turn turn(const CancelToken* cancel = nullptr);
  // Turns that had to wait for an earlier evaluation's, and those waiting now.
  int64_t turn_waits() const;
  int turns_waiting() const;

  // The cores side work is pinned to; empty where side work takes turns with timing.
  std::vector<int> side_cpus() const;

  std::vector<SlotState> states() const;
  // For tests and the benchmark: the most slots ever held at once, and measurements that had to wait.
  int max_held_at_once() const;
  int64_t waits() const;
  // Side work that waited for timing, and measurements that waited for side work: how often each gave way.
  int64_t side_waits() const;
  int64_t timing_waits_for_side() const;

 private:
  TimingSlots() { configure({}); }
  void put_back(int index);
  int own_sides() const;  // the calling thread's Sides on this pool

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<SlotState> slots_;
  int held_now_ = 0, max_held_ = 0;
  int64_t waits_ = 0;
  std::vector<int> side_cpus_;  // the online cores in no slot, where every slot is pinned
  int sides_now_ = 0;           // threads holding a Side (each counted once)
  int turns_now_ = 0;           // evaluations being judged
  uint64_t next_ticket_ = 0;    // the order evaluations became ready in
  std::vector<uint64_t> turn_queue_;  // tickets waiting for a turn, oldest first
  int64_t turn_waits_ = 0;
  int timers_waiting_ = 0;
  int64_t side_waits_ = 0, timing_waits_for_side_ = 0;
};

// "0-3,8" -> {0,1,2,3,8}; throws kope::Error naming `what` on anything else.
std::vector<int> parse_index_list(const std::string& text, const std::string& what);

}  // namespace kope
