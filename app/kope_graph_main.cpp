// kope-graph: the Experience Graph browser on its own, for a workspace (the workbench docks the same widget).
//   kope-graph [--workspace DIR] [--task NAME] [--select CASE] [--screenshot FILE.png [--linger S]] [--size WxH]
#include <QApplication>
#include <QCommandLineParser>
#include <QMainWindow>
#include <QStatusBar>
#include <QTimer>

#include <iostream>

#include "graph_widget.h"
#include "kope/base/text.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Kope");
  QApplication::setApplicationName("Kope Experience Graph");
  QCommandLineParser cli;
  cli.setApplicationDescription("Browse and prune the Experience Graph Memory of a workspace.");
  cli.addHelpOption();
  QCommandLineOption workspace("workspace", "The workspace (default: kope's).", "DIR");
  QCommandLineOption task("task", "Show only this task.", "NAME");
  QCommandLineOption select("select", "Select this Case at start.", "ID");
  QCommandLineOption shot("screenshot", "Grab the window to FILE once laid out, then quit.", "FILE");
  QCommandLineOption size("size", "Window size, e.g. 1600x1000.", "WxH", "1500x950");
  QCommandLineOption linger("linger", "With --screenshot: keep the window up this long first (for an X grab).", "SECONDS", "0.5");
  cli.addOptions({workspace, task, select, shot, size, linger});
  cli.process(app);
  try {
    const std::filesystem::path ws = cli.isSet(workspace) ? std::filesystem::path(cli.value(workspace).toStdString())
                                                          : kope::workspace::Workspace::default_dir();
    QMainWindow win;
    auto* g = new kope::graph::GraphWidget(&win);
    win.setCentralWidget(g);
    QObject::connect(g, &kope::graph::GraphWidget::statusMessage, win.statusBar(), [&](const QString& m) {
      win.statusBar()->showMessage(m, 5000);
    });
    // Standalone: the signals meant for the workbench are shown in the status bar.
    QObject::connect(g, &kope::graph::GraphWidget::compare, &win, [&](qint64 a, qint64 b) {
      win.statusBar()->showMessage(QObject::tr("compare evaluations %1 and %2: open them in the workbench").arg(a).arg(b), 5000);
    });
    QObject::connect(g, &kope::graph::GraphWidget::forkFrom, &win, [&](qint64 e) {
      win.statusBar()->showMessage(QObject::tr("fork from evaluation %1: `kope run --from %1` or the workbench").arg(e), 5000);
    });
    g->openWorkspace(ws);
    const QStringList wh = cli.value(size).split('x');
    win.resize(wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1500, wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 950);
    win.setWindowTitle(QObject::tr("Kope — Experience Graph — %1").arg(QString::fromStdString(ws.string())));
    win.show();
    if (!g->waitForLayout(120000)) std::cerr << "kope-graph: the layout did not finish in time\n";
    if (cli.isSet(task)) {
      kope::graph::GraphFilter f;
      f.task = cli.value(task);
      g->setFilter(f);
    }
    g->view()->fit();
    if (cli.isSet(select)) g->selectCase(cli.value(select).toLongLong(), false);
    if (cli.isSet(shot)) {
      QTimer::singleShot(static_cast<int>(cli.value(linger).toDouble() * 1000), &app, [&] {
        const bool ok = win.grab().save(cli.value(shot));
        std::cout << (ok ? "wrote " : "could not write ") << cli.value(shot).toStdString() << "\n";
        app.exit(ok ? 0 : 3);
      });
    }
    return app.exec();
  } catch (const std::exception& e) {
    std::cerr << "kope-graph: " << kope::escape_terminal(e.what()) << "\n";
    return 4;
  }
}
