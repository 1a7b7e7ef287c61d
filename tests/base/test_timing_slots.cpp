// Timing slots (issue 19): measurements never overlap on a slot, a retired slot leaves the pool with its reason,
// a wait ends at a cancel; index lists parse or are refused by name.
#include <gtest/gtest.h>

#include <thread>

#include "kope/base/error.h"
#include "kope/base/timing_slots.h"

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
