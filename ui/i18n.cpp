#include "i18n.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTranslator>

namespace kope::ui {

bool install_translation(QCoreApplication& app, const QString& locale) {
  static QTranslator* current = nullptr;
  if (current) {
    app.removeTranslator(current);
    delete current;
    current = nullptr;
  }
  auto* t = new QTranslator(&app);
  if (!t->load(QLocale(locale), "kope", "_", ":/i18n")) {
    delete t;
    return false;
  }
  app.installTranslator(t);
  current = t;
  return true;
}

}  // namespace kope::ui
