#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <thread>

#include "kope/base/error.h"
#include "kope/base/timing_slots.h"
#include "kope/device/device.h"
#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "test_support.h"

using namespace kope::eval;
using namespace kope::exec;

using namespace kope;

namespace {

class EvaluatorTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Task task = test::affine_task();

  EvalReport eval(const std::string& body, EvalOptions opt = test::quick_options(), const std::string& head = "") {
    return ev.evaluate(task, test::affine_kernel(body, head), "k.cpp", opt);
  }
};

const char* kCorrect = "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;";

}  // namespace

TEST_F(EvaluatorTest, CorrectKernelPassesWithTimings) {
  EvalReport r = eval(kCorrect);
  ASSERT_TRUE(r.compiled) << r.compile.error;
  ASSERT_EQ(r.cases.size(), 3u);
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.status, CaseStatus::Passed) << c.name << ": " << c.message;
    EXPECT_EQ(c.kernel_ns.size(), 3u);
    EXPECT_EQ(c.baseline_ns.size(), 3u);
    ASSERT_TRUE(c.speedup.has_value());
    EXPECT_GT(*c.speedup, 0.0);
    ASSERT_TRUE(c.hap.has_value());
    EXPECT_GE(*c.hap, 0.0);
    EXPECT_LE(*c.hap, 1.0);
  }
  EXPECT_TRUE(r.correct());
  EXPECT_EQ(r.status(), "passed");
  EXPECT_TRUE(r.speedup().has_value());
  EXPECT_GT(r.score(), 50.0);  // 20 for compiling plus at least 30 per correct case
  auto j = r.to_json();
  EXPECT_EQ(j["status"], "passed");
  EXPECT_EQ(j["cases"].size(), 3u);
}

TEST_F(EvaluatorTest, WrongKernelIsRejectedWithTheWorstElement) {
  EvalReport r = eval("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + (i == n - 1 ? 1.01f : 1.0f);");
  ASSERT_TRUE(r.compiled);
  EXPECT_FALSE(r.correct());
  EXPECT_EQ(r.status(), "wrong");
  const CaseResult& odd = r.cases[1];
  EXPECT_EQ(odd.status, CaseStatus::Wrong);
  ASSERT_EQ(odd.outputs.size(), 1u);
  EXPECT_EQ(odd.outputs[0].worst_index, 1000);
  EXPECT_NE(odd.message.find("worst at index 1000"), std::string::npos) << odd.message;
  EXPECT_FALSE(r.speedup().has_value());
  EXPECT_FALSE(r.errors.empty());
}

TEST_F(EvaluatorTest, SlightlyOffButWithinToleranceIsAccepted) {
  // 1e-5 relative is well inside fp32's 2^-13 mean and 10 * 2^-13 max.
  EvalReport r = eval("for (int64_t i = 0; i < n; ++i) y[i] = (2 * x[i] + 1) * 1.00001f;");
  EXPECT_TRUE(r.correct()) << r.status();
}

TEST_F(EvaluatorTest, SegfaultIsAnOutcome) {
  EvalReport r = eval("volatile float* p = nullptr; *p = 1.0f;");
  ASSERT_TRUE(r.compiled);
  EXPECT_EQ(r.status(), "crash");
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.status, CaseStatus::Crash);
    EXPECT_NE(c.message.find("SIGSEGV"), std::string::npos) << c.message;
    EXPECT_NE(c.message.find("correctness run"), std::string::npos) << c.message;
  }
}

TEST_F(EvaluatorTest, HangingKernelTimesOutAndIsKilled) {
  EvalOptions o = test::quick_options();
  o.case_timeout_seconds = 1.0;
  o.cases = {"one"};
  auto t0 = std::chrono::steady_clock::now();
  EvalReport r = eval("for (;;) { y[0] = x[0]; __asm__ volatile(\"\" ::: \"memory\"); }", o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].status, CaseStatus::Timeout);
  EXPECT_NE(r.cases[0].message.find("timed out"), std::string::npos);
  EXPECT_LT(secs, 15.0);  // golden plus a killed 1 s run, not an unbounded wait
}

