// One case in the judge, as named steps: the correctness call against the golden, the library's correctness
// call, then timed calls on fresh inputs (interleaved, or sequential for bench/), each held to the correctness
// call's standard, with the CPU spent outside every call on the ledger.
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "kope/base/timing_slots.h"
#include "kope/exec/affinity.h"
#include "judge_internal.h"
#include "kope/exec/fast_inputs.h"
#include "kope/model/inputs.h"

namespace kope::exec {

using namespace judge_detail;

class Judge::CaseRun {
 public:
  CaseRun(Judge& judge, const ConcreteCase& c, const std::vector<std::vector<double>>& golden,
          const std::function<void()>& on_timing);
  CaseResult run(bool time_it);

 private:
  bool cancelled(const std::string& phase);
  CaseResult finish();
  void account(Worker& w, const Call& cl);
  void close_window();
  bool background(const std::string& phase);
  bool snapshot_check(const std::string& phase);
  bool correctness_call();
  void library_failed(const std::string& why);
  void library_correctness_call();
  bool run_library(const std::string& phase, Call& out);
  bool baseline_limits();
  bool fresh_inputs(int call_no);
  std::string phase_name(int n) const;
  bool run_one(Worker& w, const std::string& phase, Call& out);
  bool check_pair(const std::string& phase);
  bool done_timing(int timed);
  bool time_interleaved();
  bool time_sequential();
  void detail_last_pair();
  std::vector<const void*> inputs_seen() const;
  OutputCheck against_golden(std::size_t i, const unsigned char* outputs) const;

