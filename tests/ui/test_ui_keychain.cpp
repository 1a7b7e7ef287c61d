// The LLM profiles' keys in a real system keychain: ctest runs this program under its own D-Bus session with
// gnome-keyring-daemon unlocked (tests/support/with_secret_service.sh), so QtKeychain's store, read and delete
// reach a real Secret Service. The key stored from the dialog is the one a connection test and a run send; a key
// found in the settings file moves to the keychain and leaves the file.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>

#include <cstdlib>
#include <functional>

#include "kope/base/fsutil.h"
#include "kope/llm/config.h"
#include "kope/model/suite.h"
#include "llm/key_store.h"
#include "llm/llm_settings_dialog.h"
#include "main_window.h"
#include "scripted_llm_server.h"
#include "test_support.h"
#include "views/run_controller.h"

using namespace kope;
using namespace kope::ui;

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 60000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

// One keychain call, waited for.
KeyResult call(const std::function<void(QObject*, KeyStore::Done)>& f) {
  QObject context;
  std::optional<KeyResult> out;
  f(&context, [&](const KeyResult& r) { out = r; });
  EXPECT_TRUE(waitFor([&] { return out.has_value(); })) << "the keychain did not answer";
  return out.value_or(KeyResult{});
}

KeyResult readKey(const QString& profile) {
  return call([&](QObject* c, KeyStore::Done d) { KeyStore::read(profile, c, d); });
}

class KeychainTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::filesystem::path file = dir / "cfg" / "kope" / "llm.json";
  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    setenv("XDG_CONFIG_HOME", (dir / "cfg").c_str(), 1);
    unsetenv("KOPE_TEST_KC_VAR");
  }
  void writeProfile(const std::string& url, const std::string& extra = "") {
    test::write_text(file, R"({"profiles": {"kc": {"provider": "openai", "base_url": ")" + url +
                               R"(/v1", "model": "m", "api_key_env": "KOPE_TEST_KC_VAR")" + extra + "}}}");
  }
};

}  // namespace

TEST_F(KeychainTest, StoreReadAndDeleteReachARealSecretService) {
  const KeyResult w = call([](QObject* c, KeyStore::Done d) { KeyStore::write("rt", "sk-round-trip-1", c, d); });
  ASSERT_TRUE(w.ok) << w.error.toStdString();
  const KeyResult r = readKey("rt");
  ASSERT_TRUE(r.ok) << r.error.toStdString();
  EXPECT_EQ(r.key, "sk-round-trip-1");
  EXPECT_TRUE(readKey("another").missing);
  const KeyResult del = call([](QObject* c, KeyStore::Done d) { KeyStore::remove("rt", c, d); });
  EXPECT_TRUE(del.ok) << del.error.toStdString();
  EXPECT_TRUE(readKey("rt").missing);
}

// Stored from the dialog, the key is what the connection test sends; it is in no file.
TEST_F(KeychainTest, TheDialogStoresTheKeyAndTheTestSendsIt) {
  test::ScriptedServer srv({test::sse_response({test::openai_stream({"ok"})})});
  writeProfile(srv.url());  // a local server needs no key, but the keychain's, when there is one, is sent
  LlmSettingsDialog d(file);
  d.askKey = [](const QString&) { return std::optional<QString>("sk-kc-dialog-9"); };
  d.show();
  QSignalSpy stored(&d, &LlmSettingsDialog::keyStored);
  QSignalSpy status(&d, &LlmSettingsDialog::keyStatusShown);
  d.storeKey();
  ASSERT_TRUE(waitFor([&] { return stored.count() > 0; }));
  ASSERT_TRUE(stored.at(0).at(0).toBool()) << d.keyStatus()->text().toStdString();
  ASSERT_TRUE(waitFor([&] { return d.keyStatus()->text().startsWith("Stored in"); })) << d.keyStatus()->text().toStdString();
  QSignalSpy tested(&d, &LlmSettingsDialog::testFinished);
  d.testConnection();
  ASSERT_TRUE(waitFor([&] { return tested.count() > 0; }));
  EXPECT_TRUE(tested.at(0).at(0).toBool()) << d.testResult()->text().toStdString();
  ASSERT_EQ(srv.requests().size(), 1u);
  EXPECT_EQ(srv.requests()[0].headers.at("authorization"), "Bearer sk-kc-dialog-9");
  EXPECT_EQ(read_file(file).find("sk-kc-dialog-9"), std::string::npos);
  d.removeKey();
  ASSERT_TRUE(waitFor([&] { return stored.count() > 1; }));
  EXPECT_TRUE(readKey("kc").missing);
}

// A key written into the file by hand goes to the keychain, then out of the file; the command line reads the
// file again.
TEST_F(KeychainTest, AKeyInTheFileMovesToTheKeychain) {
  writeProfile("http://127.0.0.1:9", R"(, "x-note": "kept", "api_key": "sk-was-in-file")");
  EXPECT_THROW(llm::load_profiles(file), Error);
  LlmSettingsDialog d(file);
  d.show();
  ASSERT_TRUE(d.keyBanner()->isVisible());
  QSignalSpy stored(&d, &LlmSettingsDialog::keyStored);
  d.moveKeysButton()->click();
  ASSERT_TRUE(waitFor([&] { return stored.count() > 0; }));
  ASSERT_TRUE(stored.at(0).at(0).toBool());
  const std::string text = read_file(file);
  EXPECT_EQ(text.find("sk-was-in-file"), std::string::npos) << text;
  EXPECT_NE(text.find("x-note"), std::string::npos);  // the rest of the file stays
  EXPECT_FALSE(d.keyBanner()->isVisible());
  EXPECT_FALSE(d.isDirty());  // saved as Save saves: the document and the file agree
  const KeyResult r = readKey("kc");
  ASSERT_TRUE(r.ok) << r.error.toStdString();
  EXPECT_EQ(r.key, "sk-was-in-file");
  call([](QObject* c, KeyStore::Done done) { KeyStore::remove("kc", c, done); });
}

// The window's run reads the profile's key from the keychain and hands it to the core with the profile: the
// model's server sees it, with no variable set.
TEST_F(KeychainTest, ARunFromTheWindowSendsTheKeychainsKey) {
  test::ScriptedServer srv({test::sse_response({test::openai_stream({"No kernel this time."})})});
  writeProfile(srv.url());
  ASSERT_TRUE(call([](QObject* c, KeyStore::Done d) { KeyStore::write("kc", "sk-kc-run-3", c, d); }).ok);
  MainWindow w(Suite::embedded(), dir / "ws");
  w.show();
  ASSERT_TRUE(w.selectTask("gelu"));
  RunController* run = w.runController();
  run->reloadProfiles();
  run->policyBox()->setEditText("kc");
  run->memoryBox()->setCurrentText("off");
  run->maxAttempts()->setValue(1);
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }, 120000)) << run->phaseLabel()->text().toStdString();
  ASSERT_EQ(srv.requests().size(), 1u) << run->phaseLabel()->text().toStdString();
  EXPECT_EQ(srv.requests()[0].headers.at("authorization"), "Bearer sk-kc-run-3");
  call([](QObject* c, KeyStore::Done d) { KeyStore::remove("kc", c, d); });
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  if (!std::getenv("DBUS_SESSION_BUS_ADDRESS")) {
    std::fprintf(stderr, "test_ui_keychain: no D-Bus session: run it as ctest does, under "
                         "dbus-run-session -- tests/support/with_secret_service.sh\n");
    return 4;
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-keychain-test");
  qRegisterMetaType<quint64>("quint64");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
