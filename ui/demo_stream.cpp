// The live reply tour (issue 20): see demo_script.h.
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QPushButton>
#include <QToolButton>

#include "agentview/agent_view.h"
#include "attempt_actions.h"
#include "demo_internal.h"
#include "demo_script.h"
#include "engine.h"
#include "graph/graph_widget.h"
#include "models/live_models.h"
#include "views/attempt_pane.h"
#include "views/live_reply_pane.h"
#include "views/run_controller.h"

namespace kope::ui {

namespace {

// The row of `task` in the live replies, or null.
const LiveReplyRow* liveRow(RunController* run, const std::string& task) {
  const int row = run->liveReply()->model()->rowOf(task);
  return row < 0 ? nullptr : &run->liveReply()->model()->at(row);
}

// Before the reply, mid-stream (reasoning folded, then open), the second task's reply, the small window.
const char* demoStreaming(Demo& d, const std::string& task, const std::string& other, int& finished) {
  RunController* run = d.w.runController();
  LiveReplyPane* pane = run->liveReply();
  run->startButton()->click();
  if (!waitFor([&] {
        const LiveReplyRow* r = liveRow(run, task);
        return r && r->phase == "awaiting_reply";
      }, 60000))
    return "no prompt reached the live pane";
  pane->showTask(task);
  d.shot("prompt_before_reply");
  if (!waitFor([&] {
        const LiveReplyRow* r = liveRow(run, task);
        return r && r->answer.size() > 400;
      }, 60000))
    return "the reply did not stream in";
  d.shot("mid_stream");
  pane->reasoningToggle()->setChecked(true);
  d.shot("reasoning_open");
  pane->reasoningToggle()->setChecked(false);
  if (waitFor([&] {
        const LiveReplyRow* r = liveRow(run, other);
        return r && r->answer.size() > 200;
      }, 30000)) {
    for (int i = 0; i < pane->taskBar()->count(); ++i)
      if (pane->taskBar()->tabText(i).toStdString() == other) emit pane->taskBar()->tabBarClicked(i);
    d.shot("second_task");
  }
  const QSize before = d.w.size();
  d.w.resize(1024, 700);
  d.shot("mid_stream_1024x700");
  d.w.resize(before);
  if (!waitFor([&] { return finished > 0; })) return "the run did not finish";
  pane->showTask(task);
  d.shot("done");
  return nullptr;
}

// An attempt opened from the attempts table: the Attempt pane's diff, results and transcript; its Case in the
// graph; the comparison with the incumbent.
const char* demoAttempt(Demo& d, const std::string& task) {
  MainWindow& w = d.w;
  RunController* run = w.runController();
  int row = -1;  // the task's last evaluated attempt: it started from an incumbent when an earlier one won
  for (int r = 0; r < run->attempts()->rowCount(); ++r)
    if (run->attempts()->at(r).task == task && run->attempts()->at(r).attempt.evaluation_id) row = r;
  if (row < 0) return "no evaluated attempt of the task to open";
  const loop::Attempt& a = run->attempts()->at(row).attempt;
  w.attemptActions()->open({a.evaluation_id, a.transcript_id, 0});
  d.shot("attempt_diff");
  AttemptPane* pane = w.attemptPane();
  pane->parts()->setCurrentWidget(pane->results()->rowCount() ? pane->parts()->widget(1) : pane->parts()->widget(0));
  d.shot("attempt_results");
  pane->parts()->setCurrentWidget(pane->transcript());
  d.shot("attempt_transcript");
  w.graph()->refresh();
  w.graph()->waitForLayout(30000);
  w.attemptActions()->trigger(AttemptActions::Act::Case, {a.evaluation_id, a.transcript_id, 0});
  d.shot("attempt_case_in_graph");
  w.runDock()->raise();
  int compared = 0;
  auto c = QObject::connect(&w, &MainWindow::comparisonShown, [&compared] { ++compared; });
  for (int r = 0; r < run->attempts()->rowCount() && compared == 0; ++r) {
    const loop::Attempt& b = run->attempts()->at(r).attempt;
    if (run->attempts()->at(r).task == task && b.evaluation_id)
      w.attemptActions()->trigger(AttemptActions::Act::CompareIncumbent, {b.evaluation_id, b.transcript_id, 0});
  }
  QObject::disconnect(c);
  if (compared > 0) d.shot("compare_with_incumbent");
  return nullptr;
}

}  // namespace

int runStreamDemo(MainWindow& w, const QString& outDir, const QString& task, const QString& profile) {
  QDir().mkpath(outDir);
  w.askUnsaved = [](const QString&) { return QMessageBox::Discard; };
  EvalOptions o = w.evalOptions();
  o.warmup = 1;
  o.reps = 5;
  w.setEvalOptions(o);
  if (!w.selectTask(task)) {
    std::cerr << "demo script: no such task\n";
    return 1;
  }
  const std::string other = task == "gelu" ? "mish" : "gelu";
  w.resize(1600, 1000);  // the whole Xvfb screen of scripts/screenshots-stream.sh
  RunController* run = w.runController();
  run->setCurrentTask(task.toStdString());
  run->checkTask(other);
  run->policyBox()->setEditText(profile);
  run->memoryBox()->setCurrentText("active");
  run->maxAttempts()->setValue(2);
  run->jobsBox()->setValue(2);
  int finished = 0;
  QObject counting;  // the connection goes with it, before `finished` does
  QObject::connect(run, &RunController::runFinished, &counting, [&finished] { ++finished; });
  Demo d{w, outDir};
  d.prefix = "stream_";
  const char* why = demoStreaming(d, task.toStdString(), other, finished);
  if (!why) why = demoAttempt(d, task.toStdString());
  if (why) {
    std::cerr << "demo script: " << why << "\n";
    return 1;
  }
  return 0;
}

}  // namespace kope::ui
