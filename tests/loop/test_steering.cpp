// The engine's parts behind the workbench: shared formatting, reports loaded back, comparisons and line diffs,
// steering a loop (pause, stop, hints, approval, fork, pin) with its log, and `kope run` steered by signals.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/eval/compare.h"
#include "kope/base/error.h"
#include "kope/base/format.h"
#include "kope/loop/loop.h"
#include "kope/memory/memory.h"
#include "kope/model/report.h"
#include "kope/loop/run_control.h"
#include "kope/base/sha256.h"
#include "test_support.h"

using namespace kope::eval;
using namespace kope::loop;
using namespace kope::cli;
using namespace kope::exec;
using namespace kope::workspace;

using namespace kope;
using nlohmann::json;

namespace {

class ListPolicy : public Policy {
 public:
  explicit ListPolicy(std::vector<Proposal> list) : list_(std::move(list)) {}
  std::string name() const override { return "list"; }
  std::optional<Proposal> propose(const PolicyState& state) override {
    seen_hints.push_back(state.hints);
    seen_incumbents.push_back(state.incumbent_source);
    for (const auto& p : list_)
      if (std::find(state.tried.begin(), state.tried.end(), sha256_hex(p.source)) == state.tried.end()) return p;
    return std::nullopt;
  }
  std::vector<std::vector<std::string>> seen_hints;
  std::vector<std::string> seen_incumbents;

 private:
  std::vector<Proposal> list_;
};

Proposal kernel(const std::string& name, const std::string& body) {
  return {name, "idea " + name, test::affine_kernel(body, "// " + name + "\n")};
}

const char* kGood = "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;";

class SteerTest : public ::testing::Test {
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
    o.eval.cases = {"one"};
    o.min_gain = 1.0;
    o.control = std::make_shared<RunControl>();
    return o;
  }();
  std::vector<std::string> acts(int64_t run) {
    std::vector<std::string> out;
    for (const auto& a : steering_log(ws, run)) out.push_back(a.act);
    return out;
  }
};

}  // namespace

TEST(Format, OneWayForTheCliAndTheWindow) {
  EXPECT_EQ(format::duration_ns(std::nullopt), "-");
  EXPECT_EQ(format::duration_ns(850.0), "850.0 ns");
  EXPECT_EQ(format::duration_ns(12345.0), "12.3 us");
  EXPECT_EQ(format::duration_ns(4.5e6), "4.5 ms");
  EXPECT_EQ(format::duration_ns(2.5e9), "2.5 s");
  EXPECT_EQ(format::speedup(1.234), "1.23x");
  EXPECT_EQ(format::interval(std::make_pair(1.1, 1.3)), "[1.10x .. 1.30x]");
  EXPECT_EQ(format::interval(std::nullopt), "");
  EXPECT_EQ(format::sci(0.000123456), "0.000123");
  EXPECT_EQ(format::seconds(0.4123), "412.3 ms");
  EXPECT_EQ(format::percent(0.731), "73%");
}

TEST(ReportIo, ARealReportRoundTrips) {
  test::TempDir dir;
  Evaluator ev(EvalPaths::under(dir / "ws"));
  Task task = test::affine_task();
  EvalOptions o = test::quick_options();
  for (const std::string& body : {std::string(kGood), std::string("for (int64_t i = 0; i < n; ++i) y[i] = x[i];"),
                                  std::string("return no_such;")}) {
    const EvalReport rep = ev.evaluate(task, test::affine_kernel(body), "k.cpp", o);
    const json j = rep.to_json();
    const EvalReport back = report_from_json(j);
    EXPECT_EQ(back.to_json(), j) << body;
    EXPECT_EQ(back.status(), rep.status());
    ASSERT_EQ(back.cases.size(), rep.cases.size());
    for (std::size_t i = 0; i < rep.cases.size(); ++i) EXPECT_EQ(back.cases[i].kernel_ns, rep.cases[i].kernel_ns);
  }
}

TEST(ReportIo, UnknownKeysAreIgnoredAndBadTypesNamed) {
  json j = {{"task", "t"}, {"compiled", true}, {"future_field", {1, 2}},
            {"cases", {{{"name", "a"}, {"status", "passed"}, {"per_case_timing_stop", "ci"}, {"kernel_ns", {1.0, 2.0}}}}}};
  EvalReport r = report_from_json(j);
  EXPECT_EQ(r.task, "t");
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].kernel_ns.size(), 2u);
  j["cases"][0]["status"] = "cancelled";  // a status this build does not know reads as a failure
  EXPECT_FALSE(report_from_json(j).cases[0].correct());
  j["compiled"] = "yes";
  try {
    report_from_json(j);
    FAIL() << "a string for a bool must not load";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("compiled"), std::string::npos) << e.what();
  }
  EXPECT_THROW(report_from_json(json::array()), Error);
}

