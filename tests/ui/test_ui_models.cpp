// Every model of the window under QAbstractItemModelTester, filled, appended to, changed and reset; the tests
// read roles (raw values, statuses, ids), never painted text.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QTextDocument>

#include <memory>

#include "models/live_models.h"
#include "models/models.h"
#include "models/run_models.h"
#include "models/status.h"

using namespace kope;
using namespace kope::ui;
using namespace kope::workspace;
using namespace kope::eval;
using namespace kope::loop;

namespace {

template <typename M>
std::unique_ptr<QAbstractItemModelTester> tester(M& model) {
  return std::make_unique<QAbstractItemModelTester>(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
}

CaseResult passedCase(const std::string& name, double base, double kern) {
  CaseResult c;
  c.name = name;
  c.status = CaseStatus::Passed;
  c.baseline_ns = {base, base * 1.01, base * 0.99};
  c.kernel_ns = {kern, kern * 1.02, kern * 0.98};
  c.baseline_median_ns = base;
  c.kernel_median_ns = kern;
  c.speedup = base / kern;
  c.speedup_interval = std::make_pair(base / kern * 0.9, base / kern * 1.1);
  c.hw_bound_ns = kern / 4;
  c.hap = 0.7;
  OutputCheck o;
  o.name = "y";
  o.max_rel = 1e-6;
  o.ok = true;
  c.outputs.push_back(o);
  return c;
}

}  // namespace

TEST(Models, CaseModelServesRawValuesAndGrowsRowByRow) {
  CaseModel m;
  auto t = tester(m);
  EXPECT_EQ(m.columnCount(), CaseModel::ColumnCount);
  m.append(passedCase("n1", 100, 50));
  CaseResult wrong = passedCase("n2", 100, 80);
  wrong.status = CaseStatus::Wrong;
  wrong.message = "output y: worst at index 3: expected 1, got 2\nsecond line";
  m.append(wrong);
  ASSERT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.index(0, CaseModel::Status).data(StatusRole).toString(), "passed");
  EXPECT_DOUBLE_EQ(m.index(0, CaseModel::Speedup).data(RawRole).toDouble(), 2.0);
  EXPECT_EQ(m.index(0, CaseModel::Interval).data(RawRole).toList().size(), 2);
  EXPECT_DOUBLE_EQ(m.index(0, CaseModel::Hap).data(RawRole).toDouble(), 0.7);
  EXPECT_EQ(m.index(1, CaseModel::Status).data(StatusRole).toString(), "wrong");
  EXPECT_EQ(m.index(1, CaseModel::Message).data(FullTextRole).toString().toStdString(), wrong.message);
  EXPECT_TRUE(m.index(1, CaseModel::Status).data(Qt::BackgroundRole).value<QColor>().isValid());
  m.replace(1, passedCase("n2", 100, 25));
  EXPECT_DOUBLE_EQ(m.index(1, CaseModel::Speedup).data(RawRole).toDouble(), 4.0);
  m.setRows({passedCase("a", 1, 1)});
  EXPECT_EQ(m.rowCount(), 1);
  m.clear();
  EXPECT_EQ(m.rowCount(), 0);
}

TEST(Models, DiagnosticModelCarriesLinesAndSeverities) {
  DiagnosticModel m;
  auto t = tester(m);
  m.setRows({{"k.cpp", 4, 10, "error", "'no_such' was not declared"}, {"k.cpp", 2, 7, "warning", "unused variable"}});
  EXPECT_EQ(m.index(0, 0).data(LineRole).toInt(), 4);
  EXPECT_EQ(m.index(0, 0).data(ColumnRole).toInt(), 10);
  EXPECT_EQ(m.index(1, DiagnosticModel::Severity).data(StatusRole).toString(), "warning");
  EXPECT_EQ(m.index(0, DiagnosticModel::Message).data(RawRole).toString(), "'no_such' was not declared");
}

