#include <gtest/gtest.h>

#include "kope/loop/loop.h"
#include "kope/base/sha256.h"
#include "kope/model/stats.h"
#include "kope/device/device.h"
#include "kope/memory/memory.h"

#include <atomic>
#include <memory>
#include "test_support.h"

using namespace kope::loop;
using namespace kope::exec;
using namespace kope::workspace;
using namespace kope::eval;

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
  // The fast kernel matches the baseline's speed at worst; it replaces the baseline only when the lower bound
  // of its speedup's interval is above the baseline's 1.0 (min_gain is 1 here).
  ASSERT_TRUE(o.attempts[3].speedup.has_value());
  ASSERT_TRUE(o.attempts[3].speedup_low.has_value());
  EXPECT_LE(*o.attempts[3].speedup_low, *o.attempts[3].speedup);
  EXPECT_EQ(o.attempts[3].promoted, *o.attempts[3].speedup_low > 1.0);

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

// Every evaluation the loop records carries how far the workspace's earlier evaluations on the device moved (their
// baselines' spread), and the attempt's interval is widened by it once that has kBetweenMinDof degrees of freedom:
// the first evaluation has nothing to learn from, the fourth has 2 degrees of freedom (not enough: its interval is
// its own), the sixth 4.
TEST_F(LoopTest, EachEvaluationCarriesTheSpreadOfTheEarlierOnes) {
  std::vector<Proposal> list;
  for (const char* body : {"y[i] = 2 * x[i] + 1;", "y[i] = 1 + 2 * x[i];", "y[i] = x[i] + x[i] + 1;",
                           "y[i] = 1 + x[i] + x[i];", "y[i] = x[i] * 2 + 1;", "y[i] = 1 + x[i] * 2;"})
    list.push_back(kernel(std::to_string(list.size()), std::string("for (int64_t i = 0; i < n; ++i) ") + body));
  ListPolicy policy(list);
  auto out = run_loop(ws, ev, suite, policy, options, ws.begin_run("spread", "cpu"));
  ASSERT_EQ(out[0].attempts.size(), 6u);
  const auto rows = ws.evaluations(std::string("affine"), 10);  // newest first
  ASSERT_EQ(rows.size(), 6u);
  auto report = [&](int64_t id) { return report_from_json(nlohmann::json::parse(ws.evaluation(id)->report)); };
  EXPECT_FALSE(report(rows[5].id).between);
  const EvalReport fourth = report(rows[2].id);
  ASSERT_TRUE(fourth.between);
  EXPECT_EQ(fourth.between->dof, 2);
  EXPECT_EQ(report_speedup_interval(fourth)->low, task_speedup_interval(fourth.cases)->low);
  const EvalReport last = report(rows[0].id);
  ASSERT_TRUE(last.between) << ws.evaluation(rows[0].id)->report;
  EXPECT_EQ(last.between->dof, kBetweenMinDof);
  EXPECT_EQ(last.between->evaluations, 5);
  EXPECT_GT(last.between->sd_log, 0);
  const Attempt& a = out[0].attempts[5];
  ASSERT_TRUE(a.speedup_low && a.speedup_high);
  const auto iv = report_speedup_interval(last);
  EXPECT_DOUBLE_EQ(*a.speedup_low, iv->low);
  EXPECT_LT(iv->low, task_speedup_interval(last.cases)->low);
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

// A kernels folder holds one subfolder per kind of device, or the CPU's kernels flat; each device gets only
// its own kind of file.
TEST(OfflinePolicy, AFolderGivesEachDeviceItsOwnKernels) {
  Suite suite = Suite::embedded();
  test::TempDir dir;
  test::write_text(dir / "gelu" / "a_flat.cpp", "// thought: flat\n");
  test::write_text(dir / "gelu" / "cuda" / "b.cu", "// thought: cuda\n");
  test::write_text(dir / "gelu" / "cuda" / "notes.cpp", "// thought: not a cuda kernel\n");
  test::write_text(dir / "gelu" / "ascend" / "c.cpp", "// thought: ascend\n");
  auto all = [&](const std::string& device) {
    OfflinePolicy p(dir.path());
    PolicyState state;
    state.task = suite.find("gelu");
    state.device = device;
    std::vector<std::string> names;
    while (auto prop = p.propose(state)) {
      names.push_back(prop->name + " " + prop->thought);
      state.tried.push_back(sha256_hex(prop->source));
    }
    return names;
  };
  EXPECT_EQ(all("cpu"), std::vector<std::string>{"offline:gelu/a_flat.cpp flat"});
  EXPECT_EQ(all("cuda"), std::vector<std::string>{"offline:gelu/b.cu cuda"});
  EXPECT_EQ(all("ascend@lab"), std::vector<std::string>{"offline:gelu/c.cpp ascend"});
  // The shipped CPU kernels are not offered to another kind of device.
  OfflinePolicy shipped;
  PolicyState state;
  state.task = suite.find("gelu");
  state.device = "cuda";
  for (const auto& c : embedded_candidates("gelu", "cuda")) state.tried.push_back(sha256_hex(c.source));
  EXPECT_FALSE(shipped.propose(state).has_value());
}

// ---- Every failure is an outcome: nothing left running, one bad attempt does not end the loop.

TEST_F(LoopTest, InvalidBytesAndAForgedResultDoNotEndTheLoopNorLeaveAnythingRunning) {
  ListPolicy policy({
      // Today: "internal error" from json's dump, the evaluation left "running", the loop ended.
      kernel("bytes", "write(2, \"\\xff\\xfe\\n\", 3); volatile int* p = nullptr; *p = 0;"),
      // Rewrites the runner's result file as it exits: today a json::parse_error escaped the loop.
      {"forged", "forge",
       test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;",
                           "#include <stdio.h>\n__attribute__((destructor)) static void forge() {\n"
                           "  FILE* f = fopen(\"result.json\", \"w\"); if (f) { fputs(\"{not json \\xff\", f); fclose(f); }\n}\n")},
      kernel("fine", "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"),
  });
  auto out = run_loop(ws, ev, suite, policy, options, ws.begin_run("t", "cpu"));
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].attempts.size(), 3u) << "a failing attempt ended the loop";
  EXPECT_EQ(out[0].attempts[0].status, "crash") << out[0].attempts[0].message;
  // The judge writes no result file a kernel could forge: the destructor changes nothing, the verdict is honest.
  EXPECT_EQ(out[0].attempts[1].status, "passed") << out[0].attempts[1].message;
  EXPECT_EQ(out[0].attempts[2].status, "passed") << out[0].attempts[2].message;
  // (Listings read no report blob since the memory's merge: each report is read by id.)
  for (const auto& r : ws.evaluations(std::string("affine"), 10)) {
    EXPECT_NE(r.status, "running") << "evaluation " << r.id;
    EXPECT_FALSE(r.finished_at.empty());
    if (r.status != "error") {  // the list leaves the report out: read each in full
      const std::string report = ws.evaluation(r.id)->report;
      EXPECT_FALSE(nlohmann::json::parse(report, nullptr, false).is_discarded()) << report;
    }
  }
  // The crash's stderr is stored, escaped.
  auto rows = ws.evaluations(std::string("affine"), 10);
  const auto crash = ws.evaluation(rows.back().id);
  ASSERT_TRUE(crash.has_value());
  EXPECT_NE(crash->report.find("\\\\xFF\\\\xFE"), std::string::npos) << crash->report;
}

