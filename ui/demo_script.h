// The screenshot tour (kope-workbench --demo-script DIR): drives the window through each pane on a real
// workspace and saves a PNG of each to DIR. Used by scripts/screenshots.sh under Xvfb.
#pragma once

#include <QString>

namespace kope::ui {

class MainWindow;

// Returns 0 when every step completed; otherwise prints the step that failed and returns 1.
int runDemoScript(MainWindow& window, const QString& outDir, const QString& task);

}  // namespace kope::ui