TEST(Models, AttemptHistoryRunCompareSteeringModels) {
  AttemptModel a;
  auto ta = tester(a);
  Attempt at;
  at.evaluation_id = 7;
  at.name = "offline:gelu/01.cpp";
  at.status = "passed";
  at.speedup = 1.5;
  at.promoted = true;
  a.append({"gelu", at});
  EXPECT_EQ(a.index(0, 0).data(IdRole).toLongLong(), 7);
  EXPECT_TRUE(a.index(0, AttemptModel::Promoted).data(RawRole).toBool());

  HistoryModel h;
  auto th = tester(h);
  EvaluationRow r;
  r.id = 3;
  r.kernel_id = 9;
  r.status = "wrong";
  h.setRows({r});
  EXPECT_EQ(h.index(0, HistoryModel::Kernel).data(KernelIdRole).toLongLong(), 9);
  EXPECT_EQ(h.index(0, HistoryModel::Status).data(StatusRole).toString(), "wrong");
  EXPECT_FALSE(h.index(0, HistoryModel::Speedup).data(RawRole).isValid());

  RunModel runs;
  auto tr = tester(runs);
  runs.setRows({{5, "kope run", "cpu", "stopped", "t0", "t1"}});
  EXPECT_EQ(runs.index(0, RunModel::Status).data(RawRole).toString(), "stopped");

  CompareModel c;
  auto tc = tester(c);
  CaseComparison cc;
  cc.name = "n1";
  cc.in_a = cc.in_b = true;
  cc.a_status = "passed";
  cc.b_status = "wrong";
  cc.a_median_ns = 200;
  cc.b_median_ns = 100;
  cc.speedup = 2.0;
  c.setRows({cc});
  EXPECT_DOUBLE_EQ(c.index(0, CompareModel::Speedup).data(RawRole).toDouble(), 2.0);
  EXPECT_EQ(c.index(0, CompareModel::BStatus).data(RawRole).toString(), "wrong");

  SteeringModel s;
  auto ts = tester(s);
  s.append({"2026-01-01T00:00:00Z", "hint", "use fma"});
  EXPECT_EQ(s.index(0, 0).data(StatusRole).toString(), "hint");
}

TEST(Models, TaskModelChecksTasksForARun) {
  TaskModel m;
  auto t = tester(m);
  m.setRows({{"gelu", 1, "GELU", false}, {"exp", 1, "exp", false}});
  EXPECT_TRUE(m.flags(m.index(0, 0)) & Qt::ItemIsUserCheckable);
  EXPECT_TRUE(m.setData(m.index(1, 0), Qt::Checked, Qt::CheckStateRole));
  EXPECT_EQ(m.checkedTasks(), std::vector<std::string>{"exp"});
  EXPECT_EQ(m.rowOf("gelu"), 0);
  EXPECT_EQ(m.rowOf("nosuch"), -1);
  m.setCheckable(false);
  EXPECT_FALSE(m.index(0, 0).data(Qt::CheckStateRole).isValid());
  EXPECT_FALSE(m.setData(m.index(0, 0), Qt::Checked, Qt::CheckStateRole));
}