namespace {

CaseResult timed_case(const std::string& name, std::vector<double> base, std::vector<double> kern) {
  CaseResult c;
  c.name = name;
  c.status = CaseStatus::Passed;
  c.baseline_ns = base;
  c.kernel_ns = kern;
  c.baseline_median_ns = median(base);
  c.kernel_median_ns = median(kern);
  c.speedup = *c.baseline_median_ns / *c.kernel_median_ns;
  return c;
}

EvalReport report_of(std::vector<CaseResult> cases) {
  EvalReport r;
  r.compiled = true;
  r.compile.ok = true;
  r.cases = std::move(cases);
  return r;
}

}  // namespace

TEST(Promotion, OnlyTheLowerBoundOfTheIntervalCounts) {
  // Medians give 1.10x, but the kernel's samples spread so widely that 1.10 is not established.
  EvalReport noisy = report_of({timed_case("a", {1000, 1000, 1000, 1000, 1000}, {500, 700, 909, 1400, 1600})});
  ASSERT_NEAR(*noisy.speedup(), 1.1, 0.01);
  Promotion p = decide_promotion(noisy, 1.0, 1.02);
  EXPECT_FALSE(p.promote) << p.reason;
  ASSERT_TRUE(p.interval);
  EXPECT_LT(p.interval->low, 1.02);
  EXPECT_NE(p.reason.find("lower bound"), std::string::npos) << p.reason;

  // The same median with tight samples is promoted.
  EvalReport tight = report_of({timed_case("a", {1000, 1001, 999, 1000, 1000}, {909, 910, 908, 909, 909})});
  p = decide_promotion(tight, 1.0, 1.02);
  EXPECT_TRUE(p.promote) << p.reason;
  EXPECT_GT(p.interval->low, 1.02);
  // ... but not over an incumbent it does not beat by the margin.
  EXPECT_FALSE(decide_promotion(tight, 1.09, 1.02).promote);

  // Whole evaluations that move 5% from one to the next (the workspace's baselines say so): 10% over an incumbent
  // timed in another evaluation is no longer established, and the reason says why.
  EvalReport moving = tight;
  moving.between = BetweenEvaluations{0.05, 20, 24, 12};
  p = decide_promotion(moving, 1.0, 1.02);
  EXPECT_FALSE(p.promote) << p.reason;
  EXPECT_LT(p.interval->low, 1.0);
  EXPECT_NE(p.reason.find("evaluations' spread"), std::string::npos) << p.reason;

  // A wrong kernel never.
  EvalReport wrong = tight;
  wrong.cases[0].status = CaseStatus::Wrong;
  EXPECT_FALSE(decide_promotion(wrong, 0.1, 1.0).promote);
}

