#include "demo_script.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QDir>
#include <QElapsedTimer>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>

#include <functional>
#include <iostream>

#include "charts/speedup_chart.h"
#include "demo_internal.h"
#include "doctor/doctor_dialog.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "i18n.h"
#include "main_window.h"
#include "models/models.h"
#include "models/run_models.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/compile_pane.h"
#include "views/history_pane.h"
#include "views/profile_pane.h"
#include "views/results_header.h"
#include "views/run_controller.h"
#include "views/run_monitor.h"

namespace kope::ui {

namespace {

// Each step returns what went wrong, or nullptr.

// 1. a correct kernel: cases, profile, chart, compile output; 1b. a variant of it (another version to compare
// with later).
const char* demoCorrectKernel(Demo& d, const QString& candidate) {
  MainWindow& w = d.w;
  auto shown_c = QObject::connect(&w, &MainWindow::reportShown, [&d] { ++d.shown; });
  (void)shown_c;
  if (!w.loadCandidate(candidate)) return "cannot load the shipped kernel";
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return d.shown > 0; })) return "the evaluation did not finish";
  w.tabs()->setCurrentWidget(w.casesPane());
  d.shot("cases");
  w.tabs()->setCurrentWidget(w.profilePane());
  w.profilePane()->selectCase(w.casesPane()->model()->rowCount() - 1);
  d.shot("profile");
  w.tabs()->setCurrentWidget(w.compilePane());
  d.shot("compile_ok");

  QString variant = w.editor()->text();
  if (variant.contains("-ffast-math")) variant.replace(" -ffast-math", "");
  else variant.prepend("// variant: the same kernel, recorded as another version\n");
  w.editor()->setText(variant);
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return d.shown > 1; })) return "the variant's evaluation did not finish";
  w.tabs()->setCurrentWidget(w.chart());  // redrawn for a second report: old axes gone, new ones in place
  d.shot("chart");
  return nullptr;
}

// 2. a kernel with a warning and an error; 3. a wrong kernel; 4. stale results.
const char* demoBrokenKernels(Demo& d) {
  MainWindow& w = d.w;
  // Markers in the margin and squiggles in the text.
  w.editor()->setText(
      "// kope:cxxflags -O2 -Wall\n#include \"kope_kernel.h\"\n\nint kope_kernel(const kope_args* a) {\n"
      "  int unused = 3;\n  const float* x = (const float*)a->inputs[0].data;\n  return no_such_thing(x);\n}\n");
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return d.shown > 2; })) return "the compile-error evaluation did not finish";
  d.shot("compile_error");

  // The failing case and its full message.
  w.editor()->setText(
      "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
      "  const float* x = (const float*)a->inputs[0].data; float* y = (float*)a->outputs[0].data;\n"
      "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = x[i];\n  return 0;\n}\n");
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return d.shown > 3; })) return "the wrong-kernel evaluation did not finish";
  w.tabs()->setCurrentWidget(w.casesPane());
  d.shot("case_detail");

  // The editor changed after the evaluation.
  w.editor()->append("// an edit after the evaluation\n");
  d.shot("stale_header");
  return nullptr;
}

// 5. the run controller: hold the first candidate, approve it, let the run finish.
const char* demoRun(Demo& d) {
  RunController* run = d.w.runController();
  run->holdBox()->setChecked(true);
  run->maxAttempts()->setValue(3);
  auto held_c = QObject::connect(run, &RunController::candidateHeld, [&d] { ++d.held; });
  (void)held_c;
  auto finished_c = QObject::connect(run, &RunController::runFinished, [&d] { ++d.finished; });
  (void)finished_c;
  run->startButton()->click();
  if (!waitFor([&] { return d.held > 0; })) return "no candidate was held";
  settle();
  d.shot("run_held");
  run->hintEdit()->setText("keep the erf polynomial, vectorise the tail");
  run->hintButton()->click();
  run->approveButton()->click();
  run->holdBox()->setChecked(false);
  waitFor([&] { return run->attempts()->rowCount() > 0; });
  d.shot("run_live");
  if (!waitFor([&] { return d.finished > 0; })) return "the run did not finish";
  d.shot("run_done");
  return nullptr;
}

