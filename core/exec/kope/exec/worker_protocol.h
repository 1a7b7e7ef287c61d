// The shared-memory protocol between the judge (in kope) and a kernel worker (kope-runner --worker): the case
// layout and inputs in a sealed arena the worker maps read-only, each worker's outputs and call handshake in an
// arena of its own. Nothing a worker writes is trusted: the judge keeps its own clock and checks every output.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace kope::exec::wire {

inline constexpr uint32_t kMagic = 0x6b6f7065;  // "kope"
inline constexpr std::size_t kMaxTensors = 256;
inline constexpr std::size_t kMaxAttrs = 64;
inline constexpr std::size_t kNameBytes = 128;
inline constexpr std::size_t kAlign = 4096;

struct TensorDesc {
  uint64_t offset = 0;  // from the start of the data region (inputs: the input arena's, outputs: the worker's)
  uint64_t bytes = 0;
  int32_t dtype = 0;
  int32_t ndim = 0;
  int64_t shape[8] = {};
  int64_t numel = 0;
  char name[kNameBytes] = {};
};

struct AttrDesc {
  char name[kNameBytes] = {};
  double value = 0.0;
};

// At the start of the input arena; the judge rewrites it for each case, the workers only read it.
struct Layout {
  uint32_t magic = kMagic;
  uint32_t n_inputs = 0, n_outputs = 0, n_attrs = 0;
  TensorDesc inputs[kMaxTensors];
  TensorDesc outputs[kMaxTensors];
  AttrDesc attrs[kMaxAttrs];
};

inline constexpr std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }
inline constexpr std::size_t kLayoutBytes = round_up(sizeof(Layout), kAlign);  // input data follows

// Starting -> Confined (the worker has confined itself and waits for `load` before it loads any kernel code, so
// that the judge can attach what watches it first) -> Ready, or LoadError.
enum class WorkerState : uint32_t { Starting = 0, Ready = 1, LoadError = 2, Confined = 3 };
enum class Command : uint32_t { Call = 1, Exit = 2 };

// Return codes the worker itself puts in `rc` (a kernel's own codes are whatever it returns).
inline constexpr int32_t kBadLayout = INT32_MIN;

// At the start of each worker's output arena. One cache line per direction of traffic.
struct Control {
  uint32_t magic = kMagic;
  alignas(64) std::atomic<uint32_t> wake{0};      // judge: a new command number; futex word
  alignas(64) std::atomic<uint32_t> ack{0};       // worker: that number, awake and spinning on `go`
  std::atomic<uint32_t> worker_sleeping{0};       // worker: waiting on `go` in the kernel, wake it
  std::atomic<int32_t> worker_cpu{-1};            // worker: the CPU it acknowledged on (a hint, for waiting)
  alignas(64) std::atomic<uint32_t> go{0};        // judge: that number, call now
  std::atomic<uint32_t> command{0};               // judge: a Command, set before `wake`
  std::atomic<int32_t> judge_cpu{-1};             // judge: the CPU it runs on (a hint, for waiting)
  std::atomic<uint32_t> judge_waits_ack{0};       // judge: asleep until the ack; the worker then sleeps for go
                                                  // at once instead of spinning (its spin would be CPU spent
                                                  // outside any call while the judge cannot see it end)
  alignas(64) std::atomic<uint32_t> done{0};      // worker: that number, the kernel returned; futex word
  std::atomic<int32_t> rc{0};                     // the kernel's return value
  std::atomic<uint32_t> judge_sleeping{0};        // judge: waiting on `done` in the kernel, wake it
  alignas(64) std::atomic<uint32_t> state{0};     // WorkerState; futex word while starting
  std::atomic<uint32_t> load{0};                  // judge: 1, load the kernel now; futex word
  char message[2048] = {};                        // why loading failed, or which input was written
};

inline constexpr std::size_t kControlBytes = round_up(sizeof(Control), kAlign);  // output data follows

inline long futex_wait(std::atomic<uint32_t>* word, uint32_t expected, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, expected, timeout, nullptr, 0);
}

inline long futex_wake(std::atomic<uint32_t>* word) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// How long the worker spins for go after its ack before it sleeps (the judge sets go right after seeing the ack).
inline constexpr int64_t kGoSpinNs = 50000;

// Exit codes of a worker besides 0.
inline constexpr int kWorkerLoadError = 4;
inline constexpr int kWorkerInputsModified = 6;
inline constexpr int kWorkerSetupError = 7;

}  // namespace kope::exec::wire
