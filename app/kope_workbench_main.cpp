// kope-workbench: the desktop front of the workbench.
#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>

#include <iostream>

#include "demo_script.h"
#include "i18n.h"
#include "kope/base/version.h"
#include "kope/base/error.h"
#include "kope/model/suite.h"
#include "kope/base/text.h"
#include "kope/workspace/workspace.h"
#include "editor/kernel_editor.h"
#include "main_window.h"

using namespace kope::workspace;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Kope");
  QApplication::setApplicationName("Kope Workbench");
  QApplication::setApplicationVersion(QString::fromStdString(kope::version_string()));

  QCommandLineParser cli;
  cli.setApplicationDescription("Watch and steer kernel optimisation on the CPU device.");
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption workspace("workspace", "Where runs are recorded.", "DIR");
  QCommandLineOption suite("suite", "Task JSON files below DIR instead of the embedded suite.", "DIR");
  QCommandLineOption lang("lang", "Interface language, e.g. zh_CN (default: the system's).", "LOCALE");
  QCommandLineOption task("task", "The task to select at start.", "NAME");
  QCommandLineOption kernel("kernel", "A kernel file to open at start.", "FILE");
  QCommandLineOption study("study", "A `kope study` folder to open in the Study tab at start.", "DIR");
  QCommandLineOption demo("demo-script", "Drive every pane and save a PNG of each to DIR, then quit.", "DIR");
  demo.setFlags(QCommandLineOption::HiddenFromHelp);
  QCommandLineOption demo_stream("demo-stream", "With --demo-script: the live reply tour with LLM profile NAME.", "NAME");
  demo_stream.setFlags(QCommandLineOption::HiddenFromHelp);
  cli.addOptions({workspace, suite, lang, task, kernel, study, demo, demo_stream});
  cli.process(app);

  kope::ui::install_translation(app, cli.isSet(lang) ? cli.value(lang) : QLocale::system().name());
  try {
    kope::Suite s = cli.isSet(suite) ? kope::Suite::from_dir(cli.value(suite).toStdString()) : kope::Suite::embedded();
    std::filesystem::path ws = cli.isSet(workspace) ? kope::workspace::Workspace::absolute_dir(cli.value(workspace).toStdString())
                                                    : kope::workspace::Workspace::default_dir();
    kope::ui::MainWindow w(std::move(s), ws);
    if (cli.isSet(task) && !w.selectTask(cli.value(task))) {
      std::cerr << "kope-workbench: no task named \"" << kope::escape_terminal(cli.value(task).toStdString()) << "\"\n";
      return 2;
    }
    if (cli.isSet(kernel) && !w.loadKernelFile(cli.value(kernel))) return 2;
    if (cli.isSet(study) && !w.openStudy(cli.value(study))) return 2;  // the dialog said what and where
    w.show();
    if (cli.isSet(demo)) {
      const QString demo_task = cli.isSet(task) ? cli.value(task) : "gelu";
      const int rc = cli.isSet(demo_stream)
                         ? kope::ui::runStreamDemo(w, cli.value(demo), demo_task, cli.value(demo_stream))
                         : kope::ui::runDemoScript(w, cli.value(demo), demo_task);
      w.editor()->setModified(false);
      return rc;
    }
    return app.exec();
  } catch (const kope::Error& e) {
    std::cerr << "kope-workbench: " << kope::escape_terminal(e.what()) << "\n";
    return 2;
  }
}
