// `kope run --jobs N` (issue 19): tasks side by side, each with its own policy and workspace connection; timed
// calls pinned to their slot's cores; steering per task; what one task records reaches the next prompt of another.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sched.h>

#include <condition_variable>
#include <set>
#include <thread>

#include "kope/base/sha256.h"
#include "kope/base/timing_slots.h"
#include "kope/loop/loop.h"
#include "kope/loop/run_control.h"
#include "test_support.h"

using namespace kope;
using namespace kope::loop;
using namespace kope::eval;
using namespace kope::exec;
using namespace kope::workspace;

namespace {

// What the policies of every thread share: proposals in flight, hints and experience seen per task.
struct Shared {
  std::atomic<int> in_flight{0}, max_in_flight{0};
  std::mutex mu;
  std::condition_variable cv;
  std::map<std::string, std::vector<std::string>> hints;
  std::map<std::string, std::vector<std::string>> experience_tasks;  // per task, the tasks of the Cases it was shown
  std::set<std::string> recorded;                                    // tasks with an evaluation recorded
  std::string wait_for;  // the first proposal of task `waiter` waits until this task has recorded one
  std::string waiter;
  int delay_ms = 300;
};

// Two kernels per task (wrong, then correct), each proposal taking `delay_ms` like a model's reply.
class SlowPolicy : public Policy {
 public:
  SlowPolicy(Shared& s, std::vector<Proposal> list) : s_(s), list_(std::move(list)) {}
  std::string name() const override { return "slow"; }
  std::optional<Proposal> propose(const PolicyState& state) override {
    const std::string task = state.task->name;
    {
      std::unique_lock<std::mutex> lock(s_.mu);
      for (const auto& h : state.hints) s_.hints[task].push_back(h);
      for (const auto& it : state.experience) s_.experience_tasks[task].push_back(it.task);
      if (task == s_.waiter && state.tried.empty())
        s_.cv.wait_for(lock, std::chrono::seconds(120), [&] { return s_.recorded.count(s_.wait_for) > 0; });
    }
    const int now = ++s_.in_flight;
    for (int m = s_.max_in_flight.load(); now > m && !s_.max_in_flight.compare_exchange_weak(m, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(s_.delay_ms));
    --s_.in_flight;
    for (const auto& p : list_)
      if (std::find(state.tried.begin(), state.tried.end(), sha256_hex(p.source)) == state.tried.end()) return p;
    return std::nullopt;
  }
  void recorded(const Proposal&, int64_t evaluation_id, const std::string&) override {
    if (!evaluation_id) return;
    std::lock_guard<std::mutex> lock(s_.mu);
    // The loop records before it tells the policy: the Case is in the workspace now.
    s_.recorded.insert(last_task_);
    s_.cv.notify_all();
  }
  std::string last_task_;

 private:
  Shared& s_;
  std::vector<Proposal> list_;
};

// The task name travels in the proposal's thought, so recorded() knows whose it was.
class NamingPolicy : public SlowPolicy {
 public:
  using SlowPolicy::SlowPolicy;
  std::optional<Proposal> propose(const PolicyState& state) override {
    last_task_ = state.task->name;
    return SlowPolicy::propose(state);
  }
};

std::string affine_named(const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(test::affine_task_json());
  j["name"] = name;
  return j.dump(2);
}

class JobsTest : public ::testing::Test {
 protected:
  void SetUp() override { TimingSlots::of("cpu").configure({}); }
  void TearDown() override { TimingSlots::of("cpu").configure({}); }

