// Loads the workbench's translation for a locale (English is the source language and needs none).
#pragma once

#include <QString>

class QCoreApplication;

namespace kope::ui {

// "zh_CN" or a system locale name; returns false when kope has no translation for it.
bool install_translation(QCoreApplication& app, const QString& locale);

}  // namespace kope::ui
