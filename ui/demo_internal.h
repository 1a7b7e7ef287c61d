// What the screenshot tours share (demo_script.cpp, demo_stream.cpp): waiting on the window while it works, and
// saving numbered shots.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QWidget>

#include <functional>
#include <iostream>

#include "main_window.h"

namespace kope::ui {

inline bool waitFor(const std::function<bool()>& done, int ms = 300000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  return true;
}

inline void settle(int rounds = 10) {
  for (int i = 0; i < rounds; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

// The demo in progress: the window, where its screenshots go, and what the window's signals counted. The
// counters live as long as the whole script, as the connections that count into them do.
struct Demo {
  MainWindow& w;
  QString outDir;
  int step = 0;
  int shown = 0, held = 0, finished = 0, compared = 0;
  QString prefix = {};  // before each file's number: "stream_" for the live reply tour

  // Saves the window (or `widget`) as <outDir>/<prefix><step>_<name>.png and prints its path.
  void shot(const QString& name, QWidget* widget = nullptr) {
    settle();
    const QString path =
        QString("%1/%2%3_%4.png").arg(outDir, prefix).arg(++step, 2, 10, QChar('0')).arg(name);
    (widget ? widget : static_cast<QWidget*>(&w))->grab().save(path);
    std::cout << path.toStdString() << "\n";
  }
};

}  // namespace kope::ui
