#include "startup.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QStringDecoder>

#include <iostream>

#include "demo_script.h"
#include "demo_settings.h"
#include "editor/kernel_editor.h"
#include "i18n.h"
#include "kope/base/error.h"
#include "kope/base/text.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"

namespace kope::ui {

namespace {

// The context of the start's texts in the translations.
struct Startup {
  Q_DECLARE_TR_FUNCTIONS(Startup)
};

constexpr qint64 kMaxKernelBytes = qint64{4} << 20;  // far beyond any kernel; a log or an image is refused

// The offset of the first byte that cannot be in a kernel's source: NUL, or a byte that is not UTF-8.
std::optional<qint64> firstBinaryByte(const QByteArray& bytes) {
  const qint64 nul = bytes.indexOf('\0');
  if (nul >= 0) return nul;
  QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
  const QString text = utf8(bytes);
  if (!utf8.hasError()) return std::nullopt;
  const int bad = text.indexOf(QChar::ReplacementCharacter);
  return bad < 0 ? 0 : text.left(bad).toUtf8().size();
}

}  // namespace

KernelText readKernelFile(const QString& path) {
  KernelText out;
  const QFileInfo info(path);
  if (!info.exists()) {
    out.error = Startup::tr("The kernel file %1 does not exist.").arg(info.absoluteFilePath());
    return out;
  }
  if (info.isDir()) {
    out.error = Startup::tr("%1 is a folder, not a kernel file.").arg(info.absoluteFilePath());
    return out;
  }
  if (info.size() > kMaxKernelBytes) {
    out.error = Startup::tr("%1 is %2 MiB: too large for a kernel's source.").arg(info.absoluteFilePath()).arg(info.size() >> 20);
    return out;
  }
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    out.error = Startup::tr("Cannot read the kernel file %1: %2").arg(info.absoluteFilePath(), f.errorString());
    return out;
  }
  const QByteArray bytes = f.readAll();
  if (auto at = firstBinaryByte(bytes)) {
    out.error = Startup::tr("%1 is not a text file (byte %2 is not UTF-8 text): a kernel is C++ source.")
                    .arg(info.absoluteFilePath())
                    .arg(*at);
    return out;
  }
  out.text = QString::fromUtf8(bytes);
  return out;
}

int reportStartupFailure(const StartupFailure& f, QWidget* parent) {
  std::cerr << "kope-workbench: " << kope::escape_terminal(f.message.toStdString()) << "\n";
  QMessageBox box(QMessageBox::Critical, Startup::tr("Kope Workbench cannot start"), f.message, QMessageBox::Ok, parent);
  box.setTextFormat(Qt::PlainText);  // paths and the OS's words: never markup
  box.setObjectName("startup-failure");
  box.exec();
  return f.status;
}

namespace {

// The options of kope-workbench; the hidden ones drive the window for the screenshot scripts.
struct Options {
  QCommandLineParser cli;
  QCommandLineOption help, version;
  QCommandLineOption workspace{"workspace", "Where runs are recorded.", "DIR"};
  QCommandLineOption suite{"suite", "Task JSON files below DIR instead of the embedded suite.", "DIR"};
  QCommandLineOption lang{"lang", "Interface language, e.g. zh_CN (default: the system's).", "LOCALE"};
  QCommandLineOption task{"task", "The task to select at start.", "NAME"};
  QCommandLineOption kernel{"kernel", "A kernel file to open at start.", "FILE"};
  QCommandLineOption study{"study", "A `kope study` folder to open in the Study tab at start.", "DIR"};
  QCommandLineOption demo{"demo-script", "Drive every pane and save a PNG of each to DIR, then quit.", "DIR"};
  QCommandLineOption demo_stream{"demo-stream", "With --demo-script: the live reply tour with LLM profile NAME.", "NAME"};
  QCommandLineOption demo_settings{"demo-llm-settings", "Drive Settings > LLM profiles and save PNGs to DIR, then quit.", "DIR"};

