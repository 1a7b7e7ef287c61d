// The screenshot tour (kope-workbench --demo-script DIR): drives the window through each pane on a real
// workspace and saves a PNG of each to DIR. Used by scripts/screenshots.sh under Xvfb.
#pragma once

#include <QString>

namespace kope::ui {

class MainWindow;

// Returns 0 when every step completed; otherwise prints the step that failed and returns 1. KOPE_DEMO_STEPS=layout
// runs only a short offline run and the layout tour (a quicker rerun of the layout shots).
int runDemoScript(MainWindow& window, const QString& outDir, const QString& task);

// The layout tour (demo_layout.cpp): the docked panes at 1024x700 and 2560x1440, and in zh_CN; nullptr when done,
// else what went wrong.
const char* demoLayout(MainWindow& window, const QString& outDir);

}  // namespace kope::ui