  test::TempDir dir;
  Workspace ws = Workspace::open(dir / "ws");
  Evaluator ev{EvalPaths::under(ws.dir())};
  Suite suite = [this] {
    for (const char* n : {"affine_a", "affine_b", "affine_c", "affine_d"})
      test::write_text(dir / "suite" / (std::string(n) + ".json"), affine_named(n));
    return Suite::from_dir(dir / "suite");
  }();
  LoopOptions options = [] {
    LoopOptions o;
    o.eval = test::quick_options();
    o.min_gain = 1.0;
    o.max_attempts = 2;
    o.jobs = 2;
    return o;
  }();
  Shared shared;
  std::vector<Proposal> kernels = {
      {"wrong", "idea wrong", test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 3 * x[i];")},
      {"right", "idea right", test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;")}};
  PolicyFactory factory = [this](Workspace&) { return std::make_unique<NamingPolicy>(shared, kernels); };
};

}  // namespace

TEST_F(JobsTest, TasksAdvanceSideBySideAndComeBackInTheSuitesOrder) {
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, factory, options, "test");
  ASSERT_EQ(lr.outcomes.size(), 4u);
  const char* names[] = {"affine_a", "affine_b", "affine_c", "affine_d"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(lr.outcomes[i].task, names[i]);
    ASSERT_EQ(lr.outcomes[i].attempts.size(), 2u) << names[i];
    EXPECT_EQ(lr.outcomes[i].attempts[0].status, "wrong");
    EXPECT_EQ(lr.outcomes[i].attempts[1].status, "passed");
  }
  EXPECT_EQ(shared.max_in_flight.load(), 2) << "two model replies should have been awaited at once";
  EXPECT_EQ(ws.evaluations(std::nullopt, 100).size(), 8u);
}

TEST_F(JobsTest, OnePolicyForEveryTaskCannotRunSideBySide) {
  NamingPolicy one(shared, kernels);
  EXPECT_THROW(run_loop(ws, ev, suite, one, options, ws.begin_run("t", "cpu")), std::logic_error);
}

TEST_F(JobsTest, TimedCallsRunPinnedToTheirSlotsCores) {
  // The kernel is right only while its process may run on exactly one core; its first call (the correctness
  // call, before the slot is taken) is right regardless. Pinned slots pass it; an unpinned pool fails it at a
  // timed call.
  const std::string body =
      "static int calls = 0;\n"
      "cpu_set_t m; CPU_ZERO(&m); sched_getaffinity(0, sizeof m, &m);\n"
      "const int k = (++calls == 1 || CPU_COUNT(&m) == 1) ? 2 : 3;\n"
      "for (int64_t i = 0; i < n; ++i) y[i] = k * x[i] + 1;";
  kernels = {{"pinned", "idea", test::affine_kernel(body, "#define _GNU_SOURCE\n#include <sched.h>\n")}};
  options.max_attempts = 1;
  options.tasks = {"affine_a", "affine_b"};
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  TimingSlots::of("cpu").configure({{"cpu:0", {0}, -1}, {"cpu:" + std::to_string(cores > 1), {cores > 1}, -1}});
  auto pinned = run_loop_in_new_run(ws, ev, suite, factory, options, "pinned").outcomes;
  ASSERT_EQ(pinned.size(), 2u);
  for (const auto& o : pinned) EXPECT_EQ(o.attempts.at(0).status, "passed") << o.attempts.at(0).message;
  if (cores == 1) KOPE_SKIP_WITHOUT_HARDWARE("one core: every process is on one core, pinned or not");
  TimingSlots::of("cpu").configure({});
  options.recheck = true;  // the same kernel again, now unpinned
  auto loose = run_loop_in_new_run(ws, ev, suite, factory, options, "loose").outcomes;
  for (const auto& o : loose) EXPECT_EQ(o.attempts.at(0).status, "wrong") << o.attempts.at(0).message;
}

TEST_F(JobsTest, WhatOneTaskRecordsReachesTheNextPromptOfAnother) {
  options.tasks = {"affine_a", "affine_b"};
  shared.waiter = "affine_b";
  shared.wait_for = "affine_a";
  run_loop_in_new_run(ws, ev, suite, factory, options, "test");
  const auto& seen = shared.experience_tasks["affine_b"];
  EXPECT_NE(std::find(seen.begin(), seen.end(), "affine_a"), seen.end())
      << "affine_b's second prompt should have been offered affine_a's Case, recorded while it waited";
}

TEST_F(JobsTest, SteeringActsOnOneTaskOrOnTheWholeRun) {
  options.tasks = {"affine_a", "affine_b"};
  options.control = std::make_shared<RunControl>();
  options.control->add_hint("only for b", "affine_b");
  options.control->add_hint("for everyone");
  options.control->pause("affine_a");
  LoopRun lr;
  std::thread run([&] { lr = run_loop_in_new_run(ws, ev, suite, factory, options, "test"); });
  // affine_b finishes while affine_a waits, paused; then affine_a is resumed and finishes too.
  auto b_done = [&] {
    std::lock_guard<std::mutex> lock(shared.mu);
    return lr.outcomes.empty() && shared.recorded.count("affine_b") > 0;
  };
  for (int i = 0; i < 1200 && !b_done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // affine_b's second attempt, meanwhile
  {
    std::lock_guard<std::mutex> lock(shared.mu);
    EXPECT_EQ(shared.recorded.count("affine_a"), 0u) << "a paused task made an attempt";
  }
  options.control->resume("affine_a");
  run.join();
  ASSERT_EQ(lr.outcomes.size(), 2u);
  EXPECT_EQ(lr.outcomes[0].attempts.size(), 2u);
  EXPECT_EQ(lr.outcomes[1].attempts.size(), 2u);
  EXPECT_EQ(shared.hints["affine_a"], std::vector<std::string>{"for everyone"});
  EXPECT_EQ(shared.hints["affine_b"], (std::vector<std::string>{"for everyone", "only for b"}));
  bool paused_a = false;
  for (const auto& a : steering_log(ws, lr.run_id)) paused_a = paused_a || (a.act == "pause" && a.detail.rfind("affine_a: ", 0) == 0);
  EXPECT_TRUE(paused_a) << "the log should say which task was paused";
}

TEST_F(JobsTest, StoppingOneTaskLeavesTheOthersRunning) {
  options.tasks = {"affine_a", "affine_b"};
  options.control = std::make_shared<RunControl>();
  options.control->stop_task("affine_a");
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, factory, options, "test");
  ASSERT_EQ(lr.outcomes.size(), 1u);
  EXPECT_EQ(lr.outcomes[0].task, "affine_b");
  EXPECT_EQ(lr.outcomes[0].attempts.size(), 2u);
  EXPECT_TRUE(options.control->task_cancel_token("affine_a")->cancelled());
  EXPECT_FALSE(options.control->task_cancel_token("affine_b")->cancelled());
}