// The tasks in flight: a row per task as its events come, attempts counted, tokens summed, the incumbent from a
// promotion and from the run's outcomes at the end.
TEST(Models, InFlightModelFollowsEachTaskToItsIncumbent) {
  InFlightModel m;
  auto t = tester(m);
  m.setMaxAttempts(2);
  m.setPhase("gelu", "starting");
  m.setPhase("mish", "proposing");
  m.setIncumbent("mish", 1.25);
  m.setPhase("gelu", "timing", "case 1 of 3 (n1)");
  ASSERT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.index(0, InFlightModel::Phase).data(StatusRole).toString(), "timing");
  EXPECT_FALSE(m.index(0, InFlightModel::LastStatus).data(Qt::BackgroundRole).isValid());  // no attempt yet
  Attempt a;
  a.status = "passed";
  a.speedup = 1.8;
  a.promoted = true;
  a.tokens = 1200;
  m.addAttempt("gelu", a);
  EXPECT_DOUBLE_EQ(m.index(0, InFlightModel::Incumbent).data(RawRole).toDouble(), 1.8);
  EXPECT_EQ(m.index(0, InFlightModel::Tokens).data(RawRole).toLongLong(), 1200);
  a.promoted = false;
  a.status = "wrong";
  m.addAttempt("gelu", a);  // the last attempt allowed: the task is done
  EXPECT_EQ(m.index(0, InFlightModel::Phase).data(StatusRole).toString(), "finished");
  EXPECT_EQ(m.attemptsDone(), 2);
  EXPECT_EQ(m.tokens(), 2400);
  m.setSteered("mish", true, false);
  EXPECT_TRUE(m.at(1).paused);
  TaskOutcome o;
  o.task = "mish";
  o.incumbent_name = "offline:mish/01.cpp";
  o.incumbent_speedup = 3.5;
  m.finish({o});
  EXPECT_DOUBLE_EQ(m.index(1, InFlightModel::Incumbent).data(RawRole).toDouble(), 3.5);
  EXPECT_EQ(m.index(1, InFlightModel::Phase).data(StatusRole).toString(), "finished");
  EXPECT_EQ(m.rowOf("nope"), -1);
}

// The device pool: a row per timing slot; a poll that changes nothing leaves the rows, a retired slot says why.
TEST(Models, SlotModelShowsBusyIdleAndRetiredSlots) {
  SlotModel m;
  auto t = tester(m);
  SlotState a, b;
  a.spec.name = "cpu:0-1";
  b.spec.name = "cpu:2-3";
  m.refresh({a, b});
  ASSERT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.index(0, SlotModel::State).data(StatusRole).toString(), "idle");
  a.busy = true;
  a.doing = "timing case n4096";
  b.retired = true;
  b.why = "health check failed";
  m.refresh({a, b});
  EXPECT_EQ(m.index(0, SlotModel::State).data(StatusRole).toString(), "busy");
  EXPECT_EQ(m.index(0, SlotModel::Doing).data(RawRole).toString(), "timing case n4096");
  EXPECT_EQ(m.index(1, SlotModel::State).data(StatusRole).toString(), "retired");
  EXPECT_EQ(m.index(1, SlotModel::Doing).data(RawRole).toString(), "health check failed");
  m.refresh({a});
  EXPECT_EQ(m.rowCount(), 1);
}

