// kope-workbench's start: the command line, then every input it names checked before the window opens (the
// suite folder, the workspace, the task, the kernel file); what is wrong gets a dialog that says what and where,
// also printed on stderr, and the exit status the README gives `kope` (2 bad usage or input, 4 environment).
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class QApplication;
class QWidget;

namespace kope::ui {

// A kernel file's text, or why it cannot be one: missing, a folder, unreadable, binary (a NUL byte or bytes
// that are not UTF-8, with the offset), or too large. The reason names the file.
struct KernelText {
  QString text;
  QString error;  // empty: `text` is the file's
};
KernelText readKernelFile(const QString& path);

struct StartupFailure {
  int status = 2;  // 2: bad usage or bad input; 4: the environment failed
  QString message;
};

// Shows `f` in a dialog (modal, plain text) and on stderr; returns its exit status.
int reportStartupFailure(const StartupFailure& f, QWidget* parent = nullptr);

// The whole start: parses `args` (argv, program name first), checks, opens the window and runs the event loop
// (or the hidden --demo-script). Returns the process's exit status.
int runWorkbench(QApplication& app, const QStringList& args);

}  // namespace kope::ui
