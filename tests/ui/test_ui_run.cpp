// The run controller with several tasks in flight (issue 19), built for real under the offscreen platform: a
// real offline run with two tasks at once fills one live row per task and ends with each task's incumbent; the
// selected task alone is stopped or sent a hint; a malformed device pool is named and no run starts.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>

#include <algorithm>
#include <functional>

#include "engine.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "models/run_models.h"
#include "test_support.h"
#include "views/run_controller.h"
#include "views/run_monitor.h"

using namespace kope;
using namespace kope::ui;
using namespace kope::loop;
using namespace kope::workspace;

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 180000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  return true;
}

class RunJobsTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::unique_ptr<MainWindow> window;
  RunController* run = nullptr;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    EvalOptions o = test::quick_options();
    o.cases = {"n1"};
    window->setEvalOptions(o);
    window->show();
    run = window->runController();
    ASSERT_TRUE(window->selectTask("gelu"));
    run->checkTask("masked_scale");
  }
  void TearDown() override {
    if (run->control()) run->control()->stop();
    waitFor([&] { return !window->engine()->busy(); });
  }
  InFlightModel* inFlight() { return run->monitor()->inFlight(); }
  // Most rows not yet finished at once, watched while the run goes.
  void watchInFlight(int& most) {
    QObject::connect(inFlight(), &QAbstractItemModel::dataChanged, inFlight(), [this, &most] {
      int live = 0;
      for (const InFlightRow& r : inFlight()->rows()) live += r.finished ? 0 : 1;
      most = std::max(most, live);
    });
  }
};

}  // namespace

TEST_F(RunJobsTest, TwoTasksAtOnceFillARowEachAndEndWithTheirIncumbents) {
  run->maxAttempts()->setValue(2);
  run->jobsBox()->setValue(2);
  run->devicesEdit()->setText("cpu");
  QSignalSpy finished(run, &RunController::runFinished);
  int most = 0;
  watchInFlight(most);
  run->startButton()->click();
  ASSERT_TRUE(run->running());
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  ASSERT_GT(finished.last().at(0).toLongLong(), 0) << run->phaseLabel()->text().toStdString();
  EXPECT_EQ(most, 2) << "both tasks were in flight at once";
  ASSERT_EQ(inFlight()->rowCount(), 2);
  Workspace ws = Workspace::open(dir / "ws");
  for (const std::string task : {"gelu", "masked_scale"}) {
    const int row = inFlight()->rowOf(task);
    ASSERT_GE(row, 0) << task;
    const InFlightRow& r = inFlight()->at(row);
    EXPECT_TRUE(r.finished) << task;
    EXPECT_EQ(r.attempts, 2) << task;
    EXPECT_EQ(inFlight()->index(row, InFlightModel::Phase).data(StatusRole).toString(), "finished");
    // the incumbent the workspace holds for the task after the run, or the baseline when none beat it
    const auto inc = ws.incumbent(task, "cpu");
    ASSERT_EQ(r.incumbent.has_value(), inc.has_value()) << task;
    if (inc) {
      EXPECT_DOUBLE_EQ(*r.incumbent, inc->speedup) << task;
      EXPECT_DOUBLE_EQ(inFlight()->index(row, InFlightModel::Incumbent).data(RawRole).toDouble(), inc->speedup);
    } else {
      EXPECT_EQ(inFlight()->index(row, InFlightModel::Incumbent).data().toString(), "baseline");
    }
  }
  // the run-wide budget: attempts done against tasks x attempts (no token budget was set)
  EXPECT_EQ(run->monitor()->budgetBar()->maximum(), 4);
  EXPECT_EQ(run->monitor()->budgetBar()->value(), 4);
  EXPECT_GE(run->monitor()->slotModel()->rowCount(), 1);
  EXPECT_EQ(run->monitor()->slotModel()->index(0, SlotModel::State).data(StatusRole).toString(), "idle");
  EXPECT_NE(ws.runs(1).at(0).command.find("--jobs 2"), std::string::npos) << ws.runs(1).at(0).command;
  EXPECT_EQ(QSettings().value("run/jobs").toInt(), 2);  // saved with the run settings
}

// Both tasks hold their first candidate; the selected task alone is sent a hint and then stopped; the other goes
// on to the end.
TEST_F(RunJobsTest, TheSelectedTaskAloneIsHintedAndStopped) {
  run->maxAttempts()->setValue(2);
  run->jobsBox()->setValue(2);
  run->holdBox()->setChecked(true);
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  ASSERT_TRUE(waitFor([&] { return run->control()->all_held().size() == 2 && inFlight()->rowCount() == 2; }));
  RunMonitor* m = run->monitor();
  m->selectTask("masked_scale");
  ASSERT_TRUE(m->hintTaskButton()->isEnabled());
  run->hintEdit()->setText("vectorise the mask (for masked_scale only)");
  m->hintTaskButton()->click();
  EXPECT_TRUE(run->hintEdit()->text().isEmpty());
  m->stopTaskButton()->click();
  EXPECT_FALSE(m->stopTaskButton()->isEnabled());
  EXPECT_TRUE(run->control()->task_stopped("masked_scale"));
  EXPECT_FALSE(run->control()->stopped());
  run->holdBox()->setChecked(false);  // gelu goes on
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  EXPECT_EQ(inFlight()->at(inFlight()->rowOf("gelu")).attempts, 2);
  EXPECT_EQ(inFlight()->at(inFlight()->rowOf("masked_scale")).attempts, 0);
  Workspace ws = Workspace::open(dir / "ws");
  EXPECT_EQ(ws.runs(1).at(0).status, "done");
  QStringList acts;
  for (const SteeringAct& a : steering_log(ws, run->lastRunId())) acts << QString::fromStdString(a.act + " " + a.detail);
  EXPECT_TRUE(acts.contains("hint masked_scale: vectorise the mask (for masked_scale only)")) << acts.join("|").toStdString();
  EXPECT_TRUE(acts.contains("stop masked_scale: now")) << acts.join("|").toStdString();
}

TEST_F(RunJobsTest, AMalformedDevicePoolIsNamedAndNoRunStarts) {
  QLabel* error = run->devicesError();
  run->devicesEdit()->setText("cpu:0-1,cpu:1-2");
  EXPECT_FALSE(error->isHidden());
  EXPECT_NE(error->text().indexOf("core 1 is in two timing slots"), -1) << error->text().toStdString();
  run->startButton()->click();
  EXPECT_FALSE(run->running());
  EXPECT_FALSE(window->engine()->busy());
  EXPECT_EQ(run->control(), nullptr);
  EXPECT_NE(run->phaseLabel()->text().indexOf("core 1 is in two timing slots"), -1);
  run->devicesEdit()->setText("cpu,cuda:0");
  EXPECT_NE(error->text().indexOf("one kind of device"), -1) << error->text().toStdString();
  run->devicesEdit()->setText("cpu:0-1,cpu:2-3");
  EXPECT_TRUE(error->isHidden());
  EXPECT_TRUE(error->text().isEmpty());
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-run-test");
  qRegisterMetaType<quint64>("quint64");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
