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
#include "doctor/doctor_dialog.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "i18n.h"
#include "main_window.h"
#include "models/models.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/compile_pane.h"
#include "views/history_pane.h"
#include "views/profile_pane.h"
#include "views/results_header.h"
#include "views/run_controller.h"

namespace kope::ui {

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 300000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  return true;
}

void settle() {
  for (int i = 0; i < 10; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace

int runDemoScript(MainWindow& w, const QString& outDir, const QString& task) {
  QDir().mkpath(outDir);
  int step = 0;
  auto shot = [&](const QString& name, QWidget* widget = nullptr) {
    settle();
    const QString path = QString("%1/%2_%3.png").arg(outDir).arg(++step, 2, 10, QChar('0')).arg(name);
    (widget ? widget : static_cast<QWidget*>(&w))->grab().save(path);
    std::cout << path.toStdString() << "\n";
  };
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

  // 1. a correct kernel: cases, profile, chart, compile output.
  int shown = 0;
  auto shown_c = QObject::connect(&w, &MainWindow::reportShown, [&shown] { ++shown; });
  (void)shown_c;
  if (!w.loadCandidate(candidate)) return fail("cannot load the shipped kernel");
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return shown > 0; })) return fail("the evaluation did not finish");
  w.tabs()->setCurrentWidget(w.casesPane());
  shot("cases");
  w.tabs()->setCurrentWidget(w.profilePane());
  w.profilePane()->selectCase(w.casesPane()->model()->rowCount() - 1);
  shot("profile");
  w.tabs()->setCurrentWidget(w.compilePane());
  shot("compile_ok");

  // 1b. a variant of it (another version to compare with later).
  QString variant = w.editor()->text();
  if (variant.contains("-ffast-math")) variant.replace(" -ffast-math", "");
  else variant.prepend("// variant: the same kernel, recorded as another version\n");
  w.editor()->setText(variant);
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return shown > 1; })) return fail("the variant's evaluation did not finish");
  w.tabs()->setCurrentWidget(w.chart());  // redrawn for a second report: old axes gone, new ones in place
  shot("chart");

  // 2. a kernel with a warning and an error: markers in the margin and squiggles in the text.
  w.editor()->setText(
      "// kope:cxxflags -O2 -Wall\n#include \"kope_kernel.h\"\n\nint kope_kernel(const kope_args* a) {\n"
      "  int unused = 3;\n  const float* x = (const float*)a->inputs[0].data;\n  return no_such_thing(x);\n}\n");
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return shown > 2; })) return fail("the compile-error evaluation did not finish");
  shot("compile_error");

  // 3. a wrong kernel: the failing case and its full message.
  w.editor()->setText(
      "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
      "  const float* x = (const float*)a->inputs[0].data; float* y = (float*)a->outputs[0].data;\n"
      "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = x[i];\n  return 0;\n}\n");
  w.evaluateAction()->trigger();
  if (!waitFor([&] { return shown > 3; })) return fail("the wrong-kernel evaluation did not finish");
  w.tabs()->setCurrentWidget(w.casesPane());
  shot("case_detail");

  // 4. stale results: the editor changed after the evaluation.
  w.editor()->append("// an edit after the evaluation\n");
  shot("stale_header");

  // 5. the run controller: hold the first candidate, approve it, let the run finish.
  RunController* run = w.runController();
  run->holdBox()->setChecked(true);
  run->maxAttempts()->setValue(3);
  int held = 0;
  auto held_c = QObject::connect(run, &RunController::candidateHeld, [&held] { ++held; });
  (void)held_c;
  int finished = 0;
  auto finished_c = QObject::connect(run, &RunController::runFinished, [&finished] { ++finished; });
  (void)finished_c;
  run->startButton()->click();
  if (!waitFor([&] { return held > 0; })) return fail("no candidate was held");
  settle();
  shot("run_held");
  run->hintEdit()->setText("keep the erf polynomial, vectorise the tail");
  run->hintButton()->click();
  run->approveButton()->click();
  run->holdBox()->setChecked(false);
  waitFor([&] { return run->attempts()->rowCount() > 0; });
  shot("run_live");
  if (!waitFor([&] { return finished > 0; })) return fail("the run did not finish");
  shot("run_done");

  // 6. history and the side-by-side comparison of two versions.
  w.tabs()->setCurrentWidget(w.historyPane());
  if (!waitFor([&] { return w.historyPane()->model()->rowCount() >= 3; })) return fail("no history");
  shot("history");
  // Two passed evaluations of different sources.
  QList<int> rows;
  HistoryModel* hm = w.historyPane()->model();
  for (int r = 0; r < hm->rowCount() && rows.size() < 2; ++r)
    if (hm->at(r).status == "passed" && (rows.isEmpty() || hm->at(rows[0]).kernel_sha256 != hm->at(r).kernel_sha256))
      rows << r;
  if (rows.size() < 2) return fail("fewer than two passed evaluations to compare");
  w.historyPane()->select(rows);
  int compared = 0;
  auto compared_c = QObject::connect(&w, &MainWindow::comparisonShown, [&compared] { ++compared; });
  (void)compared_c;
  w.historyPane()->compareButton()->click();
  if (!waitFor([&] { return compared > 0; })) return fail("no comparison");
  shot("compare");
  shot("compare_pane", w.comparePane());

  // 7. Help > Machine check: the `kope doctor` checks of this machine.
  w.machineCheckAction()->trigger();
  DoctorDialog* doctor = w.doctorDialog();
  if (!doctor || !waitFor([&] { return !doctor->running(); })) return fail("the machine check did not finish");
  shot("machine_check", doctor);
  doctor->close();

  // 8. the interface in Simplified Chinese.
  install_translation(*QCoreApplication::instance(), "zh_CN");
  w.tabs()->setCurrentWidget(w.casesPane());
  shot("zh_CN");
  doctor->show();  // the machine check, retranslated
  shot("machine_check_zh_CN", doctor);
  doctor->close();
  install_translation(*QCoreApplication::instance(), "en");
  return 0;
}

}  // namespace kope::ui