TEST(Compare, PerCaseMediansSpeedupAndInterval) {
  EvalReport a, b;
  CaseResult c;
  c.name = "x";
  c.kernel_ns = {200, 210, 190, 205, 195};
  c.kernel_median_ns = 200;
  a.cases.push_back(c);
  c.kernel_ns = {100, 105, 95, 102, 98};
  c.kernel_median_ns = 100;
  b.cases.push_back(c);
  c.name = "only_b";
  b.cases.push_back(c);
  Comparison cmp = compare_reports(a, b);
  ASSERT_EQ(cmp.cases.size(), 2u);
  EXPECT_DOUBLE_EQ(*cmp.cases[0].speedup, 2.0);
  ASSERT_TRUE(cmp.cases[0].interval);
  EXPECT_LE(cmp.cases[0].interval->first, 2.0);
  EXPECT_GE(cmp.cases[0].interval->second, 2.0);
  EXPECT_GT(cmp.cases[0].interval->first, 1.5);
  EXPECT_FALSE(cmp.cases[1].in_a);
  EXPECT_FALSE(cmp.cases[1].speedup);
  EXPECT_DOUBLE_EQ(*cmp.speedup, 2.0);
  EXPECT_TRUE(cmp.to_json()["cases"][1]["a_status"].is_null());
}

TEST(Compare, LineDiffIsShortestAndOrdered) {
  auto d = diff_lines("a\nb\nc\nd\n", "a\nc\nX\nd\n");
  std::string s;
  for (const auto& l : d) s += (l.kind == DiffLine::Kind::Same ? " " : l.kind == DiffLine::Kind::Added ? "+" : "-") + l.text;
  EXPECT_EQ(s, " a-b c+X d");
  EXPECT_EQ(d[1].a_line, 1);
  EXPECT_EQ(d[1].b_line, -1);
  EXPECT_EQ(d[3].b_line, 2);
  EXPECT_TRUE(diff_lines("", "").empty());
}

TEST(CancelToken, CallbacksRunOnceAndLateOnesAtOnce) {
  CancelToken t;
  int calls = 0;
  t.on_cancel([&] { ++calls; });
  const int removed = t.on_cancel([&] { calls += 100; });
  t.remove(removed);
  EXPECT_FALSE(t.cancelled());
  t.cancel();
  t.cancel();
  EXPECT_TRUE(t.cancelled());
  EXPECT_EQ(calls, 1);
  t.on_cancel([&] { ++calls; });
  EXPECT_EQ(calls, 2);
}

TEST_F(SteerTest, HintsReachTheNextProposalAndAreLogged) {
  ListPolicy policy({kernel("a", kGood), kernel("b", kGood + std::string(" // b"))});
  options.control->add_hint("try fma");
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, policy, options, "test");
  ASSERT_GE(policy.seen_hints.size(), 2u);
  EXPECT_EQ(policy.seen_hints[0], std::vector<std::string>{"try fma"});
  EXPECT_TRUE(policy.seen_hints[1].empty());  // consumed once
  auto log = steering_log(ws, lr.run_id);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].act, "hint");
  EXPECT_EQ(log[0].detail, "try fma");
  EXPECT_FALSE(log[0].at.empty());
}

TEST_F(SteerTest, PauseHoldsBetweenAttemptsAndStopEndsTheRun) {
  ListPolicy policy({kernel("a", kGood), kernel("b", kGood + std::string(" // b")), kernel("c", kGood + std::string(" // c"))});
  std::atomic<int> attempts{0};
  std::atomic<bool> paused_seen{false};
  options.control->on_phase = [&](const std::string&, const std::string& phase) {
    if (phase == "paused") paused_seen = true;
  };
  options.control->pause();  // pauses before the first attempt
  LoopRun lr;
  std::thread loop([&] {
    lr = run_loop_in_new_run(ws, ev, suite, policy, options, "test", [&](const LoopEvent& e) {
      if (e.attempt) ++attempts;
    });
  });
  for (int i = 0; i < 200 && !paused_seen; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(paused_seen);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(attempts.load(), 0);
  options.control->resume();
  for (int i = 0; i < 3000 && attempts < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  options.control->stop();
  loop.join();
  EXPECT_GE(attempts.load(), 1);
  EXPECT_LT(attempts.load(), 3);
  EXPECT_TRUE(options.control->cancel_token()->cancelled());
  auto runs = ws.runs(1);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, "stopped");
  EXPECT_EQ(acts(lr.run_id), (std::vector<std::string>{"pause", "resume", "stop"}));
}

TEST_F(SteerTest, HeldCandidateCanBeEditedOrRejected) {
  ListPolicy policy({kernel("wrong", "for (int64_t i = 0; i < n; ++i) y[i] = 3 * x[i];"), kernel("other", kGood)});
  options.control->set_hold(true);
  std::atomic<int> held{0};
  options.control->on_held = [&](const Proposal& p) {
    // Answer from another thread, as the window does.
    const int k = held++;
    std::thread([c = options.control, p, k] {
      if (k == 0) {
        Proposal edited = p;
        edited.source = test::affine_kernel(kGood, "// fixed by hand\n");
        c->decide(edited);
      } else {
        c->decide(std::nullopt);
      }
    }).detach();
  };
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, policy, options, "test");
  ASSERT_EQ(lr.outcomes.size(), 1u);
  ASSERT_EQ(lr.outcomes[0].attempts.size(), 1u);  // the second was rejected, never evaluated
  EXPECT_EQ(lr.outcomes[0].attempts[0].status, "passed");  // the edited source ran, not the wrong one
  auto row = ws.evaluation(lr.outcomes[0].attempts[0].evaluation_id);
  ASSERT_TRUE(row);
  EXPECT_NE(ws.kernel_source(row->kernel_id)->find("fixed by hand"), std::string::npos);
  EXPECT_EQ(acts(lr.run_id), (std::vector<std::string>{"hold", "edit", "reject"}));
}

