// The screenshot tour of Settings > LLM profiles (kope-workbench --demo-llm-settings DIR): opens the dialog over
// the settings file the environment names, tests each profile whose name starts with "test-" against its server,
// shows a profile with a problem, moves keys found in the file to the keychain, and saves a PNG of each step as
// DIR/settings_<step>.png. Used by scripts/screenshots-settings.sh under Xvfb.
#pragma once

#include <QString>

namespace kope::ui {

class MainWindow;

// Returns 0 when every step completed; otherwise prints the step that failed and returns 1.
int runLlmSettingsDemo(MainWindow& window, const QString& outDir);

}  // namespace kope::ui