// Issue 11: an incumbent stored against the naive baseline is compared with the report's naive figures, one
// stored against the library with its library figures; a naive-only report cannot displace a library incumbent.
TEST(Promotion, ComparesLikeWithLikeAcrossBaselines) {
  // The kernel: 2x the naive baseline, 0.5x the library.
  CaseResult c = timed_case("a", {2000, 2001, 1999, 2000, 2000}, {1000, 1001, 999, 1000, 1000});
  c.baseline = "library";
  c.library_ns = {500, 501, 499, 500, 500};
  c.naive_median_ns = c.baseline_median_ns;
  c.speedup_vs_naive = c.speedup;
  c.library_median_ns = 500;
  c.baseline_median_ns = 500;
  c.speedup = 0.5;
  const EvalReport rep = report_of({c});
  ASSERT_EQ(rep.baseline(), "library");
  ASSERT_NEAR(*rep.speedup(), 0.5, 1e-9);
  ASSERT_NEAR(*rep.speedup_vs_naive(), 2.0, 1e-9);

  // Against an old incumbent at 1.5x the naive baseline: 2x naive beats it.
  Promotion p = decide_promotion(rep, 1.5, 1.02, false, "naive");
  EXPECT_TRUE(p.promote) << p.reason;
  EXPECT_EQ(p.baseline, "naive");
  EXPECT_NEAR(*p.speedup, 2.0, 1e-9);
  EXPECT_GT(p.interval->low, 1.5);
  // Against an incumbent at 0.6x the library: 0.5x does not.
  p = decide_promotion(rep, 0.6, 1.02, false, "library");
  EXPECT_FALSE(p.promote) << p.reason;
  EXPECT_EQ(p.baseline, "library");
  EXPECT_LT(p.interval->high, 0.6);
  // A naive-only report against a library incumbent: not comparable.
  const EvalReport naive = report_of({timed_case("a", {2000, 2001, 1999, 2000, 2000}, {1000, 1001, 999, 1000, 1000})});
  p = decide_promotion(naive, 0.1, 1.02, false, "library");
  EXPECT_FALSE(p.promote);
  EXPECT_NE(p.reason.find("not comparable"), std::string::npos) << p.reason;
}

TEST(Promotion, FasterThanTheHardwareFloorWaitsForAPerson) {
  CaseResult c = timed_case("big", {900000, 900000, 900000}, {100, 100, 100});
  c.hw_bound_ns = 800000;  // the data alone needs 0.8 ms; the kernel claims 100 ns
  EvalReport rep = report_of({c});
  Promotion p = decide_promotion(rep, 1.0, 1.02);
  EXPECT_FALSE(p.promote);
  EXPECT_TRUE(p.needs_review);
  EXPECT_NE(p.reason.find("case big"), std::string::npos) << p.reason;
  // Once a person approves, the evidence rule alone decides.
  p = decide_promotion(rep, 1.0, 1.02, /*approved=*/true);
  EXPECT_TRUE(p.promote) << p.reason;
  EXPECT_FALSE(p.needs_review);
}

