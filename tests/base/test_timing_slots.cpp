// Timing slots (issue 19): measurements never overlap on a slot, a retired slot leaves the pool with its reason,
// a wait ends at a cancel; side work (builds, goldens, correctness calls) takes turns with timing where it would
// share its cores and runs pinned to the spare ones where there are some; index lists parse or are refused by name.
#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>

#include <set>
#include <algorithm>
#include <atomic>
#include <vector>
#include <optional>
#include <mutex>
#include <thread>

#include "kope/base/error.h"
#include "kope/base/timing_slots.h"
#include "test_support.h"

using namespace kope;

TEST(TimingSlots, HoldersNeverExceedTheSlotsAndEachSlotHasOneAtATime) {
  TimingSlots& pool = TimingSlots::of("test-two");
  pool.configure({{"a", {}, 0}, {"b", {}, 1}});
  std::atomic<int> on[2] = {0, 0}, now{0}, most{0}, clash{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 6; ++t)
    ts.emplace_back([&] {
      for (int k = 0; k < 20; ++k) {
        TimingSlots::Held h = pool.acquire("x");
        const int i = h.index();
        if (++on[i] > 1) ++clash;
        const int n = ++now;
        for (int m = most.load(); n > m && !most.compare_exchange_weak(m, n);) {
        }
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        --now;
        --on[i];
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(clash.load(), 0);
  EXPECT_EQ(most.load(), 2);
  EXPECT_EQ(pool.max_held_at_once(), 2);
  EXPECT_GT(pool.waits(), 0);
}

TEST(TimingSlots, ARetiredSlotLeavesThePoolAndTheLastOneSaysWhy) {
  TimingSlots& pool = TimingSlots::of("test-retire");
  pool.configure({{"npu:0", {}, 0}, {"npu:1", {}, 1}});
  pool.acquire("x").retire("aclrtSetDevice: 507033");
  for (int k = 0; k < 3; ++k) EXPECT_EQ(pool.acquire("x").spec().name, "npu:1");
  pool.acquire("x").retire("device lost");
  try {
    pool.acquire("x");
    FAIL() << "every slot is retired";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("npu:0: aclrtSetDevice: 507033"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("npu:1: device lost"), std::string::npos) << e.what();
  }
}

TEST(TimingSlots, AWaitEndsWhenCancelled) {
  TimingSlots& pool = TimingSlots::of("test-cancel");
  pool.configure({});
  TimingSlots::Held busy = pool.acquire("first");
  CancelToken cancel;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  TimingSlots::Held second = pool.acquire("second", &cancel);
  stopper.join();
  EXPECT_FALSE(second);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_EQ(pool.states().at(0).doing, "first");
}

// Evaluations are judged in the order they became ready, as many at once as the pool has slots in service: with
// one, three evaluations queued behind a first go one by one in their order; a cancelled one leaves the queue
// without holding up the rest; a thread's nested turn does not wait for itself.
TEST(TimingSlots, EvaluationsTakeTheirTurnsInTheOrderTheyBecameReady) {
  TimingSlots& pool = TimingSlots::of("test-queue");
  pool.configure({});
  auto queued = [&](int n) {
    for (int i = 0; i < 2000 && pool.turns_waiting() != n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_EQ(pool.turns_waiting(), n);
  };
  std::optional<TimingSlots::Turn> first(pool.turn());
  {
    TimingSlots::Turn nested = pool.turn();  // the same thread again: counted once, no wait
    EXPECT_TRUE(nested);
  }
  std::mutex mu;
  std::vector<int> order;
  std::atomic<int> at_once{0}, most{0};
  CancelToken cancel_two;
  std::vector<std::thread> ts;
  for (int k = 1; k <= 4; ++k) {
    ts.emplace_back([&, k] {
      TimingSlots::Turn t = pool.turn(k == 2 ? &cancel_two : nullptr);
      if (!t) return;
      const int n = ++at_once;
      most = std::max(most.load(), n);
      {
        std::lock_guard<std::mutex> lock(mu);
        order.push_back(k);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      --at_once;
    });
    queued(k);
  }
  cancel_two.cancel();
  queued(3);
  first.reset();
  for (auto& t : ts) t.join();
  EXPECT_EQ(order, (std::vector<int>{1, 3, 4}));
  EXPECT_EQ(most.load(), 1);
  EXPECT_EQ(pool.turns_waiting(), 0);
  EXPECT_GE(pool.turn_waits(), 3);

  // Two slots: two at once.
  pool.configure({{"a", {}, 0}, {"b", {}, 1}});
  TimingSlots::Turn one = pool.turn();
  CancelToken give_up;
  std::atomic<bool> got{false};
  std::thread other([&] { got = static_cast<bool>(pool.turn(&give_up)); });
  for (int i = 0; i < 2000 && !got; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  give_up.cancel();
  other.join();
  EXPECT_TRUE(got) << "the second slot's turn waited for the first";
  pool.configure({});
}

namespace {

std::set<int> thread_cpus() {
  cpu_set_t set;
  std::set<int> out;
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.insert(c);
  return out;
}

}  // namespace

// One unpinned slot (a two-core machine's default): side work and timed calls never run at once, however the
// threads interleave; nested Sides count once; timing is not starved by a stream of side work.
TEST(TimingSlots, SideWorkAndTimingTakeTurnsWhereTheyShareTheCores) {
  TimingSlots& pool = TimingSlots::of("test-turns");
  pool.configure({});
  EXPECT_TRUE(pool.side_cpus().empty());
  std::atomic<int> siding{0}, timing{0}, overlaps{0}, timed{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> ts;
  for (int t = 0; t < 3; ++t)  // builds and correctness calls, back to back
    ts.emplace_back([&] {
      while (!stop) {
        TimingSlots::Side s = pool.side();
        TimingSlots::Side nested = pool.side();  // a build inside a golden run, say: no wait, no second count
        ++siding;
        if (timing > 0) ++overlaps;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
        --siding;
      }
    });
  for (int t = 0; t < 2; ++t)  // measurements
    ts.emplace_back([&] {
      for (int k = 0; k < 15; ++k) {
        TimingSlots::Held h = pool.acquire("x");
        ++timing;
        if (siding > 0) ++overlaps;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
        --timing;
        ++timed;
      }
    });
  ts[3].join();
  ts[4].join();
  stop = true;
  for (int t = 0; t < 3; ++t) ts[t].join();
  EXPECT_EQ(timed.load(), 30);  // not starved by side work that never stops coming
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_GT(pool.timing_waits_for_side(), 0);
  EXPECT_GT(pool.side_waits(), 0);
}

// A measurement waits for the side work under way; side work waits for the measurement under way.
TEST(TimingSlots, EachWaitsForTheOtherUnderWay) {
  TimingSlots& pool = TimingSlots::of("test-order");
  pool.configure({});
  std::atomic<bool> released{false}, got{false};
  {
    TimingSlots::Side s = pool.side();
    std::thread timer([&] {
      TimingSlots::Held h = pool.acquire("x");
      got = true;
      EXPECT_TRUE(released.load()) << "timed while side work was under way";
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_FALSE(got.load());
    released = true;
    s.release();
    timer.join();
  }
  TimingSlots::Held h = pool.acquire("x");
  std::atomic<bool> sided{false};
  std::thread builder([&] {
    TimingSlots::Side s = pool.side();
    sided = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_FALSE(sided.load()) << "side work ran beside a measurement on the same cores";
  h.release();
  builder.join();
  EXPECT_TRUE(sided.load());
  // A cancelled wait gives an empty Side, counted nowhere: timing after it does not wait for it.
  TimingSlots::Held again = pool.acquire("x");
  CancelToken cancel;
  cancel.cancel();
  { TimingSlots::Side none = pool.side(&cancel); }
  again.release();
  EXPECT_TRUE(pool.acquire("y"));
}

// Every slot pinned and a core to spare: side work runs there, pinned, beside a measurement, and the thread's own
// cores come back after.
TEST(TimingSlots, SideWorkRunsPinnedOnTheCoresNoSlotTimesOn) {
  const std::set<int> mine = thread_cpus();
  if (mine.size() < 2) KOPE_SKIP_WITHOUT_HARDWARE("one core: no core to spare beside a slot");
  const int slot_core = *mine.rbegin();
  TimingSlots& pool = TimingSlots::of("test-spare");
  pool.configure({{"cpu:" + std::to_string(slot_core), {slot_core}, -1}});
  std::vector<int> spare(mine.begin(), std::prev(mine.end()));
  EXPECT_EQ(pool.side_cpus(), spare);
  TimingSlots::Held h = pool.acquire("x");
  std::thread builder([&] {
    const std::set<int> before = thread_cpus();
    {
      TimingSlots::Side s = pool.side();  // no wait although a slot is held
      EXPECT_EQ(thread_cpus(), std::set<int>(spare.begin(), spare.end()));
    }
    EXPECT_EQ(thread_cpus(), before);
  });
  builder.join();
  EXPECT_EQ(pool.side_waits(), 0);
}

TEST(TimingSlots, IndexListsParseOrAreRefusedByName) {
  EXPECT_EQ(parse_index_list("0-3,8", "--device"), (std::vector<int>{0, 1, 2, 3, 8}));
  for (const char* bad : {"", "a", "3-1", "1,,2", "-1", "0-99999"}) {
    try {
      parse_index_list(bad, "--device cpu");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--device cpu"), std::string::npos) << e.what();
    }
  }
}
