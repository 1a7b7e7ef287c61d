// The engine's status words as the window shows them: translated text and a background colour.
#pragma once

#include <QColor>
#include <QString>

#include <string>

namespace kope::ui {

// "passed" -> "passed" / "通过"; an unknown word is shown as it is.
QString statusText(const std::string& status);
QColor statusColor(const std::string& status);
// Attempt phases: proposing, held, compiling, testing, timing, paused.
QString phaseText(const std::string& phase);

// A tooltip showing `text` as it is: Qt renders a tooltip as rich text whenever it looks like markup, so text
// from a kernel, a model or an import that does is escaped (and kept in one paragraph with its line breaks).
QString plainToolTip(const QString& text);

}  // namespace kope::ui
