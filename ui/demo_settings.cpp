#include "demo_settings.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>

#include <functional>
#include <optional>
#include <iostream>

#include "llm/llm_settings_dialog.h"
#include "llm/profile_form.h"
#include "demo_internal.h"
#include "main_window.h"

namespace kope::ui {

namespace {

struct Tour {
  QString outDir;
  LlmSettingsDialog* d = nullptr;
  void shot(const QString& name, QWidget* widget) {
    settle();
    const QString path = QString("%1/settings_%2.png").arg(outDir, name);
    widget->grab().save(path);
    std::cout << path.toStdString() << "\n";
  }
  bool test(const QString& profile, bool expectOk) {
    d->selectProfile(profile);
    std::optional<bool> ok;
    auto c = QObject::connect(d, &LlmSettingsDialog::testFinished, [&](bool r) { ok = r; });
    d->testConnection();
    const bool answered = waitFor([&] { return ok.has_value(); });
    QObject::disconnect(c);
    return answered && *ok == expectOk;
  }
};

}  // namespace

int runLlmSettingsDemo(MainWindow& w, const QString& outDir) {
  auto fail = [](const char* what) {
    std::cerr << "kope-workbench --demo-llm-settings: " << what << "\n";
    return 1;
  };
  w.resize(1024, 700);  // the smallest window the workbench is laid out for
  settle();
  w.showLlmSettings();
  Tour t{outDir, w.llmSettingsDialog()};
  if (!t.d) return fail("the dialog did not open");
  t.d->resize(1000, 660);  // within a 1024x700 screen, title bar included
  t.d->confirmDelete = [](const QString&) { return true; };  // a tour asks nobody
  int status = 0;
  QObject::connect(t.d, &LlmSettingsDialog::keyStatusShown, t.d, [&status] { ++status; });
  waitFor([&] { return status > 0; }, 20000);
  t.shot("profiles", t.d);
  if (!t.test("test-local", true)) return fail("the connection test of test-local did not succeed");
  t.shot("test_ok", t.d);
  if (!t.test("test-refused", false)) return fail("the connection test of test-refused did not fail");
  t.shot("test_401", t.d);
  t.d->addProfile();
  t.d->form()->baseUrlEdit()->setText("localhost:8000/v1");
  emit t.d->form()->baseUrlEdit()->textEdited("localhost:8000/v1");
  t.shot("problems", t.d);
  t.d->deleteProfile();
  if (t.d->keyBanner()->isVisible()) {
    std::optional<bool> stored;
    QObject::connect(t.d, &LlmSettingsDialog::keyStored, t.d, [&stored](bool ok) { stored = ok; });
    t.d->moveKeysToKeychain();
    if (!waitFor([&] { return stored.has_value(); }, 30000)) return fail("the keychain did not answer");
    if (!*stored) {
      t.shot("keys_not_moved", t.d);
      return fail("the keys were not moved to the keychain");
    }
    const int before = status;
    waitFor([&] { return status > before; }, 20000);
    t.shot("keys_moved", t.d);
  }
  t.d->askUnsaved = [](const QString&) { return QMessageBox::Discard; };
  t.d->close();
  settle();
  t.shot("window", &w);
  return 0;
}

}  // namespace kope::ui