// 5b. two tasks at once (--jobs 2) on a pool of two CPU timing slots: the tasks in flight, the budget and the
// device pool, live at 1024x700 and at a large size, and when done.
const char* demoRunJobs(Demo& d, const QString& task) {
  RunController* run = d.w.runController();
  const QSize before = d.w.size();
  run->setCurrentTask(task.toStdString());
  run->checkTask(task == "gelu" ? "mish" : "gelu");
  run->maxAttempts()->setValue(3);
  run->jobsBox()->setValue(2);
  run->devicesEdit()->setText("cpu:0,cpu:1");
  int finished = 0;
  auto finished_c = QObject::connect(run, &RunController::runFinished, [&finished] { ++finished; });
  run->startButton()->click();
  InFlightModel* rows = run->monitor()->inFlight();
  auto timing = [&] {
    for (const InFlightRow& r : rows->rows())
      if (r.phase == "timing" && !r.finished) return rows->rowCount() == 2;
    return false;
  };
  if (!waitFor([&] { return timing() || finished > 0; })) return "the two-task run never timed a case";
  d.w.resize(1024, 700);
  d.shot("run_jobs_1024x700");
  d.w.resize(1600, 1000);
  waitFor([&] { return timing() || finished > 0; });
  d.shot("run_jobs_large");
  if (!waitFor([&] { return finished > 0; })) return "the two-task run did not finish";
  d.shot("run_jobs_done");
  // One timing slot: the tasks' evaluations take turns, and the one behind says so.
  run->devicesEdit()->setText("cpu");
  finished = 0;
  run->startButton()->click();
  auto waiting = [&] {
    for (const InFlightRow& r : rows->rows())
      if (r.phase == "waiting" && !r.finished) return true;
    return false;
  };
  if (waitFor([&] { return waiting() || finished > 0; }) && waiting()) d.shot("run_jobs_waiting");
  if (!waitFor([&] { return finished > 0; })) return "the one-slot run did not finish";
  QObject::disconnect(finished_c);
  d.w.resize(before);
  run->jobsBox()->setValue(1);
  run->devicesEdit()->setText("cpu");
  return nullptr;
}

// 6. history and the side-by-side comparison of two versions.
const char* demoHistory(Demo& d) {
  MainWindow& w = d.w;
  w.tabs()->setCurrentWidget(w.historyPane());
  if (!waitFor([&] { return w.historyPane()->model()->rowCount() >= 3; })) return "no history";
  d.shot("history");
  // Two passed evaluations of different sources.
  QList<int> rows;
  HistoryModel* hm = w.historyPane()->model();
  for (int r = 0; r < hm->rowCount() && rows.size() < 2; ++r)
    if (hm->at(r).status == "passed" && (rows.isEmpty() || hm->at(rows[0]).kernel_sha256 != hm->at(r).kernel_sha256))
      rows << r;
  if (rows.size() < 2) return "fewer than two passed evaluations to compare";
  w.historyPane()->select(rows);
  auto compared_c = QObject::connect(&w, &MainWindow::comparisonShown, [&d] { ++d.compared; });
  (void)compared_c;
  w.historyPane()->compareButton()->click();
  if (!waitFor([&] { return d.compared > 0; })) return "no comparison";
  d.shot("compare");
  d.shot("compare_pane", w.comparePane());
  return nullptr;
}

// 7. Help > Machine check: the `kope doctor` checks of this machine; 8. the interface in Simplified Chinese.
const char* demoMachineCheckAndChinese(Demo& d) {
  MainWindow& w = d.w;
  w.machineCheckAction()->trigger();
  DoctorDialog* doctor = w.doctorDialog();
  if (!doctor || !waitFor([&] { return !doctor->running(); })) return "the machine check did not finish";
  d.shot("machine_check", doctor);
  doctor->close();

  install_translation(*QCoreApplication::instance(), "zh_CN");
  w.tabs()->setCurrentWidget(w.casesPane());
  d.shot("zh_CN");
  doctor->show();  // the machine check, retranslated
  d.shot("machine_check_zh_CN", doctor);
  doctor->close();
  install_translation(*QCoreApplication::instance(), "en");
  return nullptr;
}

}  // namespace

int runDemoScript(MainWindow& w, const QString& outDir, const QString& task) {
  QDir().mkpath(outDir);
  auto fail = [](const char* what) {
    std::cerr << "demo script: " << what << "\n";
    return 1;
  };
  w.askUnsaved = [](const QString&) { return QMessageBox::Discard; };
  EvalOptions o = w.evalOptions();
  o.warmup = 1;
  o.reps = 7;
  w.setEvalOptions(o);
  if (!w.selectTask(task)) return fail("no such task");
  const QString candidate = w.candidateBox()->count() > 1 ? w.candidateBox()->itemText(1) : w.candidateBox()->itemText(0);
  Demo d{w, outDir};
  const char* why = nullptr;
  if (qgetenv("KOPE_DEMO_STEPS") == "layout") {
    why = demoRun(d);
  } else {
    why = demoCorrectKernel(d, candidate);
    if (!why) why = demoBrokenKernels(d);
    if (!why) why = demoRun(d);
    if (!why) why = demoRunJobs(d, task);
    if (!why) why = demoHistory(d);
    if (!why) why = demoMachineCheckAndChinese(d);
  }
  if (!why) why = demoLayout(w, outDir);
  if (why) return fail(why);
  return 0;
}

}  // namespace kope::ui