TEST_F(SteerTest, ForkStartsFromARecordedVersionAndPinKeepsTheIncumbent) {
  const Recorded first = evaluate_in_new_run(ws, ev, "test", suite.require("affine"),
                                             {test::affine_kernel(kGood, "// forked\n"), "f.cpp", "f.cpp", ""},
                                             "cpu", options.eval);
  ListPolicy policy({kernel("a", kGood)});
  options.control->fork_from(first.evaluation_id);
  options.control->pin(true);
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, policy, options, "test");
  ASSERT_FALSE(policy.seen_incumbents.empty());
  EXPECT_NE(policy.seen_incumbents[0].find("// forked"), std::string::npos);
  ASSERT_EQ(lr.outcomes[0].attempts.size(), 1u);
  EXPECT_FALSE(lr.outcomes[0].attempts[0].promoted);
  EXPECT_FALSE(ws.incumbent("affine", "cpu"));
  EXPECT_EQ(acts(lr.run_id), (std::vector<std::string>{"fork", "pin"}));
  options.control = std::make_shared<RunControl>();
  options.control->fork_from(999);
  EXPECT_THROW(run_loop_in_new_run(ws, ev, suite, policy, options, "test"), Error);
}

TEST_F(SteerTest, KopeCompareReadsTwoStoredEvaluations) {
  const Task& task = suite.require("affine");
  const Recorded a = evaluate_in_new_run(ws, ev, "t", task, {test::affine_kernel("usleep(200); " + std::string(kGood)), "a.cpp", "a", ""}, "cpu", test::quick_options());
  const Recorded b = evaluate_in_new_run(ws, ev, "t", task, {test::affine_kernel(kGood), "b.cpp", "b", ""}, "cpu", test::quick_options());
  std::ostringstream out, err;
  const std::string ids[] = {std::to_string(a.evaluation_id), std::to_string(b.evaluation_id)};
  ASSERT_EQ(run_cli({"compare", ids[0], ids[1], "--json", "--workspace", ws.dir().string()}, out, err), 0) << err.str();
  json j = json::parse(out.str());
  EXPECT_EQ(j["a"]["kernel"], "a.cpp");
  ASSERT_EQ(j["cases"].size(), task.cases.size());
  EXPECT_GT(j["cases"][0]["speedup_b_over_a"].get<double>(), 1.0);  // b does not sleep
  EXPECT_TRUE(j["cases"][0]["speedup_ci95"].is_array());
  std::ostringstream text;
  ASSERT_EQ(run_cli({"compare", ids[0], ids[1], "--workspace", ws.dir().string()}, text, err), 0);
  EXPECT_NE(text.str().find("B over A"), std::string::npos);
  std::ostringstream o2, e2;
  EXPECT_EQ(run_cli({"compare", ids[0], "424242", "--workspace", ws.dir().string()}, o2, e2), kExitBadInput);
  EXPECT_NE(e2.str().find("no evaluation 424242"), std::string::npos) << e2.str();
}