TEST_F(LoopTest, AKernelFasterThanTheFloorIsFlaggedForReviewNotPromoted) {
  // 16 MiB of input the answer does not depend on: the baseline reads it all, the kernel writes one value.
  // Correct, and far faster than moving the data allows: exactly what a cached or skipped computation looks like.
  const std::string task = R"({
  "name": "floor", "level": 1,
  "inputs": [{"name": "x", "dtype": "fp32", "shape": ["N"], "init": {"dist": "uniform", "low": 1, "high": 3}}],
  "outputs": [{"name": "y", "dtype": "fp32", "shape": [1]}],
  "reference": [
    "#include \"kope_kernel.h\"",
    "int kope_kernel(const kope_args* a) {",
    "  const kope_real* x = (const kope_real*)a->inputs[0].data;",
    "  double s = 0; for (int64_t i = 0; i < a->inputs[0].numel; ++i) s += x[i];",
    "  ((kope_real*)a->outputs[0].data)[0] = s > 1e30 ? 2 : 1;",
    "  return 0;",
    "}"],
  "cases": [{"name": "big", "dims": {"N": 4194304}, "seed": 1}]
})";
  test::write_text(dir / "floor_suite" / "floor.json", task);
  Suite floor_suite = Suite::from_dir(dir / "floor_suite");
  ListPolicy policy({{"skip", "write the answer without reading",
                      "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
                      "  ((float*)a->outputs[0].data)[0] = 1.0f;\n  return 0;\n}\n"}});
  options.min_gain = 1.02;
  auto out = run_loop(ws, ev, floor_suite, policy, options, ws.begin_run("t", "cpu"));
  ASSERT_EQ(out[0].attempts.size(), 1u);
  const Attempt& a = out[0].attempts[0];
  ASSERT_EQ(a.status, "passed") << a.message;
  EXPECT_TRUE(a.needs_review) << a.message;
  EXPECT_FALSE(a.promoted);
  EXPECT_NE(a.message.find("needs review"), std::string::npos) << a.message;
  EXPECT_FALSE(ws.incumbent("floor", "cpu").has_value());
  auto row = ws.evaluation(a.evaluation_id);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->review, "pending");
  EXPECT_EQ(ws.reviews(std::string("pending"), 10).size(), 1u);
}

namespace {

// The CPU device under another name whose first `lose` measurements the "cluster" loses (Outcome::Infrastructure,
// as the Slurm device says of a preempted job or a node that went down).
class Lossy : public device::Device {
 public:
  Lossy(std::unique_ptr<device::Device> d, std::shared_ptr<std::atomic<int>> lose) : d_(std::move(d)), lose_(std::move(lose)) {}
  std::string name() const override { return "lossy"; }
  std::string kind() const override { return "cpu"; }
  device::Availability availability() override { return d_->availability(); }
  device::Capabilities capabilities() override { return d_->capabilities(); }
  device::Fingerprint fingerprint() override { return d_->fingerprint(); }
  BuildResult build(const std::string& s, const device::BuildOptions& o) override { return d_->build(s, o); }
  device::MeasureResult measure(const device::MeasureRequest& q) override {
    if (lose_->fetch_sub(1) <= 0) return d_->measure(q);
    device::MeasureResult m;
    m.outcome = device::Outcome::Infrastructure;
    m.message = "infrastructure failure: Slurm job 7 ended PREEMPTED";
    return m;
  }

 private:
  std::unique_ptr<device::Device> d_;
  std::shared_ptr<std::atomic<int>> lose_;
};

}  // namespace

// A measurement the cluster loses is the infrastructure's failure: the attempt says so, no Case says the kernel
// failed, the run goes on and the same kernel is tried again; three lost in a row end the task with why.
TEST_F(LoopTest, AMeasurementTheClusterLosesIsNotTheKernelsAndTheRunGoesOn) {
  auto lose = std::make_shared<std::atomic<int>>(1);
  device::register_device("lossy", [lose](const device::DeviceConfig& c) {
    return std::make_unique<Lossy>(device::make_device("cpu", c), lose);
  });
  options.eval.device = "lossy";
  options.device = "lossy";
  options.max_attempts = 3;
  ListPolicy policy({kernel("right", "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;")});
  auto outcomes = run_loop(ws, ev, suite, policy, options, ws.begin_run("test", "lossy"));
  ASSERT_EQ(outcomes.size(), 1u);
  const TaskOutcome& o = outcomes[0];
  ASSERT_EQ(o.attempts.size(), 2u);
  EXPECT_EQ(o.attempts[0].status, "infrastructure");
  EXPECT_NE(o.attempts[0].message.find("PREEMPTED"), std::string::npos) << o.attempts[0].message;
  EXPECT_EQ(o.attempts[1].status, "passed") << o.attempts[1].message;  // the same kernel, measured this time
  EXPECT_TRUE(o.error.empty()) << o.error;
  memory::MemoryStore mem(ws.handle());
  EXPECT_TRUE(mem.known_failures("affine", "lossy").empty());  // nothing says the kernel failed here

  lose->store(100);
  ListPolicy again({kernel("right2", "for (int64_t i = 0; i < n; ++i) y[i] = 1 + 2 * x[i];")});
  options.max_attempts = 10;
  outcomes = run_loop(ws, ev, suite, again, options, ws.begin_run("test", "lossy"));
  ASSERT_EQ(outcomes[0].attempts.size(), 3u);
  EXPECT_NE(outcomes[0].error.find("3 attempts in a row lost to the infrastructure"), std::string::npos) << outcomes[0].error;
  EXPECT_TRUE(mem.known_failures("affine", "lossy").empty());
}
