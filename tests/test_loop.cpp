#include <gtest/gtest.h>

#include "kope/loop.h"
#include "kope/sha256.h"
#include "test_support.h"

using namespace kope;

namespace {

// Proposes a fixed list of kernels in order, each once; records what state it was shown.
class ListPolicy : public Policy {
 public:
  explicit ListPolicy(std::vector<Proposal> list) : list_(std::move(list)) {}
  std::string name() const override { return "list"; }
  std::optional<Proposal> propose(const PolicyState& state) override {
    seen_speedups.push_back(state.incumbent_speedup);
    seen_feedback.push_back(state.latest_feedback);
    for (const auto& p : list_)
      if (std::find(state.tried.begin(), state.tried.end(), sha256_hex(p.source)) == state.tried.end()) return p;
    return std::nullopt;
  }
  std::vector<double> seen_speedups;
  std::vector<std::string> seen_feedback;

 private:
  std::vector<Proposal> list_;
};

Proposal kernel(const std::string& name, const std::string& body) {
  return {name, "idea " + name, test::affine_kernel(body)};
}

class LoopTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  Workspace ws = Workspace::open(dir / "ws");
  Evaluator ev{EvalPaths::under(ws.dir())};
  Suite suite = [this] {
    test::write_text(dir / "suite" / "affine.json", test::affine_task_json());
    return Suite::from_dir(dir / "suite");
  }();
  LoopOptions options = [] {
    LoopOptions o;
    o.eval = test::quick_options();
    o.min_gain = 1.0;
    return o;
  }();
};

}  // namespace

TEST_F(LoopTest, RecordsEveryAttemptAndPromotesOnlyCorrectAndFaster) {
  // The baseline is the reference built as float at -O2; a kernel that sleeps is correct but slower.
  ListPolicy policy({
      kernel("wrong", "for (int64_t i = 0; i < n; ++i) y[i] = 3 * x[i];"),
      kernel("crash", "volatile int* p = nullptr; *p = 0;"),
      kernel("slow", "usleep(2000); for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"),
      kernel("fast", "for (int64_t i = 0; i < n; ++i) y[i] = __builtin_fmaf(2.0f, x[i], 1.0f);"),
  });
  int64_t run = ws.begin_run("test", "cpu");
  auto outcomes = run_loop(ws, ev, suite, policy, options, run);
  ASSERT_EQ(outcomes.size(), 1u);
  const TaskOutcome& o = outcomes[0];
  ASSERT_EQ(o.attempts.size(), 4u);
  EXPECT_EQ(o.attempts[0].status, "wrong");
  EXPECT_EQ(o.attempts[1].status, "crash");
  EXPECT_EQ(o.attempts[2].status, "passed");
  EXPECT_FALSE(o.attempts[0].promoted);
  EXPECT_FALSE(o.attempts[1].promoted);
  EXPECT_FALSE(o.attempts[2].promoted) << "a kernel slower than the baseline must not become the incumbent";
  EXPECT_EQ(o.attempts[3].status, "passed");
  // The fast kernel matches the baseline's speed at worst; it replaces the baseline only when faster.
  ASSERT_TRUE(o.attempts[3].speedup.has_value());
  EXPECT_EQ(o.attempts[3].promoted, *o.attempts[3].speedup > 1.0);

  // Every attempt is in the workspace, failures included, each starting from the incumbent of its time.
  auto rows = ws.evaluations(std::string("affine"), 100);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& r : rows) EXPECT_NE(r.status, "running");
  EXPECT_EQ(rows.back().status, "wrong");
  EXPECT_FALSE(rows.back().prev_evaluation_id.has_value());  // started from the baseline
  auto inc = ws.incumbent("affine", "cpu");
  EXPECT_EQ(inc.has_value(), o.attempts[3].promoted);
  // The policy saw the feedback of the previous attempt.
  ASSERT_GE(policy.seen_feedback.size(), 2u);
  EXPECT_NE(policy.seen_feedback[1].find("wrong"), std::string::npos) << policy.seen_feedback[1];
}

TEST_F(LoopTest, IncumbentCarriesOverAndNeedsToBeBeaten) {
  ListPolicy first({kernel("fast", "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;")});
  run_loop(ws, ev, suite, first, options, ws.begin_run("a", "cpu"));
  // Pretend the incumbent is extraordinarily fast, then offer a correct kernel: it must not displace it.
  auto rows = ws.evaluations(std::string("affine"), 1);
  ASSERT_EQ(rows.size(), 1u);
  ws.set_incumbent({"affine", "cpu", rows[0].kernel_id, rows[0].id, 1000.0});
  ListPolicy second({kernel("other", "for (int64_t i = 0; i < n; ++i) y[i] = x[i] + x[i] + 1;")});
  auto out = run_loop(ws, ev, suite, second, options, ws.begin_run("b", "cpu"));
  ASSERT_EQ(out[0].attempts.size(), 1u);
  EXPECT_EQ(out[0].attempts[0].status, "passed");
  EXPECT_FALSE(out[0].attempts[0].promoted);
  EXPECT_DOUBLE_EQ(out[0].incumbent_speedup, 1000.0);
  EXPECT_EQ(second.seen_speedups.front(), 1000.0);
  // The new attempt's lineage points at the incumbent it started from.
  auto latest = ws.evaluations(std::string("affine"), 1);
  EXPECT_EQ(latest[0].prev_evaluation_id, rows[0].id);
}

TEST_F(LoopTest, MaxAttemptsBoundsTheLoop) {
  options.max_attempts = 1;
  ListPolicy policy({kernel("a", "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"),
                     kernel("b", "for (int64_t i = 0; i < n; ++i) y[i] = 1 + 2 * x[i];")});
  auto out = run_loop(ws, ev, suite, policy, options, ws.begin_run("c", "cpu"));
  EXPECT_EQ(out[0].attempts.size(), 1u);
}

TEST_F(LoopTest, BadTaskIsRecordedAsAnError) {
  std::string text = test::affine_task_json();
  const std::string good = "y[i] = 2 * x[i] + 1;";
  text.replace(text.find(good), good.size(), "y[i] = nope;");
  test::write_text(dir / "suite2" / "affine.json", text);
  Suite broken = Suite::from_dir(dir / "suite2");
  ListPolicy policy({kernel("a", "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;")});
  auto out = run_loop(ws, ev, broken, policy, options, ws.begin_run("d", "cpu"));
  EXPECT_FALSE(out[0].error.empty());
  auto rows = ws.evaluations(std::string("affine"), 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, "error");
  EXPECT_NE(rows[0].report.find("reference does not build"), std::string::npos) << rows[0].report;
}

TEST(OfflinePolicy, ProposesEachShippedKernelOnce) {
  Suite suite = Suite::embedded();
  OfflinePolicy p;
  PolicyState state;
  state.task = suite.find("sigmoid");
  std::vector<std::string> names;
  while (auto prop = p.propose(state)) {
    names.push_back(prop->name);
    EXPECT_FALSE(prop->thought.empty());
    state.tried.push_back(sha256_hex(prop->source));
  }
  EXPECT_EQ(names.size(), embedded_candidates("sigmoid").size());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}