TEST_F(EvaluatorTest, HangInTimingRunsIsReportedWithItsPhase) {
  EvalOptions o = test::quick_options();
  o.case_timeout_seconds = 1.5;
  o.cases = {"one"};
  EvalReport r = eval("static int calls = 0; if (++calls > 1) for (;;) sleep(1);\n"
                      "  for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;", o);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].status, CaseStatus::Timeout);
  EXPECT_NE(r.cases[0].message.find("warm-up 1"), std::string::npos) << r.cases[0].message;
}

// skip_large (`--small`, the test command's choice) leaves out the cases a task marks large, unless named.
TEST_F(EvaluatorTest, SkipLargeLeavesOutTheMarkedCasesUnlessNamed) {
  task.cases[1].large = true;
  const std::string body = kCorrect;
  EvalOptions o = test::quick_options();
  o.skip_large = true;
  EvalReport r = eval(body, o);
  ASSERT_EQ(r.cases.size(), task.cases.size() - 1);
  for (const CaseResult& c : r.cases) EXPECT_NE(c.name, task.cases[1].name);
  o.cases = {task.cases[1].name};
  r = eval(body, o);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].name, task.cases[1].name);
  o = test::quick_options();
  EXPECT_EQ(eval(body, o).cases.size(), task.cases.size());
}

TEST_F(EvaluatorTest, NonZeroReturnIsARuntimeError) {
  EvalReport r = eval("return 7;");
  EXPECT_EQ(r.status(), "runtime_error");
  EXPECT_NE(r.cases[0].message.find("returned 7"), std::string::npos) << r.cases[0].message;
}

TEST_F(EvaluatorTest, UnwrittenOutputsFail) {
  EvalReport r = eval("");  // leaves the NaN sentinel in y
  EXPECT_EQ(r.status(), "wrong");
}

TEST_F(EvaluatorTest, WritingIntoInputsIsCaught) {
  EvalReport r = eval("float* w = (float*)x; for (int64_t i = 0; i < n; ++i) { y[i] = 2 * x[i] + 1; w[i] = 0; }");
  EXPECT_EQ(r.status(), "inputs_modified");
}

TEST_F(EvaluatorTest, OutputReplayedFromTheFirstCallIsCaught) {
  // Computes once, then copies the remembered answer: correct on the first call only by luck of address.
  EvalReport r = eval(
      "static float* memo = nullptr; static int64_t memo_n = 0;\n"
      "  if (memo && memo_n == n) { for (int64_t i = 0; i < n; ++i) y[i] = memo[i] + 0.5f; return 0; }\n"
      "  memo = (float*)malloc(sizeof(float) * n); memo_n = n;\n"
      "  for (int64_t i = 0; i < n; ++i) memo[i] = y[i] = 2 * x[i] + 1;");
  EXPECT_EQ(r.status(), "wrong");
  EXPECT_NE(r.cases[0].message.find("timed run"), std::string::npos) << r.cases[0].message;
}

TEST_F(EvaluatorTest, MissingEntryPointIsALoadError) {
  EvalReport r = ev.evaluate(task, "int something_else(void) { return 1; }\n", "k.cpp", test::quick_options());
  ASSERT_TRUE(r.compiled);
  EXPECT_EQ(r.status(), "load_error");
  EXPECT_NE(r.cases[0].message.find("kope_kernel"), std::string::npos) << r.cases[0].message;
}

TEST_F(EvaluatorTest, CompileErrorIsReportedNotThrown) {
  EvalReport r = ev.evaluate(task, "this is not C++\n", "bad.cpp", test::quick_options());
  EXPECT_FALSE(r.compiled);
  EXPECT_EQ(r.status(), "compile_error");
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("bad.cpp:1"), std::string::npos) << r.errors[0];
  EXPECT_TRUE(r.cases.empty());
}

