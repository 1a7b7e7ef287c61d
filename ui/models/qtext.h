// The engine's text (UTF-8 std::string) as the window's (QString).
#pragma once

#include <QString>

#include <string>

namespace kope::ui {

inline QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace kope::ui
