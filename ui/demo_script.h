// The screenshot tours (kope-workbench --demo-script DIR): drive the window through each pane on a real
// workspace and save a PNG of each to DIR. Used by scripts/screenshots.sh and scripts/screenshots-stream.sh
// under Xvfb.
#pragma once

#include <QString>

namespace kope::ui {

class MainWindow;

// Returns 0 when every step completed; otherwise prints the step that failed and returns 1. KOPE_DEMO_STEPS=layout
// runs only a short offline run and the layout tour (a quicker rerun of the layout shots).
int runDemoScript(MainWindow& window, const QString& outDir, const QString& task);

// The live reply tour (kope-workbench --demo-script DIR --demo-stream PROFILE): an LLM run of `task` and a second
// task at once with the named profile (scripts/screenshots-stream.sh points it at a slow scripted model), shot
// before the reply, mid-stream, with the reasoning open, for the second task, at 1024x700 and when done; then an
// attempt opened from the attempts table (diff, results, transcript), its Case in the graph and the comparison
// with the incumbent. Saves DIR/stream_NN_<step>.png; returns as runDemoScript does.
int runStreamDemo(MainWindow& window, const QString& outDir, const QString& task, const QString& profile);

// The layout tour (demo_layout.cpp): the docked panes at 1024x700 and 2560x1440, and in zh_CN; nullptr when done,
// else what went wrong.
const char* demoLayout(MainWindow& window, const QString& outDir);

}  // namespace kope::ui
