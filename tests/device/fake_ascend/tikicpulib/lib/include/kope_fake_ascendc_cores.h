// The CPU twin's AI cores (test-only): ICPU_RUN_KF's launch of blockDim blocks and SyncAll, the soft cross-core
// barrier of the CANN 8.0 AscendC API reference (atlasascendc_api_07_0204: "SyncAll"). Each block runs on a thread of
// its own (its own UB, GetBlockIdx and GetBlockNum), but only one runs at a time: block 0 runs until it returns or
// waits in SyncAll, then the next that can run, in block order. A kernel without SyncAll thus runs its blocks one
// after another, as before; one with SyncAll sees every block reach the barrier before any passes it.
//
// SyncAll(gmWorkspace, ubWorkspace, usedCores) as documented: gmWorkspace holds at least usedCores * 32 bytes of int32
// flags that are 0 before the launch's first SyncAll (set by the host, or by every core itself), ubWorkspace at least
// usedCores * 32 bytes, usedCores at most the launch's blockDim (0: all of them). Each core counts its passes in its
// own 32-byte slot and waits until every slot has reached its count. The twin stops the run where a board would hang
// or pass too early: a workspace too small or not zeroed, a block that returns while others wait at a SyncAll (a
// board hangs until the AI Core timeout), usedCores beyond blockDim. The hard form SyncAll<true>() is left out: the
// reference says it works only in operator projects, not in kernels launched directly, as kope's are.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "kope_fake_ascendc_memory.h"

namespace AscendC {

// One launch's blocks and which of them holds the (single) turn to run.
struct KopeFakeLaunch {
  std::mutex mu;
  std::condition_variable cv;
  int64_t turn = -1;                    // the block now running; -1: the launcher's turn to pick one
  std::vector<int> state;               // 0 not started or runnable, 1 waiting in SyncAll, 2 returned
  std::vector<const int32_t*> flags;    // a waiting block's gmWorkspace
  std::vector<int32_t> want, cores;     // the count its wait needs in every slot, and how many slots
};
inline KopeFakeLaunch*& kope_fake_launch() { static thread_local KopeFakeLaunch* l = nullptr; return l; }

inline bool kope_fake_can_pass(const KopeFakeLaunch& l, int64_t b) {
  if (l.state[b] == 0) return true;
  if (l.state[b] == 2) return false;
  for (int32_t c = 0; c < l.cores[b]; ++c)
    if (l.flags[b][c * 8] < l.want[b]) return false;
  return true;
}

// Runs body once per block, one at a time, each block on its own thread, handing the turn on at each SyncAll.
inline void kope_fake_run_blocks(int64_t blockdim, const std::function<void()>& body) {
  KopeFakeLaunch l;
  l.state.assign(blockdim, 0);
  l.flags.assign(blockdim, nullptr);
  l.want.assign(blockdim, 0);
  l.cores.assign(blockdim, 0);
  std::vector<std::thread> threads;
  for (int64_t b = 0; b < blockdim; ++b)
    threads.emplace_back([&l, &body, b, blockdim] {
      kope_fake_block_idx() = b;
      kope_fake_block_num() = blockdim;
      kope_fake_launch() = &l;
      {
        std::unique_lock<std::mutex> k(l.mu);
        l.cv.wait(k, [&] { return l.turn == b; });
      }
      body();
      std::lock_guard<std::mutex> k(l.mu);
      l.state[b] = 2;
      l.turn = -1;
      l.cv.notify_all();
    });
  int64_t next = 0;
  for (;;) {
    std::unique_lock<std::mutex> k(l.mu);
    int64_t pick = -1, waiting = -1, done = 0;
    for (int64_t i = 0; i < blockdim; ++i) {
      const int64_t b = (next + i) % blockdim;
      done += l.state[b] == 2;
      if (l.state[b] == 1 && waiting < 0) waiting = b;
      if (pick < 0 && kope_fake_can_pass(l, b)) pick = b;
    }
    if (done == blockdim) break;
    if (pick < 0) {
      kope_fake_block_idx() = waiting;
      kope_fake_fail("SyncAll", "block %lld waits for a core that returned or never arrives (on a board: a hang "
                     "until the AI Core timeout; do all %lld blocks call SyncAll alike?)",
                     static_cast<long long>(waiting), static_cast<long long>(blockdim));
    }
    l.turn = pick;
    next = pick + 1;
    l.cv.notify_all();
    l.cv.wait(k, [&] { return l.turn == -1; });
  }
  for (auto& t : threads) t.join();
}

template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
  static_assert(isAIVOnly, "the soft SyncAll synchronises vector cores only (isAIVOnly = false needs the hard form)");
  KopeFakeLaunch* l = kope_fake_launch();
  const int64_t b = GetBlockIdx(), n = usedCores == 0 ? GetBlockNum() : usedCores;
  if (l == nullptr) kope_fake_fail("SyncAll", "called outside a kernel launch");
  if (usedCores < 0 || n > GetBlockNum())
    kope_fake_fail("SyncAll", "usedCores %lld exceeds the launch's blockDim %lld", static_cast<long long>(usedCores),
                   static_cast<long long>(GetBlockNum()));
  if (b >= n) kope_fake_fail("SyncAll", "block %lld is not among the %lld cores it synchronises", b, n);
  gmWorkspace.kope_check_range(0, static_cast<uint64_t>(n) * 8, "SyncAll (gmWorkspace: usedCores * 32 bytes)");
  ubWorkspace.kope_check(static_cast<uint32_t>(n * 8), "SyncAll (ubWorkspace: usedCores * 32 bytes)");
  int32_t* flags = gmWorkspace.GetPhyAddr();
  std::unique_lock<std::mutex> k(l->mu);
  const int32_t mine = ++l->want[b];
  if (flags[b * 8] != mine - 1)
    kope_fake_fail("SyncAll", "gmWorkspace slot of block %lld holds %lld at its SyncAll (not 0 before the launch's "
                   "first: zero it on the host, or on every core before any SyncAll)", b, flags[b * 8]);
  flags[b * 8] = mine;
  ubWorkspace.GetPhyAddr()[0] = mine;
  l->flags[b] = flags;
  l->cores[b] = static_cast<int32_t>(n);
  l->state[b] = 1;
  l->turn = -1;
  l->cv.notify_all();
  l->cv.wait(k, [&] { return l->turn == b; });
  l->state[b] = 0;
}

}  // namespace AscendC