  Options() : help(cli.addHelpOption()), version(cli.addVersionOption()) {
    cli.setApplicationDescription("Watch and steer kernel optimisation on the CPU device.");
    for (QCommandLineOption* o : {&demo, &demo_stream, &demo_settings}) o->setFlags(QCommandLineOption::HiddenFromHelp);
    cli.addOptions({workspace, suite, lang, task, kernel, study, demo, demo_stream, demo_settings});
  }
};

// The window over the checked inputs, shown; then the event loop, or one of the hidden demo tours.
int openWindow(QApplication& app, const Options& o, Suite suite, const std::filesystem::path& ws,
               const KernelText& kernel_text) {
  MainWindow w(std::move(suite), ws);
  if (o.cli.isSet(o.task)) w.selectTask(o.cli.value(o.task));
  if (o.cli.isSet(o.kernel)) w.loadKernelText(kernel_text.text, QFileInfo(o.cli.value(o.kernel)).absoluteFilePath());
  if (o.cli.isSet(o.study) && !w.openStudy(o.cli.value(o.study))) return 2;  // its dialog said what and where
  w.show();
  if (o.cli.isSet(o.demo_settings)) return runLlmSettingsDemo(w, o.cli.value(o.demo_settings));
  if (o.cli.isSet(o.demo)) {
    const QString demo_task = o.cli.isSet(o.task) ? o.cli.value(o.task) : "gelu";
    const int rc = o.cli.isSet(o.demo_stream) ? runStreamDemo(w, o.cli.value(o.demo), demo_task, o.cli.value(o.demo_stream))
                                              : runDemoScript(w, o.cli.value(o.demo), demo_task);
    w.editor()->setModified(false);
    return rc;
  }
  return app.exec();
}

}  // namespace

int runWorkbench(QApplication& app, const QStringList& args) {
  Options o;
  QCommandLineParser& cli = o.cli;
  const bool parsed = cli.parse(args);
  install_translation(app, cli.isSet(o.lang) ? cli.value(o.lang) : QLocale::system().name());
  if (!parsed) return reportStartupFailure({2, Startup::tr("Bad usage: %1 (see kope-workbench --help)").arg(cli.errorText())});
  if (cli.isSet(o.help)) cli.showHelp(0);
  if (cli.isSet(o.version)) cli.showVersion();
  if (!cli.positionalArguments().isEmpty())
    return reportStartupFailure({2, Startup::tr("Bad usage: unexpected argument \"%1\" (see kope-workbench --help)").arg(cli.positionalArguments().front())});

  // The kernel first: the cheapest check, and nothing is created for a start that cannot happen.
  KernelText kernel_text;
  if (cli.isSet(o.kernel)) {
    kernel_text = readKernelFile(cli.value(o.kernel));
    if (!kernel_text.error.isEmpty()) return reportStartupFailure({2, kernel_text.error});
  }
  try {
    Suite s = cli.isSet(o.suite) ? Suite::from_dir(cli.value(o.suite).toStdString()) : Suite::embedded();
    if (cli.isSet(o.task) && !s.find(cli.value(o.task).toStdString()))
      return reportStartupFailure({2, Startup::tr("No task named \"%1\" in the suite.").arg(cli.value(o.task))});
    const std::filesystem::path ws = cli.isSet(o.workspace) ? workspace::Workspace::absolute_dir(cli.value(o.workspace).toStdString())
                                                            : workspace::Workspace::default_dir();
    workspace::Workspace::open(ws);  // made or migrated here, so a workspace that cannot be used is said now
    return openWindow(app, o, std::move(s), ws, kernel_text);
  } catch (const EnvError& e) {
    return reportStartupFailure({4, QString::fromUtf8(e.what())});
  } catch (const Error& e) {
    return reportStartupFailure({2, QString::fromUtf8(e.what())});
  }
}

}  // namespace kope::ui