TEST_F(EvaluatorTest, DisallowedFlagIsACompileError) {
  EvalReport r = eval(kCorrect, test::quick_options(), "// kope:cxxflags -Wl,--wrap=malloc\n");
  EXPECT_EQ(r.status(), "compile_error");
  EXPECT_NE(r.errors[0].find("not allowed"), std::string::npos) << r.errors[0];
}

TEST_F(EvaluatorTest, MemoryLimitIsEnforced) {
  EvalOptions o = test::quick_options();
  o.memory_bytes = uint64_t{512} << 20;
  o.cases = {"one"};
  // Touches every page: a cgroup limits memory in use, an address-space rlimit the reservation; either stops it.
  EvalReport r = eval("static char* volatile keep; keep = new char[size_t(2) << 30];\n"
                      "  for (size_t i = 0; i < (size_t(2) << 30); i += 4096) keep[i] = 1;\n"
                      "  y[0] = 2 * x[0] + 1;", o, "#include <new>\n");
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].status, CaseStatus::Crash) << r.cases[0].message;
  EXPECT_NE(r.cases[0].message.find("out of memory"), std::string::npos) << r.cases[0].message;
}

TEST_F(EvaluatorTest, UnknownCaseIsBadInput) {
  EvalOptions o = test::quick_options();
  o.cases = {"nosuch"};
  EXPECT_THROW(eval(kCorrect, o), Error);
}

TEST_F(EvaluatorTest, BrokenReferenceIsATaskError) {
  task.reference = "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) { return oops; }\n";
  try {
    eval(kCorrect);
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("reference does not build"), std::string::npos) << m;
    EXPECT_NE(m.find("affine.reference.cpp:2"), std::string::npos) << m;
  }
}

TEST_F(EvaluatorTest, GoldenOutputsAreCachedPerTaskDigest) {
  EvalOptions o = test::quick_options();
  o.cases = {"odd"};
  ASSERT_TRUE(eval(kCorrect, o).correct());
  auto marker = dir.path() / "golden" / task.digest / "odd" / "done";
  EXPECT_TRUE(std::filesystem::exists(marker));
  EXPECT_TRUE(eval(kCorrect, o).correct());
}

TEST_F(EvaluatorTest, PrepareMakesEveryGoldenAheadAndLeavesFailuresToTheEvaluation) {
  const EvalOptions o = test::quick_options();
  ev.prepare({&task}, o);
  for (const Case& c : task.cases)
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "golden" / task.digest / c.name / "done")) << c.name;
  EXPECT_TRUE(eval(kCorrect, o).correct());
  Task broken = task;
  broken.name = "broken";
  broken.reference = "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) { return oops; }\n";
  broken.digest = "broken-digest";
  EXPECT_NO_THROW(ev.prepare({&broken}, o));  // said by the evaluation, not here
  EXPECT_THROW(ev.evaluate(broken, test::affine_kernel(kCorrect), "k.cpp", o), Error);
}

TEST(EvaluatorL1, ShippedKernelPassesOnTheEmbeddedTask) {
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Suite suite = Suite::embedded();
  const Task* gelu = suite.find("gelu");
  ASSERT_NE(gelu, nullptr);
  EvalOptions o = test::quick_options();
  o.cases = {"n1", "n1000", "n65537"};
  for (const auto& c : embedded_candidates("gelu")) {
    EvalReport r = ev.evaluate(*gelu, c.source, c.name, o);
    if (c.name == "gelu/02_erfc_vectorised.cpp") {
      EXPECT_TRUE(r.correct()) << c.name << " " << r.status();
    }
    if (c.name == "gelu/03_tanh_approx.cpp") {
      EXPECT_EQ(r.status(), "wrong") << c.name;
    }
  }
}

TEST(Median, OddAndEven) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({}), 0);
}