namespace {

// `kope run` as a child process with its stderr readable while it runs.
struct Child {
  pid_t pid = -1;
  int err_fd = -1;
  std::string err;
  Child(const std::vector<std::string>& args) {
    int p[2];
    EXPECT_EQ(pipe(p), 0);
    pid = fork();
    if (pid == 0) {
      dup2(p[1], 2);
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
      close(p[0]);
      std::vector<char*> argv;
      static std::string bin = KOPE_CLI_BINARY;
      argv.push_back(bin.data());
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(bin.c_str(), argv.data());
      _exit(127);
    }
    close(p[1]);
    err_fd = p[0];
    fcntl(err_fd, F_SETFL, O_NONBLOCK);
  }
  void pump() {
    char buf[4096];
    ssize_t n;
    while ((n = read(err_fd, buf, sizeof buf)) > 0) err.append(buf, static_cast<std::size_t>(n));
  }
  bool wait_for(const std::string& s, int ms = 120000) {
    for (int t = 0; t < ms; t += 20) {
      pump();
      if (err.find(s) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  int finish() {
    int status = 0;
    waitpid(pid, &status, 0);
    pump();
    close(err_fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }
};

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST(RunSignals, Usr1PausesAfterTheAttemptUsr2ResumesIntStops) {
  test::TempDir dir;
  const std::vector<std::string> args = {"run", "--tasks", "masked_scale", "--cases", "n1", "--warmup", "1", "--reps",
                                         "3", "--workspace", (dir / "ws").string()};
  {
    Child c(args);
    ASSERT_TRUE(c.wait_for("== masked_scale"));
    kill(c.pid, SIGUSR1);
    ASSERT_TRUE(c.wait_for("-- paused")) << c.err;
    const int at_pause = count(c.err, "offline:");
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    c.pump();
    EXPECT_EQ(count(c.err, "offline:"), at_pause) << c.err;
    kill(c.pid, SIGUSR2);
    EXPECT_EQ(c.finish(), 0) << c.err;
    EXPECT_NE(c.err.find("-- resume"), std::string::npos) << c.err;
    EXPECT_EQ(count(c.err, "offline:"), static_cast<int>(embedded_candidates("masked_scale").size())) << c.err;
  }
  {
    Child c(args);
    ASSERT_TRUE(c.wait_for("== masked_scale"));
    kill(c.pid, SIGTSTP);  // caught: pauses the run, does not stop the process
    ASSERT_TRUE(c.wait_for("-- paused")) << c.err;
    const int at_pause = count(c.err, "offline:");
    kill(c.pid, SIGINT);
    c.finish();
    EXPECT_NE(c.err.find("-- stop"), std::string::npos) << c.err;
    EXPECT_EQ(count(c.err, "offline:"), at_pause) << c.err;
  }
  Workspace ws = Workspace::open(dir / "ws");
  auto runs = ws.runs(2);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].status, "stopped");
  EXPECT_EQ(runs[1].status, "done");
  std::vector<std::string> acts;
  for (const auto& a : steering_log(ws, runs[1].id)) acts.push_back(a.act);
  EXPECT_EQ(acts, (std::vector<std::string>{"pause", "resume"}));
}

// Ctrl+C while a slow kernel's evaluation runs: the worker is killed, `kope run` exits promptly, the evaluation
// is recorded as cancelled (not running, not error) and the run as stopped; the memory keeps no Case of it.
TEST(RunSignals, IntDuringASlowEvaluationCancelsIt) {
  using namespace std::chrono;
  test::TempDir dir;
  test::write_text(dir / "kernels" / "masked_scale" / "slow.cpp",
                   "#include \"kope_kernel.h\"\n#include <unistd.h>\n"
                   "int kope_kernel(const kope_args* a) { (void)a; sleep(1000); return 0; }\n");
  const std::string ws_dir = (dir / "ws").string();
  Child c({"run", "--tasks", "masked_scale", "--cases", "n1", "--kernels", (dir / "kernels").string(), "--timeout",
           "600", "--workspace", ws_dir});
  const std::vector<std::string> worker = {"--worker", ws_dir};
  bool saw = false;
  for (const auto give_up = steady_clock::now() + seconds(120); !saw && steady_clock::now() < give_up;) {
    saw = !test::processes_mentioning(worker).empty();
    if (!saw) std::this_thread::sleep_for(milliseconds(20));
  }
  ASSERT_TRUE(saw) << "no worker appeared";
  std::this_thread::sleep_for(milliseconds(400));
  const auto sent = steady_clock::now();
  kill(c.pid, SIGINT);
  c.finish();
  EXPECT_LT(duration<double>(steady_clock::now() - sent).count(), 5.0) << c.err;
  EXPECT_NE(c.err.find("-- stop"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("cancelled"), std::string::npos) << c.err;
  EXPECT_TRUE(test::processes_mentioning(worker).empty()) << "a worker outlived `kope run`";
  Workspace ws = Workspace::open(dir / "ws");
  auto runs = ws.runs(1);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, "stopped");
  auto evals = ws.evaluations(std::nullopt, 10);
  ASSERT_EQ(evals.size(), 1u);
  EXPECT_EQ(evals[0].status, "cancelled");
  EXPECT_FALSE(memory::MemoryStore(ws.handle()).case_of_evaluation(evals[0].id));
}