  Judge& j_;
  const ConcreteCase& c_;
  const std::vector<std::vector<double>>& golden_;
  const std::function<void()>& on_timing_;
  CaseResult r_;
  const Clock::time_point deadline_;
  const uint64_t case_no_;
  Worker& k_;
  Worker& b_;
  Worker* l_;  // the library baseline while it takes part in this case
  unsigned char* in_data_ = nullptr;
  unsigned char* k_out_ = nullptr;
  unsigned char* b_out_ = nullptr;
  // Work outside the calls (kope/exec/ledger.h): each worker's window runs from its "done" to its next
  // acknowledgement. The baseline's windows measure honest bookkeeping; what the kernel's spend beyond that is
  // added to the timed call before the window, and a case that holds more than a little is work after return.
  std::optional<Ledger> ledger_;
  Call first_;                   // the correctness call (its window before does not count)
  bool timing_started_ = false;  // the kernel's next call is a timed one
  int64_t charge_to_ = -1;       // the index in r_.kernel_ns of the kernel's last timed call
  std::vector<TimedLimit> limits_;  // per output, what every timed call is held to (kope/exec/judge_checks.h)
  const int warmup_, min_reps_, max_reps_;
  const bool adaptive_;
  Clock::time_point timing_start_;
};

Judge::CaseRun::CaseRun(Judge& judge, const ConcreteCase& c, const std::vector<std::vector<double>>& golden,
                        const std::function<void()>& on_timing)
    : j_(judge), c_(c), golden_(golden), on_timing_(on_timing),
      deadline_(Clock::now() + std::chrono::nanoseconds(static_cast<int64_t>(judge.options_.case_timeout_seconds * 1e9))),
      case_no_(judge.case_index_++), k_(*judge.cand_), b_(*judge.base_), l_(judge.lib_.get()),
      warmup_(std::max(0, judge.options_.warmup)), min_reps_(std::max(1, judge.options_.reps)),
      max_reps_(std::max(min_reps_, judge.options_.max_reps)), adaptive_(judge.options_.interleave) {
  r_.name = c.name;
}

CaseResult Judge::CaseRun::run(bool time_it) {
  if (cancelled("case")) return finish();
  // Until the timed calls, this is side work (kope/base/timing_slots.h): the workers' start-ups and the
  // correctness calls take turns with other evaluations' timing where they would share its cores, or run on the
  // cores no slot times on (the workers moved there from the slot's cores of a previous case).
  TimingSlots& cpu = TimingSlots::of("cpu");
  TimingSlots::Side side = cpu.side(j_.options_.cancel.get());
  const std::vector<int> side_cpus = cpu.side_cpus();
  auto roots = [&] {
    std::vector<pid_t> out;
    for (const Worker* w : {&k_, &b_, l_})
      if (w && w->child) out.push_back(w->child->pid());
    return out;
  };
  std::optional<CorePin> side_pin;
  if (!side_cpus.empty()) side_pin.emplace(roots(), side_cpus);
  j_.write_layout(c_);
  if (!j_.ensure_started(k_, r_, deadline_)) return finish();
  in_data_ = j_.inputs_.base + wire::kLayoutBytes;
  k_out_ = k_.out.base + wire::kControlBytes;
  b_out_ = b_.out.base + wire::kControlBytes;
  ledger_.emplace(k_.perf_fd < 0);
  if (!correctness_call()) return finish();
  if (!time_it) {
    close_window();
    background("correctness run");
    return finish();
  }
  if (!j_.ensure_started(b_, r_, deadline_)) {
    if (r_.status != CaseStatus::Cancelled) r_.message = "the baseline could not run: " + r_.message;
    return finish();
  }
  library_correctness_call();
  side_pin.reset();
  side.release();
  // Timing never overlaps with other timing on the same cores (issue 19): the timed calls wait for a slot of the
  // CPU's pool (and for side work on its cores) and run pinned to its cores.
  TimingSlots::Held slot = cpu.acquire("timing case " + c_.name, j_.options_.cancel.get());
  if (!slot) {
    cancelled("timed runs");
    return finish();
  }
  const CorePin pin(roots(), slot.spec().cpus);
  timing_start_ = Clock::now();
  if (on_timing_) on_timing_();
  if (!(adaptive_ ? time_interleaved() : time_sequential())) return finish();
  close_window();
  if (background("end of the case")) return finish();
  r_.timed = true;
  detail_last_pair();
  return finish();
}

// Stopped: whatever was started is killed, and the case ends as cancelled (no verdict on the kernel).
bool Judge::CaseRun::cancelled(const std::string& phase) {
  if (!j_.cancel_requested()) return false;
  for (Worker* w : {j_.cand_.get(), j_.base_.get()})
    if (w->alive()) {
      Call stop;
      stop.end = CallEnd::Cancelled;
      CaseResult scratch;
      j_.record_death(*w, stop, phase, scratch);
    }
  r_.status = CaseStatus::Cancelled;
  r_.failed_call = phase;
  r_.message = "cancelled before the " + phase;
  return true;
}

CaseResult Judge::CaseRun::finish() {
  j_.drain(k_);
  r_.log = tail(k_.log + (k_.log_dropped ? "\n[" + std::to_string(k_.log_dropped) + " bytes dropped]" : ""), 4000);
  k_.log.clear();
  r_.network_isolated = true;
  for (const auto& [m, why] : j_.missing_)
    if (m == "network-namespace") {
      r_.network_isolated = false;
      r_.network_failure = why;
    }
  return std::move(r_);
}

void Judge::CaseRun::account(Worker& w, const Call& cl) {
  Spend spend(kIdle);
  const bool open = cl.cpu_wake >= 0 && cl.cpu_ack >= 0 && w.cpu_mark >= 0;
  Ledger::Window win;
  if (open) {
    win.after_ns = cl.cpu_wake - w.cpu_mark;
    win.before_ns = cl.cpu_ack - cl.cpu_wake - cl.spin_allowance_ns;
    win.wall_ns = w.done_at == Clock::time_point{} ? 0 : ns_between(w.done_at, cl.wake_at);
  }
  w.cpu_mark = cl.cpu_done;
  w.done_at = cl.done_at;
  if (!open) return;
  if (&w == &b_) ledger_->baseline_window(win);
  if (&w != &k_) return;
  // The window before the correctness call: a fresh layout, pages touched for the first time, and nothing to
  // gain (that call is not timed). Only what follows it counts.
  if (&cl == &first_) win.before_ns = 0;
  // Until timed calls begin (the window closes at a timed call, or after one) it is a warming one.
  const Ledger::Excess e = ledger_->kernel_window(win, !(timing_started_ || charge_to_ >= 0));
  if (e.after_ns > 0 && charge_to_ >= 0)
    r_.kernel_ns[static_cast<std::size_t>(charge_to_)] += static_cast<double>(e.after_ns);
  if (std::getenv("KOPE_TRACE_LEDGER"))
    std::fprintf(stderr, "ledger %s: after %lld (bk %lld) before %lld (bk %lld) wall %lld\n", c_.name.c_str(),
                 static_cast<long long>(win.after_ns), static_cast<long long>(ledger_->after_bookkeeping_ns()),
                 static_cast<long long>(win.before_ns), static_cast<long long>(ledger_->before_bookkeeping_ns()),
                 static_cast<long long>(win.wall_ns));
}

// The kernel's last window of the case, up to now (as if the judge woke it now).
void Judge::CaseRun::close_window() {
  if (!k_.has_cpu_clock || k_.cpu_mark < 0) return;
  Call now;
  now.wake_at = now.done_at = Clock::now();
  now.cpu_wake = now.cpu_ack = now.cpu_done = j_.worker_cpu_ns(k_);
  account(k_, now);
}

bool Judge::CaseRun::background(const std::string& phase) {
  const Ledger& ledger = *ledger_;
  if (!k_.has_cpu_clock || !ledger.flagged()) return false;
  r_.status = CaseStatus::Background;
  r_.failed_call = phase;
  r_.message = "the kernel kept running outside its calls (up to the " + phase + "): " + ledger.describe() +
               "; its work must start when kope_kernel is called and be finished when it returns";
  r_.evidence = {{"kind", "cpu outside calls"},
                 {"phase", phase},
                 {"clock", k_.perf_fd >= 0       ? "perf task-clock on the worker's threads"
                           : k_.tree_by_cgroup ? "the worker tree's cgroup"
                                               : "the worker process's CPU clock"},
                 {"cpu_us", ledger.cpu_ns() / 1e3},
                 {"beyond_bookkeeping_us", ledger.excess_ns() / 1e3},
                 {"allowed_us", ledger.allowed_ns() / 1e3},
                 {"windows", ledger.windows()},
                 {"window_us", ledger.wall_ns() / 1e3},
                 {"bookkeeping_after_call_us", ledger.after_bookkeeping_ns() / 1e3},
                 {"coarse_clock", ledger.coarse()},
                 {"bookkeeping_before_call_us", ledger.before_bookkeeping_ns() / 1e3}};
  return true;
}

bool Judge::CaseRun::snapshot_check(const std::string& phase) {
  Spend spend(kSnapshot);
  const std::vector<unsigned char>& snap = j_.snapshot_;
  const std::size_t bytes = j_.out_bytes_;
  if (std::memcmp(snap.data(), k_out_, bytes) == 0) return false;
  r_.status = CaseStatus::Background;
  r_.failed_call = phase;
  std::size_t at = 0;
  while (at < bytes && snap[at] == k_out_[at]) ++at;
  r_.message = "the kernel's outputs changed after it returned (" + phase + ", first at byte " + std::to_string(at) +
               " of " + std::to_string(bytes) + "): work must be finished when kope_kernel returns";
  r_.evidence = {{"kind", "outputs changed after return"}, {"phase", phase}, {"first_changed_byte", at},
                 {"output_bytes", bytes}};
  return true;
}

// The case's inputs in the arena, as the last calls saw them (index outputs are checked by what they point at).
std::vector<const void*> Judge::CaseRun::inputs_seen() const {
  std::vector<const void*> v;
  for (std::size_t i = 0; i < c_.inputs.size(); ++i) v.push_back(in_data_ + j_.in_off_[i]);
  return v;
}

// Output i of `outputs` (a worker's output block) against the golden, on the seeded inputs.
OutputCheck Judge::CaseRun::against_golden(std::size_t i, const unsigned char* outputs) const {
  return check_case_output(c_, i, outputs + j_.out_off_[i], golden_[i].data(), c_.outputs[i].threshold,
                           inputs_seen());
}

// The correctness call: the case's seeded inputs, which the fp64 golden saw. False: the case has ended.
bool Judge::CaseRun::correctness_call() {
  {
    Spend spend(kInputs);
    const std::shared_ptr<const std::vector<unsigned char>> seeded = correctness_inputs(c_);
    for (std::size_t i = 0; i < c_.inputs.size(); ++i)
      std::memcpy(in_data_ + j_.in_off_[i], seeded->data() + j_.in_off_[i], tensor_bytes(c_.inputs[i]));
  }
  if (cancelled("correctness run")) return false;
  j_.fill_sentinels(k_, c_);
  j_.flush_for(k_);
  first_ = j_.call(k_, deadline_);
  if (first_.end != CallEnd::Done) {
    j_.record_death(k_, first_, "correctness run", r_);
    return false;
  }
  std::memcpy(j_.snapshot_.data(), k_out_, j_.out_bytes_);
  account(k_, first_);
  if (first_.rc != 0) {
    r_.status = CaseStatus::RuntimeError;
    r_.failed_call = "correctness run";
    r_.message = first_.rc == wire::kBadLayout ? "the worker could not read the case layout"
                                               : "the kernel returned " + std::to_string(first_.rc) +
                                                     " during the correctness run";
    return false;
  }
  {
    Spend spend(kGolden);
    for (std::size_t i = 0; i < c_.outputs.size(); ++i) r_.outputs.push_back(against_golden(i, j_.snapshot_.data()));
  }
  for (const auto& o : r_.outputs)
    if (!o.ok) {
      r_.status = CaseStatus::Wrong;
      r_.failed_call = "correctness run";
      r_.message = describe_check(o);
      return false;
    }
  return !snapshot_check("correctness run");
}

void Judge::CaseRun::library_failed(const std::string& why) {
  r_.library_message = why;
  r_.library_ns.clear();
  l_ = nullptr;
}

// The library baseline (when added): its correctness call on the case's seeded inputs, still in the arena,
// against the golden. Whatever it does is reported in r_.library_*, never the candidate's outcome; a library
// that cannot run leaves the case timed against the naive baseline alone.
void Judge::CaseRun::library_correctness_call() {
  if (!l_) return;
  CaseResult lr;
  if (!j_.ensure_started(*l_, lr, deadline_)) return library_failed(lr.message);
  j_.fill_sentinels(*l_, c_);
  j_.flush_for(*l_);
  const Call lc = j_.call(*l_, deadline_);
  j_.drain(*l_);
  if (lc.end != CallEnd::Done) {
    j_.record_death(*l_, lc, "library's correctness run", lr);
    return library_failed(lr.message);
  }
  if (lc.rc != 0)
    return library_failed("the library baseline returned " + std::to_string(lc.rc) + " during its correctness run");
  const unsigned char* l_out = l_->out.base + wire::kControlBytes;
  r_.library_ran = true;
  bool ok = true;
  for (std::size_t i = 0; i < c_.outputs.size(); ++i) {
    r_.library_outputs.push_back(against_golden(i, l_out));
    if (ok && !r_.library_outputs.back().ok) {
      ok = false;
      r_.library_message = "the library baseline misses the golden: " + describe_check(r_.library_outputs.back());
    }
  }
  r_.library_correct = ok;
}

// A timed library call; a failure drops the library from this case's timing, never the candidate.
bool Judge::CaseRun::run_library(const std::string& phase, Call& out) {
  j_.flush_for(*l_);
  out = j_.call(*l_, deadline_);
  j_.drain(*l_);
  if (out.end != CallEnd::Done) {
    CaseResult lr;
    j_.record_death(*l_, out, phase, lr);
    library_failed(lr.message);
    return false;
  }
  if (out.rc != 0) {
    library_failed("the library baseline returned " + std::to_string(out.rc) + " during the " + phase);
    return false;
  }
  return true;
}

// Before the first fresh inputs, while the seeded ones are still in the arena: the baseline's own error against
// the golden, which sets the limit every timed call is held to (kope/exec/judge_checks.h).
bool Judge::CaseRun::baseline_limits() {
  const std::string phase = "baseline's correctness run";
  if (cancelled(phase)) return false;
  j_.flush_for(b_);
  const Call bc = j_.call(b_, deadline_);
  if (bc.end != CallEnd::Done || bc.rc != 0) {
    if (bc.end != CallEnd::Done) j_.record_death(b_, bc, phase, r_);
    else r_.status = CaseStatus::RuntimeError;
    r_.failed_call = phase;
    if (r_.status != CaseStatus::Cancelled)
      r_.message = "the baseline failed on the seeded inputs, so the kernel could not be timed" +
                   (bc.end == CallEnd::Done ? ": it returned " + std::to_string(bc.rc) : ": " + r_.message);
    return false;
  }
  Spend spend(kGolden);
  for (std::size_t i = 0; i < c_.outputs.size(); ++i) {
    r_.baseline_outputs.push_back(against_golden(i, b_out_));
    limits_.push_back(timed_limit(c_.outputs[i].threshold, r_.baseline_outputs.back()));
  }
  return true;
}

bool Judge::CaseRun::fresh_inputs(int call_no) {
  if (limits_.empty() && !c_.outputs.empty() && !baseline_limits()) return false;
  Spend spend(kInputs);
  for (std::size_t i = 0; i < c_.inputs.size(); ++i)
    generate_fresh(c_.inputs[i], mix_seed(j_.nonce_, case_no_, static_cast<uint64_t>(call_no), i),
                   in_data_ + j_.in_off_[i]);
  return true;
}

std::string Judge::CaseRun::phase_name(int n) const {
  return n < warmup_ ? "warm-up " + std::to_string(n + 1) : "timed run " + std::to_string(n - warmup_ + 1);
}

// No sentinel fill on these calls: each has inputs no earlier call saw, so outputs left from an earlier call, or
// not written, fail the check against the baseline's.
bool Judge::CaseRun::run_one(Worker& w, const std::string& phase, Call& out) {
  if (cancelled(phase)) return false;
  j_.flush_for(w);
  out = j_.call(w, deadline_);
  if (out.end != CallEnd::Done) {
    j_.record_death(w, out, phase, r_);
    if (&w == &b_ && r_.status != CaseStatus::Cancelled)
      r_.message = "the baseline failed, so the kernel could not be timed: " + r_.message;
    return false;
  }
  if (&w == &k_) {
    Spend spend(kSnapshot);
    std::memcpy(j_.snapshot_.data(), k_out_, j_.out_bytes_);
    j_.charge_after_copy(w, out);
  }
  account(w, out);
  if (out.rc != 0) {
    r_.status = CaseStatus::RuntimeError;
    r_.failed_call = phase;
    r_.message = (&w == &b_ ? "the baseline returned " : "the kernel returned ") + std::to_string(out.rc) +
                 " during the " + phase;
    return false;
  }
  return true;
}

// The kernel's output against the baseline's on the same fresh inputs, with the correctness call's standard.
bool Judge::CaseRun::check_pair(const std::string& phase) {
  Spend spend(kCheck);
  std::vector<OutputCheck> checks;
  const std::vector<const void*> inputs = inputs_seen();
  for (std::size_t i = 0; i < c_.outputs.size(); ++i)
    checks.push_back(check_timed_case_output(c_, i, j_.snapshot_.data() + j_.out_off_[i], b_out_ + j_.out_off_[i],
                                             limits_[i].threshold, inputs));
  const bool first = r_.timed_worst.empty();
  if (first) r_.timed_worst.resize(checks.size());
  for (std::size_t i = 0; i < checks.size(); ++i) fold_worst(r_.timed_worst[i], checks[i], first);
  r_.last_outputs = checks;
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (!checks[i].ok) {
      r_.status = CaseStatus::Wrong;
      r_.failed_call = phase;
      r_.message = describe_timed_failure(phase, checks[i], limits_[i], c_.outputs[i].threshold);
      return false;
    }
  return true;
}

bool Judge::CaseRun::done_timing(int timed) {
  Spend spend(kStop);
  if (timed < min_reps_) return false;
  if (!adaptive_) {
    r_.stop_rule = "fixed";
    return true;
  }
  const std::vector<double>& against = l_ ? r_.library_ns : r_.baseline_ns;  // the speedup that is reported
  const double m = median(r_.kernel_ns) > 0 ? median(against) / median(r_.kernel_ns) : 0.0;
  const auto [lo, hi] = speedup_interval(against, r_.kernel_ns, 400);
  if (m > 0 && (hi - lo) <= j_.options_.ci_rel_width * m) r_.stop_rule = "converged";
  else if (timed >= max_reps_) r_.stop_rule = "max_reps";
  else if (std::chrono::duration<double>(Clock::now() - timing_start_).count() >= j_.options_.case_budget_seconds)
    r_.stop_rule = "budget";
  return !r_.stop_rule.empty();
}

// Timing: pairs of calls on fresh inputs, baseline and kernel alternating which goes first (with the library, all
// six orders of the three in turn), until the stop rule fires. False: the case has ended.
bool Judge::CaseRun::time_interleaved() {
  static constexpr int kOrders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  for (int n = 0;; ++n) {
    const std::string phase = phase_name(n);
    if (n == warmup_) timing_start_ = Clock::now();
    timing_started_ = n >= warmup_;
    if (!fresh_inputs(n)) return false;
    const bool base_first = n % 2 == 0;
    const bool with_library = l_ != nullptr;
    Call kc, bc, lc;
    for (int j = 0; j < (with_library ? 3 : 2); ++j) {
      const int who = with_library ? kOrders[n % 6][j] : ((j == 0) == base_first ? 0 : 1);
      if (who == 2) {
        if (l_) run_library(phase, lc);
        continue;
      }
      const bool is_base = who == 0;
      if (!run_one(is_base ? b_ : k_, phase, is_base ? bc : kc)) return false;
    }
    if (!check_pair(phase) || snapshot_check(phase) || background(phase)) return false;
    if (n < warmup_) continue;
    r_.baseline_ns.push_back(static_cast<double>(bc.ns));
    r_.kernel_ns.push_back(static_cast<double>(kc.ns));
    charge_to_ = static_cast<int64_t>(r_.kernel_ns.size()) - 1;
    j_.timed_ns_ += static_cast<double>(bc.ns + kc.ns);
    if (l_) {
      r_.library_ns.push_back(static_cast<double>(lc.ns));
      j_.timed_ns_ += static_cast<double>(lc.ns);
    }
    if (done_timing(n - warmup_ + 1)) return true;
  }
}

// Sequential (for bench/): every baseline call first, then every kernel call, each kernel call checked against an
// untimed baseline call on the same inputs. False: the case has ended.
bool Judge::CaseRun::time_sequential() {
  const int total = warmup_ + min_reps_;
  for (int n = 0; n < total; ++n) {
    if (!fresh_inputs(n)) return false;
    Call bc;
    if (!run_one(b_, "baseline's " + phase_name(n), bc)) return false;
    if (n >= warmup_) r_.baseline_ns.push_back(static_cast<double>(bc.ns));
    if (n >= warmup_) j_.timed_ns_ += static_cast<double>(bc.ns);
    Call lc;
    if (l_ && run_library("library's " + phase_name(n), lc) && n >= warmup_) {
      r_.library_ns.push_back(static_cast<double>(lc.ns));
      j_.timed_ns_ += static_cast<double>(lc.ns);
    }
  }
  for (int n = 0; n < total; ++n) {
    const std::string phase = phase_name(n);
    timing_started_ = n >= warmup_;
    if (!fresh_inputs(n)) return false;
    Call kc, bc;
    if (!run_one(k_, phase, kc)) return false;
    if (!run_one(b_, phase, bc)) return false;
    if (!check_pair(phase) || snapshot_check(phase) || background(phase)) return false;
    if (n >= warmup_) {
      r_.kernel_ns.push_back(static_cast<double>(kc.ns));
      charge_to_ = static_cast<int64_t>(r_.kernel_ns.size()) - 1;
      j_.timed_ns_ += static_cast<double>(kc.ns);
    }
  }
  r_.stop_rule = "fixed";
  return true;
}

// The last pair in full detail (the fast pass leaves the worst element out), under the same limit.
void Judge::CaseRun::detail_last_pair() {
  Spend spend(kDetail);
  for (std::size_t i = 0; i < c_.outputs.size(); ++i) {
    const auto n = static_cast<std::size_t>(c_.outputs[i].numel);
    const double t = limits_[i].threshold;
    const unsigned char* mine = j_.snapshot_.data() + j_.out_off_[i];
    const unsigned char* theirs = b_out_ + j_.out_off_[i];
    if (c_.outputs[i].index_of >= 0) {
      r_.last_outputs[i] = check_timed_case_output(c_, i, mine, theirs, t, inputs_seen());
    } else if (c_.outputs[i].dtype == DType::F32) {
      r_.last_outputs[i] = check_output_f32(c_.outputs[i].name, reinterpret_cast<const float*>(mine),
                                            reinterpret_cast<const float*>(theirs), n, t);
    } else {
      std::vector<double> wide(n);
      for (std::size_t e = 0; e < n; ++e) wide[e] = load_as_double(c_.outputs[i].dtype, theirs, e);
      r_.last_outputs[i] = check_output(c_.outputs[i].name, c_.outputs[i].dtype, mine, wide.data(), n, t);
    }
    fold_worst(r_.timed_worst[i], r_.last_outputs[i], false);
  }
}

CaseResult Judge::run_case(const ConcreteCase& c, const std::vector<std::vector<double>>& golden, bool time_it,
                           const std::function<void()>& on_timing) {
  CaseResult first = CaseRun(*this, c, golden, on_timing).run(time_it);
  // A verdict of cheating stands only when it happens again: the case once more from the start, in a fresh
  // worker with fresh inputs. Cheating is a property of the code and comes back; a one-off (the machine's
  // doing) does not, and the case's result is then the re-run's, the first flag kept as unconfirmed evidence.
  if (first.status != CaseStatus::Background && first.status != CaseStatus::InputsModified) return first;
  if (cand_->alive()) {
    Call stop;
    stop.end = CallEnd::Died;
    CaseResult scratch;
    cand_->child->kill_all();
    record_death(*cand_, stop, "re-run", scratch);
  }
  CaseResult again = CaseRun(*this, c, golden, on_timing).run(time_it);
  nlohmann::json ev = first.evidence.is_object() ? first.evidence : nlohmann::json::object();
  ev["status"] = std::string(case_status_name(first.status));
  ev["message"] = first.message;
  ev["rerun"] = {{"status", std::string(case_status_name(again.status))}, {"message", again.message}};
  if (again.evidence.is_object()) ev["rerun"]["evidence"] = again.evidence;
  ev["confirmed"] = again.status == CaseStatus::Background || again.status == CaseStatus::InputsModified;
  if (ev["confirmed"].get<bool>()) {
    again.message += " (seen again when the case was re-run in a fresh worker)";
  } else if (again.status == CaseStatus::Cancelled) {
    return again;
  }
  again.evidence = std::move(ev);
  return again;
}

}  // namespace kope::exec