TEST(Hap, FollowsCannBench) {
  EXPECT_DOUBLE_EQ(hardware_aware_position(100, 100, 0), 0.5);  // baseline speed
  EXPECT_DOUBLE_EQ(hardware_aware_position(100, 10, 10), 1.0);  // at the floor
  EXPECT_NEAR(hardware_aware_position(100, 40, 10), 90.0 / 120.0, 1e-12);
  EXPECT_DOUBLE_EQ(hardware_aware_position(100, 5, 10), 1.0);   // below the floor is clamped
}

namespace {

// y = x * 0.5 + 1 in fp16 storage: the golden sees the same half values widened to double.
const char* kHalfTask = R"({
  "name": "half_affine",
  "inputs": [{"name": "x", "dtype": "fp16", "shape": ["N"], "init": {"dist": "uniform", "low": -8, "high": 8}}],
  "outputs": [{"name": "y", "dtype": "fp16", "shape": ["N"]}],
  "reference": [
    "#include \"kope_kernel.h\"",
    "int kope_kernel(const kope_args* a) {",
    "  const kope_real* x = (const kope_real*)a->inputs[0].data;",
    "  kope_real* y = (kope_real*)a->outputs[0].data;",
    "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = x[i] * 0.5 + 1;",
    "  return 0;",
    "}"],
  "baseline": [
    "#include \"kope_kernel.h\"",
    "int kope_kernel(const kope_args* a) {",
    "  const uint16_t* x = (const uint16_t*)a->inputs[0].data;",
    "  uint16_t* y = (uint16_t*)a->outputs[0].data;",
    "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = kope_f32_to_f16(kope_f16_to_f32(x[i]) * 0.5f + 1.0f);",
    "  return 0;",
    "}"],
  "cases": [{"name": "n4097", "dims": {"N": 4097}, "seed": 5}]
})";

const char* kIntTask = R"({
  "name": "int_add",
  "inputs": [{"name": "a", "dtype": "int32", "shape": ["N"], "init": {"dist": "randint", "low": -1000, "high": 1000}},
             {"name": "b", "dtype": "int32", "shape": ["N"], "init": {"dist": "randint", "low": -1000, "high": 1000}}],
  "outputs": [{"name": "c", "dtype": "int32", "shape": ["N"]}],
  "reference": [
    "#include \"kope_kernel.h\"",
    "int kope_kernel(const kope_args* a) {",
    "  const int32_t* x = (const int32_t*)a->inputs[0].data;",
    "  const int32_t* y = (const int32_t*)a->inputs[1].data;",
    "  int32_t* z = (int32_t*)a->outputs[0].data;",
    "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) z[i] = x[i] + y[i];",
    "  return 0;",
    "}"],
  "cases": [{"name": "n999", "dims": {"N": 999}, "seed": 9}]
})";

std::string half_kernel(const char* expr) {
  return std::string("#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
                     "  const uint16_t* x = (const uint16_t*)a->inputs[0].data;\n"
                     "  uint16_t* y = (uint16_t*)a->outputs[0].data;\n"
                     "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) { float v = kope_f16_to_f32(x[i]); y[i] = kope_f32_to_f16(") +
         expr + "); }\n  return 0;\n}\n";
}

}  // namespace

TEST(EvaluatorDTypes, HalfPrecisionUsesTheFp16Threshold) {
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Task t = parse_task_text(kHalfTask, "half.json");
  EvalReport ok = ev.evaluate(t, half_kernel("v * 0.5f + 1.0f"), "h.cpp", test::quick_options());
  ASSERT_TRUE(ok.correct()) << ok.status() << (ok.errors.empty() ? "" : ok.errors[0]);
  EXPECT_DOUBLE_EQ(ok.cases[0].outputs[0].threshold, std::ldexp(1.0, -10));
  // 0.3% off: inside bf16's tolerance, far outside fp16's.
  EvalReport off = ev.evaluate(t, half_kernel("(v * 0.5f + 1.0f) * 1.003f"), "h.cpp", test::quick_options());
  EXPECT_EQ(off.status(), "wrong");
}