// The live replies: a row per task, started by its prompt, the text appended as it comes (a retry starts it
// again), the end freezing the time; a delta of an attempt the row does not follow is dropped.
TEST(Models, LiveReplyModelFollowsEachTasksCurrentAttempt) {
  LiveReplyModel m;
  auto t = tester(m);
  auto event = [](LiveEvent::Kind kind, const std::string& task, int64_t transcript) {
    LiveEvent e;
    e.kind = kind;
    e.who.task = task;
    e.who.iteration = 1;
    e.who.transcript_id = transcript;
    e.who.prompt_estimate = 1200;
    return e;
  };
  QStringList appended;
  QObject::connect(&m, &LiveReplyModel::textAppended, &m,
                   [&](int, const QString& a, const QString& r, bool restart) { appended << (restart ? "|" : "") + r + a; });
  LiveEvent p = event(LiveEvent::Kind::Prompt, "gelu", 7);
  p.prompt = std::make_shared<const agent::Prompt>();
  m.apply(p);
  ASSERT_EQ(m.rowCount(), 1);
  EXPECT_EQ(m.index(0, LiveReplyModel::Phase).data(StatusRole).toString(), "awaiting_reply");
  EXPECT_EQ(m.index(0, LiveReplyModel::TokensIn).data(RawRole).toLongLong(), 1200);
  EXPECT_EQ(m.index(0, LiveReplyModel::Cost).data().toString(), "no price set");
  LiveEvent d = event(LiveEvent::Kind::Delta, "gelu", 7);
  d.reasoning = "think";
  d.usage = {1200, 2, false, std::nullopt, 0.1};
  m.apply(d);
  d.reasoning.clear();
  d.answer = "Hello";
  d.usage.completion_tokens = 4;
  m.apply(d);
  EXPECT_EQ(m.at(0).phase, "streaming");
  EXPECT_EQ(m.at(0).answer, "Hello");
  EXPECT_EQ(m.at(0).reasoning, "think");
  EXPECT_EQ(m.index(0, LiveReplyModel::TokensOut).data().toString(), "~4");
  d.restart = true;
  d.answer = "Hi";
  m.apply(d);
  EXPECT_EQ(m.at(0).answer, "Hi");
  EXPECT_EQ(appended, (QStringList{"think", "Hello", "|Hi"}));
  m.apply(event(LiveEvent::Kind::Delta, "gelu", 6));  // an earlier attempt's: dropped
  EXPECT_EQ(m.at(0).answer, "Hi");
  LiveEvent e = event(LiveEvent::Kind::End, "gelu", 7);
  e.status = "no_candidate";
  e.usage = {1300, 5, true, 0.0042, 2.5};
  m.apply(e);
  EXPECT_FALSE(m.at(0).live());
  EXPECT_EQ(m.index(0, LiveReplyModel::TokensIn).data().toString(), "1300");
  const double frozen = m.index(0, LiveReplyModel::Time).data(RawRole).toDouble();
  EXPECT_EQ(m.index(0, LiveReplyModel::Time).data(RawRole).toDouble(), frozen);
  // the profile has no prices: the cost stays unknown
  EXPECT_EQ(m.index(0, LiveReplyModel::Cost).data().toString(), "no price set");
  // the next attempt of the task takes its row; another task gets one of its own
  // a priced profile: the prompt's estimate costs something before any reply
  LiveEvent priced = event(LiveEvent::Kind::Prompt, "gelu", 8);
  priced.who.price_in_per_mtok = 3;
  priced.who.price_out_per_mtok = 15;
  m.apply(priced);
  EXPECT_NEAR(m.index(0, LiveReplyModel::Cost).data(RawRole).toDouble(), 1200 * 3 / 1e6, 1e-12);
  EXPECT_EQ(m.index(0, LiveReplyModel::Cost).data().toString(), "~$0.0036");
  m.apply(event(LiveEvent::Kind::Prompt, "swish", 9));
  ASSERT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.at(0).who.transcript_id, 8);
  EXPECT_TRUE(m.at(0).answer.empty());
  EXPECT_EQ(m.rowOf("swish"), 1);
}

TEST(Models, StatusWordsAndColours) {
  EXPECT_EQ(statusText("runtime_error"), "runtime error");
  EXPECT_EQ(statusText("something_new"), "something_new");
  EXPECT_NE(statusColor("passed"), statusColor("wrong"));
  EXPECT_FALSE(statusColor("").isValid());
}

TEST(Models, AMessageThatLooksLikeMarkupIsAPlainTooltip) {
  CaseModel m;
  CaseResult c = passedCase("n", 1, 1);
  c.status = CaseStatus::Wrong;
  c.message = "<b>x</b><img src=\"file:///etc/passwd\"> & more";
  m.append(c);
  const QString tip = m.index(0, CaseModel::Message).data(Qt::ToolTipRole).toString();
  EXPECT_FALSE(tip.contains("<img")) << tip.toStdString();
  QTextDocument doc;
  doc.setHtml(tip);  // what the tooltip shows: the message itself
  EXPECT_EQ(doc.toPlainText().toStdString(), c.message);
  EXPECT_EQ(plainToolTip("a & b, no markup"), "a & b, no markup") << "plain text stays as it is";
}

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
