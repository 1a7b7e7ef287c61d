// The judge's calls: sentinels, flushes, one call on the shared-memory handshake timed on the judge's clock
// and on the worker's exact CPU clock, and the device-style measurement behind the CPU device.
#include <poll.h>
#include <sched.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>

#include "judge_internal.h"
#include "kope/base/error.h"
#include "kope/exec/cache.h"
#include "kope/exec/ledger.h"
#include "kope/model/inputs.h"

namespace kope::exec {

using namespace judge_detail;

void Judge::fill_sentinels(Worker& w, const ConcreteCase& c) {
  Spend spend(kSentinels);
  unsigned char* out = w.out.base + wire::kControlBytes;
  for (std::size_t i = 0; i < c.outputs.size(); ++i) {
    const ConcreteTensor& t = c.outputs[i];
    // All-ones bytes are NaN in every floating type; integers get 0xA5, as fill_sentinel does.
    std::memset(out + out_off_[i], is_floating(t.dtype) ? 0xFF : 0xA5, tensor_bytes(t));
  }
}

void Judge::flush_for(const Worker& w) {
  Spend spend(kFlush);
  if (flush_method_ == "lines") {
    flush_lines(inputs_.base + wire::kLayoutBytes, in_bytes_);
    flush_lines(w.out.base + wire::kControlBytes, out_bytes_);
  } else {
    const volatile unsigned char* p = flush_buf_.data();
    unsigned s = 0;
    for (std::size_t i = 0; i < flush_buf_.size(); i += 64) s += p[i];
    (void)s;
  }
}

// Long on purpose: one call is the judge's clock, the handshake and the two waits between which the kernel
// runs; every line is on the timed path, and one reading shows what starts and stops the clock.
Judge::Call Judge::call(Worker& w, Clock::time_point deadline) {
  Spend spend(kCalls);
  wire::Control& c = *w.ctl;
  Call res;
  const uint32_t seq = ++w.seq;
  const uint32_t prev_done = c.done.load(std::memory_order_acquire);
  c.command.store(static_cast<uint32_t>(wire::Command::Call), std::memory_order_relaxed);
  c.judge_cpu.store(sched_getcpu(), std::memory_order_relaxed);
  // The worker's CPU before it is woken: it has been asleep since its last "done" unless something kept going.
  res.cpu_wake = w.has_cpu_clock ? worker_cpu_ns(w) : -1;
  res.wake_at = Clock::now();
  c.wake.store(seq, std::memory_order_seq_cst);
  wire::futex_wake(&c.wake);
  auto dead = [&] {
    if (w.pidfd < 0) return kill(w.child->pid(), 0) != 0;
    pollfd p{w.pidfd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
  };
  // Between waits: the worker's output drained, then whether the call ends without "done" (and how).
  auto ended = [&] {
    drain(w);
    if (dead()) res.end = CallEnd::Died;
    else if (cancel_requested()) res.end = CallEnd::Cancelled;
    else if (Clock::now() >= deadline) res.end = CallEnd::TimedOut;
    else return false;
    return true;
  };
  // 1. The worker acknowledges: it is awake, has built the call's arguments, and spins briefly on go. Past a
  // short spin the judge sleeps, and says so first: the worker then sleeps for go at once. What the judge cannot
  // help is being preempted while it spins: the worker may spin that long (up to its cap) before the judge sees
  // the ack, and the gaps the judge notices in its own clock are that much excused (Ledger).
  Clock::time_point last_look = res.wake_at;
  int64_t preempted_ns = 0;
  bool slept = false;
  for (int spins = 0; c.ack.load(std::memory_order_acquire) != seq;) {
    if (++spins < 2000) {
      wire::cpu_relax();
      if ((spins & 63) == 0) {
        const Clock::time_point now = Clock::now();
        if (const int64_t gap = ns_between(last_look, now); gap > 20000) preempted_ns += gap;
        last_look = now;
      }
      continue;
    }
    slept = true;
    c.judge_waits_ack.store(1, std::memory_order_seq_cst);
    const uint32_t a = c.ack.load(std::memory_order_seq_cst);
    if (a == seq) break;
    timespec ts{0, 10 * 1000 * 1000};
    wire::futex_wait(&c.ack, a, &ts);
    if (ended()) return res;
  }
  // The worker's CPU up to here, read from the OS: from its wake-up to its acknowledgement, what it spent
  // getting ready for the call (Ledger).
  res.cpu_ack = w.has_cpu_clock ? worker_cpu_ns(w) : -1;
  if (const int64_t gap = ns_between(last_look, Clock::now()); !slept && gap > 20000) preempted_ns += gap;
  res.spin_allowance_ns = std::min<int64_t>(preempted_ns, wire::kGoSpinNs);
  c.judge_waits_ack.store(0, std::memory_order_relaxed);
  // 2. Go, on the judge's clock; the worker's own account of time is never read.
  const auto t0 = Clock::now();
  c.go.store(seq, std::memory_order_seq_cst);
  if (c.worker_sleeping.load(std::memory_order_seq_cst)) wire::futex_wake(&c.go);
  // 3. Spin briefly (a short call ends here), then sleep on the futex so a kernel's own threads get the core.
  // On the worker's own CPU a spin only delays it: sleep at once (the CPU numbers are hints; a wrong one
  // costs a futex wake-up, the same for the baseline and the kernel).
  const int my_cpu = sched_getcpu();
  const bool shared = my_cpu >= 0 && my_cpu == c.worker_cpu.load(std::memory_order_relaxed);
  const auto spin_until = t0 + std::chrono::nanoseconds(static_cast<int64_t>(shared ? 0 : options_.spin_us * 1000));
  bool finished = false;
  for (int i = 0;; ++i) {
    if (c.done.load(std::memory_order_acquire) == seq) {
      finished = true;
      break;
    }
    wire::cpu_relax();
    if ((i & 63) == 63 && Clock::now() >= spin_until) break;
  }
  while (!finished) {
    c.judge_sleeping.store(1, std::memory_order_seq_cst);
    const uint32_t d = c.done.load(std::memory_order_seq_cst);
    if (d == seq) break;
    timespec ts{0, 20 * 1000 * 1000};
    wire::futex_wait(&c.done, d, &ts);
    if (c.done.load(std::memory_order_acquire) == seq) break;
    c.judge_sleeping.store(0, std::memory_order_relaxed);
    if (ended()) return res;
  }
  const auto t1 = Clock::now();
  res.cpu_done = w.has_cpu_clock ? worker_cpu_ns(w) : -1;
  res.done_at = t1;
  // The CPU read at "done" is where the call's CPU ends and the window after it begins. Where the judge was held
  // up between seeing "done" and that reading (preempted), a kernel that said "done" early had that long to
  // finish on the call's side of the reading: the call then ends at the reading.
  if (const Clock::time_point t2 = Clock::now(); ns_between(t1, t2) > 5000) res.done_at = t2;
  c.judge_sleeping.store(0, std::memory_order_relaxed);
  (void)prev_done;
  res.ns = std::chrono::duration_cast<std::chrono::nanoseconds>(res.done_at - t0).count();
  res.rc = c.rc.load(std::memory_order_acquire);
  return res;
}

// After the judge copied a kernel's outputs, which it does once it has seen "done". A kernel that said "done"
// early and went on working while the judge took its copy (slowed or preempted on a busy machine) may have
// finished before the copy reached what it was still writing: the copy is then complete, and the clock stopped
// early. The CPU the worker spent since "done" is that work (an honest worker only goes back to sleep): beyond
// the ledger's slack it is added to the call, and the ledger's window after the call starts from here. Only on
// the exact clock: the process clock moves by ticks.
void Judge::charge_after_copy(const Worker& w, Call& cl) const {
  if (w.perf_fd < 0 || cl.cpu_done < 0) return;
  const int64_t cpu = worker_cpu_ns(w);
  const int64_t after = cpu - cl.cpu_done - Ledger::kAfterSlackNs;
  if (after <= 0) return;
  cl.ns += after;
  cl.cpu_done = cpu;
}

// Long on purpose: the measure loop keeps run_case's order of calls, flushes and sentinels in one place so the
// two cannot drift apart.
// The CPU device's measure (core/device/cpu): the same workers, clock, sentinels and flushes as run_case, on
// the caller's input bytes, with the outputs handed back instead of checked here.
Judge::Calls Judge::measure_calls(const ConcreteCase& c, const std::vector<std::string>& inputs, int warmup, int reps,
                                  bool with_baseline, bool interleave) {
  Calls out;
  CaseResult& r = out.failure;
  r.name = c.name;
  const auto deadline =
      Clock::now() + std::chrono::nanoseconds(static_cast<int64_t>(options_.case_timeout_seconds * 1e9));
  Worker& k = *cand_;
  Worker& b = *base_;
  if (inputs.size() != c.inputs.size())
    throw Error("case '" + c.name + "' has " + std::to_string(c.inputs.size()) + " inputs, " +
                std::to_string(inputs.size()) + " were given");
  write_layout(c);
  unsigned char* in_data = inputs_.base + wire::kLayoutBytes;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    if (inputs[i].size() != tensor_bytes(c.inputs[i]))
      throw Error("input " + c.inputs[i].name + " has " + std::to_string(inputs[i].size()) + " bytes, expected " +
                  std::to_string(tensor_bytes(c.inputs[i])));
    std::memcpy(in_data + in_off_[i], inputs[i].data(), inputs[i].size());
  }
  auto finish = [&]() -> Calls& {
    drain(k);
    r.log = tail(k.log + (k.log_dropped ? "\n[" + std::to_string(k.log_dropped) + " bytes dropped]" : ""), 4000);
    k.log.clear();
    return out;
  };
  auto outputs_of = [&](const Worker& w) {
    std::vector<std::string> v;
    const unsigned char* base = w.out.base + wire::kControlBytes;
    for (std::size_t i = 0; i < c.outputs.size(); ++i)
      v.emplace_back(reinterpret_cast<const char*>(base + out_off_[i]), tensor_bytes(c.outputs[i]));
    return v;
  };
  // The candidate's outputs must stay as it returned them while the judge holds no call of it.
  auto unchanged = [&](const std::string& phase) {
    if (outputs_of(k) == out.last_outputs) return true;
    r.status = CaseStatus::Background;
    r.failed_call = phase;
    r.message = "the kernel's outputs changed after it returned (" + phase +
                "): work must be finished when kope_kernel returns";
    return false;
  };
  auto run_one = [&](Worker& w, const std::string& phase, Call& cl) {
    fill_sentinels(w, c);
    flush_for(w);
    cl = call(w, deadline);
    if (cl.end != CallEnd::Done) {
      record_death(w, cl, phase, r);
      if (&w == &b) r.message = "the baseline failed, so the kernel could not be timed: " + r.message;
      return false;
    }
    if (cl.rc != 0) {
      r.status = CaseStatus::RuntimeError;
      r.failed_call = phase;
      r.message = cl.rc == wire::kBadLayout ? "the worker could not read the case layout"
                                            : (&w == &b ? "the baseline returned " : "the kernel returned ") +
                                                  std::to_string(cl.rc) + " during the " + phase;
      return false;
    }
    if (&w == &k) {
      out.last_outputs = outputs_of(k);
      charge_after_copy(k, cl);
    }
    return true;
  };

  if (!ensure_started(k, r, deadline)) return finish();
  Call first;
  if (!run_one(k, "correctness run", first)) return finish();
  out.first_outputs = out.last_outputs;
  if (with_baseline && !ensure_started(b, r, deadline)) {
    r.message = "the baseline could not run: " + r.message;
    return finish();
  }
  auto phase_name = [&](int n) {
    return n < warmup ? "warm-up " + std::to_string(n + 1) : "timed run " + std::to_string(n - warmup + 1);
  };
  auto timed = [&](bool is_base, int n, const Call& cl) {
    if (n < warmup) return;
    (is_base ? out.baseline_ns : out.candidate_ns).push_back(static_cast<double>(cl.ns));
    out.order.push_back(is_base ? 'b' : 'c');
    timed_ns_ += static_cast<double>(cl.ns);
  };
  const int total = std::max(0, warmup) + std::max(1, reps);
  warmup = std::max(0, warmup);
  if (with_baseline && !interleave) {
    for (int n = 0; n < total; ++n) {
      Call bc;
      if (!run_one(b, "baseline's " + phase_name(n), bc) || !unchanged("baseline's " + phase_name(n))) return finish();
      timed(true, n, bc);
    }
  }
  for (int n = 0; n < total; ++n) {
    const std::string phase = phase_name(n);
    const bool base_first = with_baseline && interleave && n % 2 == 0;
    const bool base_after = with_baseline && interleave && !base_first;
    Call kc, bc;
    if (base_first) {
      if (!run_one(b, phase, bc) || !unchanged(phase)) return finish();
      timed(true, n, bc);
    }
    if (!run_one(k, phase, kc)) return finish();
    timed(false, n, kc);
    if (base_after) {
      if (!run_one(b, phase, bc) || !unchanged(phase)) return finish();
      timed(true, n, bc);
    }
  }
  if (!unchanged("end of the measurement")) return finish();
  return finish();
}

}  // namespace kope::exec
