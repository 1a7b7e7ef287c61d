// kope-workbench: the desktop front of the workbench. The start itself (options, checks, dialogs, exit
// statuses) is ui/startup.cpp, where the tests reach it.
#include <QApplication>

#include "kope/base/version.h"
#include "startup.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Kope");
  QApplication::setApplicationName("Kope Workbench");
  QApplication::setApplicationVersion(QString::fromStdString(kope::version_string()));
  return kope::ui::runWorkbench(app, QApplication::arguments());
}