TEST(EvaluatorDTypes, IntegersMustBeExact) {
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Task t = parse_task_text(kIntTask, "int.json");
  auto kernel = [](const char* expr) {
    return std::string("#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
                       "  const int32_t* x = (const int32_t*)a->inputs[0].data;\n"
                       "  const int32_t* y = (const int32_t*)a->inputs[1].data;\n"
                       "  int32_t* z = (int32_t*)a->outputs[0].data;\n"
                       "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) z[i] = ") + expr + ";\n  return 0;\n}\n";
  };
  EXPECT_TRUE(ev.evaluate(t, kernel("x[i] + y[i]"), "i.cpp", test::quick_options()).correct());
  EvalReport off = ev.evaluate(t, kernel("x[i] + y[i] + (i == 500)"), "i.cpp", test::quick_options());
  EXPECT_EQ(off.status(), "wrong");
  EXPECT_EQ(off.cases[0].outputs[0].worst_index, 500);
  EXPECT_EQ(off.cases[0].outputs[0].mismatches, 1);
}

TEST_F(EvaluatorTest, KernelsCannotReachTheNetwork) {
  // A listener on loopback in this process: a kernel that reaches it fails the case on purpose.
  int srv = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(srv, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(srv, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(srv, 4), 0);
  socklen_t len = sizeof addr;
  getsockname(srv, reinterpret_cast<sockaddr*>(&addr), &len);
  const std::string port = std::to_string(ntohs(addr.sin_port));
  EvalOptions o = test::quick_options();
  o.cases = {"one"};
  EvalReport r = eval("int s = socket(AF_INET, SOCK_STREAM, 0); sockaddr_in to{}; to.sin_family = AF_INET;\n"
                      "  to.sin_port = htons(" + port + "); to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);\n"
                      "  if (connect(s, (sockaddr*)&to, sizeof to) == 0) return 42;\n"
                      "  for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;",
                      o, "#include <arpa/inet.h>\n#include <netinet/in.h>\n#include <sys/socket.h>\n");
  close(srv);
  ASSERT_EQ(r.cases.size(), 1u);
  ASSERT_TRUE(r.cases[0].network_isolated) << "no network namespaces here: " << r.cases[0].network_failure;
  EXPECT_EQ(r.status(), "passed") << r.cases[0].message;
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SpeedupInterval, BracketsTheEstimateAndNarrowsWithSteadyTimes) {
  std::vector<double> base = {100, 102, 98, 101, 99, 100, 103};
  std::vector<double> steady = {10, 10, 10.1, 9.9, 10, 10, 10.2};
  std::vector<double> noisy = {10, 25, 9, 30, 11, 10, 28};
  auto s = speedup_interval(base, steady);
  EXPECT_LE(s.first, median(base) / median(steady));
  EXPECT_GE(s.second, median(base) / median(steady));
  EXPECT_LT(s.second - s.first, 0.6);
  auto n = speedup_interval(base, noisy);
  EXPECT_GT(n.second - n.first, 4.0 * (s.second - s.first));
  EXPECT_EQ(speedup_interval(base, steady), s);  // a fixed seed: the same samples give the same interval
  EXPECT_EQ(speedup_interval({}, steady), std::make_pair(0.0, 0.0));
}

// With several tasks evaluated at once on one unpinned timing slot, the compile comes before the evaluation's turn
// and runs beside another evaluation's timing at idle priority; the rest of the evaluation waits for the turn.
TEST_F(EvaluatorTest, SideBySideTheCompileRunsBesideAnotherEvaluationsTurnAtIdlePriority) {
  TimingSlots& cpu = TimingSlots::of("cpu");
  ASSERT_TRUE(cpu.side_cpus().empty()) << "the default pool is one unpinned slot";
  Evaluator::evaluating_at_once(2);
  struct Reset {
    ~Reset() { Evaluator::evaluating_at_once(1); }
  } reset;
  std::atomic<bool> held{false}, release{false};
  std::thread other([&] {  // another task's evaluation, holding the turn
    TimingSlots::Turn t = cpu.turn();
    held = true;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  while (!held) std::this_thread::sleep_for(std::chrono::milliseconds(5));

  // A source the compiler takes a while over, so that its processes can be looked at; it then fails to compile
  // and takes no turn at all.
  const std::string slow = test::slow_to_compile(4) + "this is not C++\n";
  std::atomic<int> policy{-1};
  std::atomic<bool> compiling{true};
  std::thread look([&] {
    while (compiling && policy < 0) {
      for (int pid : test::processes_mentioning({"cc1plus", dir.path().string()})) policy = sched_getscheduler(pid);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  std::future<EvalReport> judging =
      std::async(std::launch::async, [&] { return ev.evaluate(task, slow, "slow.cpp", test::quick_options()); });
  const bool beside = judging.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  if (!beside) release = true;  // it waited for the turn: let both end
  const EvalReport bad = judging.get();
  compiling = false;
  EXPECT_TRUE(beside) << "the compile waited for another evaluation's turn";
  look.join();
  EXPECT_EQ(bad.status(), "compile_error");
  EXPECT_EQ(policy.load(), SCHED_IDLE) << "the compiler's scheduling policy, seen while it ran";

  // A kernel that compiles waits for the turn before its workers start, and passes once it has it.
  std::atomic<bool> finished{false};
  EvalReport good;
  std::thread judged([&] {
    good = eval(kCorrect);
    finished = true;
  });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_FALSE(finished) << "judged while another evaluation held the turn";
  release = true;
  other.join();
  judged.join();
  EXPECT_TRUE(good.correct()) << good.status();
}

namespace {
// The local CPU, but a compile started at idle priority runs past its limit, as on cores that something else
// keeps busy the whole time.
class StarvedAtIdlePriority : public device::Device {
 public:
  explicit StarvedAtIdlePriority(std::unique_ptr<device::Device> d) : d_(std::move(d)) {}
  std::string name() const override { return d_->name(); }
  std::string kind() const override { return d_->kind(); }
  device::Availability availability() override { return d_->availability(); }
  device::Capabilities capabilities() override { return d_->capabilities(); }
  device::Fingerprint fingerprint() override { return d_->fingerprint(); }
  BuildResult build(const std::string& source, const device::BuildOptions& o) override {
    if (sched_getscheduler(0) != SCHED_IDLE) return d_->build(source, o);
    ++starved;
    BuildResult b;
    b.timed_out = true;
    b.error = "the compiler ran past its wall-clock limit of 120 s";
    return b;
  }
  device::MeasureResult measure(const device::MeasureRequest& q) override { return d_->measure(q); }
  std::atomic<int> starved{0};

 private:
  std::unique_ptr<device::Device> d_;
};
}  // namespace

// A compile that runs past its limit at idle priority is no fault of the source: it compiles again in its turn.
TEST_F(EvaluatorTest, SideBySideACompileStarvedAtIdlePriorityCompilesAgainInItsTurn) {
  auto dev = std::make_unique<StarvedAtIdlePriority>(device::make_device("cpu"));
  StarvedAtIdlePriority& starved = *dev;
  ev.use_device("cpu", std::move(dev));
  Evaluator::evaluating_at_once(2);
  struct Reset {
    ~Reset() { Evaluator::evaluating_at_once(1); }
  } reset;
  const EvalReport r = eval(kCorrect);
  EXPECT_EQ(starved.starved.load(), 1);
  EXPECT_TRUE(r.compiled) << r.compile.error;
  EXPECT_TRUE(r.correct()) << r.status();
}
