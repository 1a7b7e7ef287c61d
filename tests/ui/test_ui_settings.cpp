// Settings > LLM profiles under the offscreen platform, on a real settings file and a real HTTP server on
// 127.0.0.1 (tests/support ScriptedServer): the file round-trips with what kope does not know, problems name the
// field and stop the save, and "Test connection" says who answered, how fast and for how many tokens, or exactly
// what failed, while the window goes on. No Secret Service runs here: the keys come from the environment (the
// keychain's own tests run against a real one: test_ui_keychain).
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTimer>

#include <cstdlib>
#include <functional>

#include <nlohmann/json.hpp>

#include "kope/base/fsutil.h"
#include "kope/llm/config.h"
#include "llm/llm_settings_dialog.h"
#include "llm/profile_form.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope;
using namespace kope::ui;
using nlohmann::ordered_json;

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 30000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

// Types into a field as a person would (textEdited fires), replacing what it held.
void typeInto(QLineEdit* e, const QString& text) {
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
}

class LlmSettingsTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::filesystem::path file = dir / "cfg" / "kope" / "llm.json";

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  }
  // A dialog over `file`, shown, never asking anything (tests answer for the person).
  std::unique_ptr<LlmSettingsDialog> open() {
    auto d = std::make_unique<LlmSettingsDialog>(file);
    d->confirmDelete = [](const QString&) { return true; };
    d->askUnsaved = [](const QString&) { return QMessageBox::Discard; };
    d->show();
    return d;
  }
  // A profile of `file` pointing at `url`, its key read from `var`.
  void writeProfile(const std::string& url, const std::string& var, const std::string& extra = "") {
    test::write_text(file, R"({"profiles": {"srv": {"provider": "openai", "base_url": ")" + url +
                               R"(/v1", "model": "m", "api_key_env": ")" + var + "\"" + extra + "}}}");
  }
};

}  // namespace

TEST_F(LlmSettingsTest, AnEditKeepsWhatTheFileHoldsThatKopeDoesNotKnow) {
  test::write_text(file, R"({
    "comment": {"who": "ops", "why": ["keep", 1, null]},
    "profiles": {
      "zeta": {"model": "z-1", "provider": "openai", "base_url": "http://localhost:9/v1"},
      "alpha": {"provider": "anthropic", "model": "claude-x", "price_in_per_mtok": 3, "x-team-note": "billing 7"}},
    "default": "alpha", "version": 3})");
  const ordered_json before = ordered_json::parse(read_file(file));
  auto d = open();
  ASSERT_EQ(d->profileList()->count(), 2);
  EXPECT_EQ(d->profileList()->item(0)->data(Qt::UserRole).toString(), "zeta");  // file order
  EXPECT_TRUE(d->profileList()->item(1)->text().contains("alpha"));
  EXPECT_NE(d->profileList()->item(1)->text(), "alpha");  // marked as the default
  // The unknown field is said, kept, and stops nothing.
  EXPECT_TRUE(d->problemsLabel()->text().contains("x-team-note")) << d->problemsLabel()->text().toStdString();
  d->selectProfile("zeta");
  EXPECT_EQ(d->form()->modelEdit()->text(), "z-1");
  typeInto(d->form()->modelEdit(), "z-2");
  d->form()->maxInFlight()->setValue(3);
  d->form()->priceOut()->setValue(1.25);
  ASSERT_TRUE(d->isDirty());
  ASSERT_TRUE(d->saveButton()->isEnabled()) << d->problemsLabel()->text().toStdString();
  ASSERT_TRUE(d->save());
  ordered_json after = ordered_json::parse(read_file(file));
  EXPECT_EQ(after["comment"], before["comment"]);
  EXPECT_EQ(after["version"], 3);
  EXPECT_EQ(after["default"], "alpha");
  EXPECT_EQ(after["profiles"]["alpha"], before["profiles"]["alpha"]);  // untouched, its note with it
  EXPECT_EQ(after["profiles"]["zeta"]["model"], "z-2");
  EXPECT_EQ(after["profiles"]["zeta"]["max_in_flight"], 3);
  EXPECT_EQ(after["profiles"]["zeta"]["price_out_per_mtok"], 1.25);
  after["profiles"]["zeta"] = before["profiles"]["zeta"];
  EXPECT_EQ(after, before);  // nothing else changed
}

TEST_F(LlmSettingsTest, ProblemsNameTheFieldAndStopTheSave) {
  auto d = open();  // no file yet
  EXPECT_EQ(d->profileList()->count(), 0);
  EXPECT_TRUE(d->fileLabel()->text().contains(QString::fromStdString(file.string())));
  d->addProfile();
  ASSERT_EQ(d->profileList()->count(), 1);
  EXPECT_TRUE(d->problemsLabel()->text().contains("model")) << d->problemsLabel()->text().toStdString();
  EXPECT_TRUE(d->form()->labelOf("model")->styleSheet().contains("b00020"));
  EXPECT_FALSE(d->saveButton()->isEnabled());
  typeInto(d->form()->modelEdit(), "qwen");
  typeInto(d->form()->baseUrlEdit(), "localhost:8000/v1");
  EXPECT_TRUE(d->problemsLabel()->text().contains("base_url")) << d->problemsLabel()->text().toStdString();
  EXPECT_FALSE(d->saveButton()->isEnabled());
  typeInto(d->form()->baseUrlEdit(), "http://localhost:8000/v1");
  d->form()->contextWindow()->setValue(1000);
  d->form()->maxOutput()->setValue(1000);
  EXPECT_TRUE(d->problemsLabel()->text().contains("max_output_tokens")) << d->problemsLabel()->text().toStdString();
  d->form()->maxOutput()->setValue(500);
  EXPECT_TRUE(d->problemsLabel()->text().isEmpty()) << d->problemsLabel()->text().toStdString();
  EXPECT_TRUE(d->saveButton()->isEnabled());
  // A name the run controller could not tell from its offline policy, or one taken, is refused.
  typeInto(d->form()->nameEdit(), "offline");
  emit d->form()->nameEdit()->editingFinished();
  EXPECT_EQ(d->currentProfile(), "profile");
  EXPECT_TRUE(d->problemsLabel()->text().contains("offline")) << d->problemsLabel()->text().toStdString();
  typeInto(d->form()->nameEdit(), "local");
  emit d->form()->nameEdit()->editingFinished();
  EXPECT_EQ(d->currentProfile(), "local");
  d->setDefaultProfile();
  ASSERT_TRUE(d->save());
  const llm::Profile p = llm::resolve_profile(std::nullopt, {}, file);  // as `kope run --policy llm` reads it
  EXPECT_EQ(p.name, "local");
  EXPECT_EQ(p.model, "qwen");
  EXPECT_EQ(p.context_window, 1000);
  EXPECT_EQ(p.max_output_tokens, 500);
  d->deleteProfile();
  EXPECT_EQ(d->profileList()->count(), 0);
  ASSERT_TRUE(d->save());
  EXPECT_TRUE(llm::load_profiles(file).empty());
  EXPECT_EQ(read_file(file).find("default"), std::string::npos);
}

// One tiny request through the core's client; the server answers slowly, and the window goes on meanwhile.
TEST_F(LlmSettingsTest, TestConnectionShowsTheModelLatencyAndTokens) {
  std::string stream = test::openai_stream({"o", "k"}, "", 12, 3);
  for (std::size_t at; (at = stream.find(R"("model":"m")")) != std::string::npos;)
    stream.replace(at, 11, R"("model":"m-2025-06")");
  test::ScriptedServer srv({test::sse_response(test::cut_at(stream, {40, 200}), 400)});
  unsetenv("KOPE_TEST_NO_KEY");
  writeProfile(srv.url(), "KOPE_TEST_NO_KEY");  // 127.0.0.1: no key needed
  auto d = open();
  QSignalSpy finished(d.get(), &LlmSettingsDialog::testFinished);
  int ticks = 0;
  QTimer timer;
  QObject::connect(&timer, &QTimer::timeout, [&] { ++ticks; });
  timer.start(20);
  d->testButton()->click();
  EXPECT_NE(d->testButton()->text().indexOf("Cancel"), -1) << d->testButton()->text().toStdString();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  EXPECT_TRUE(finished.at(0).at(0).toBool()) << d->testResult()->text().toStdString();
  EXPECT_GT(ticks, 20);  // about 0.8 s of server delay, and the event loop ran all along
  const QString text = d->testResult()->text();
  EXPECT_TRUE(text.contains("m-2025-06")) << text.toStdString();
  EXPECT_TRUE(text.contains("12 in")) << text.toStdString();
  EXPECT_TRUE(text.contains("3 out")) << text.toStdString();
  EXPECT_TRUE(text.contains("\"ok\"")) << text.toStdString();
  EXPECT_TRUE(text.contains(QRegularExpression("in [0-9]+\\.[0-9]+ s"))) << text.toStdString();
  ASSERT_EQ(srv.requests().size(), 1u);
  const auto body = nlohmann::json::parse(srv.requests()[0].body);
  EXPECT_LE(body["max_tokens"].get<int>(), 64);
  EXPECT_EQ(srv.requests()[0].headers.count("authorization"), 0u);
}

// The error as the server said it: status, type, code and message; the key from the profile's variable is sent
// and never shown. A server that cannot be reached says so without an HTTP status.
TEST_F(LlmSettingsTest, TestConnectionShowsTheExactError) {
  test::ScriptedServer srv({test::error_response(
      401, R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}})")});
  setenv("KOPE_TEST_ENV_KEY", "sk-env-route-77", 1);
  writeProfile(srv.url(), "KOPE_TEST_ENV_KEY");
  auto d = open();
  QSignalSpy finished(d.get(), &LlmSettingsDialog::testFinished);
  d->testConnection();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  EXPECT_FALSE(finished.at(0).at(0).toBool());
  const QString text = d->testResult()->text();
  EXPECT_TRUE(text.contains("HTTP 401")) << text.toStdString();
  EXPECT_TRUE(text.contains("auth")) << text.toStdString();
  EXPECT_TRUE(text.contains("Incorrect API key provided")) << text.toStdString();
  EXPECT_TRUE(text.contains("invalid_api_key")) << text.toStdString();
  EXPECT_TRUE(text.contains("$KOPE_TEST_ENV_KEY")) << text.toStdString();  // where to look
  EXPECT_FALSE(text.contains("sk-env-route-77"));
  ASSERT_EQ(srv.requests().size(), 1u);  // no retry: the first answer is the one shown
  EXPECT_EQ(srv.requests()[0].headers.at("authorization"), "Bearer sk-env-route-77");
  // Nothing listens there: the transport's words, no HTTP status.
  typeInto(d->form()->baseUrlEdit(), "http://127.0.0.1:1/v1");
  d->testConnection();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 1; }));
  const QString refused = d->testResult()->text();
  EXPECT_TRUE(refused.contains("no HTTP answer")) << refused.toStdString();
  EXPECT_TRUE(refused.contains("127.0.0.1")) << refused.toStdString();
  unsetenv("KOPE_TEST_ENV_KEY");
  // A hosted server with no key anywhere: said before anything is sent.
  typeInto(d->form()->baseUrlEdit(), "https://api.example.invalid/v1");
  d->testConnection();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 2; }));
  EXPECT_TRUE(d->testResult()->text().contains("$KOPE_TEST_ENV_KEY")) << d->testResult()->text().toStdString();
  EXPECT_EQ(srv.requests().size(), 1u);
}

// A key written into the file is offered a move to the keychain; with no keychain to take it, the file is left
// as it was (test_ui_keychain moves it for real).
TEST_F(LlmSettingsTest, AKeyInTheFileIsOfferedAMoveAndStaysWhenNoKeychainTakesIt) {
  writeProfile("http://127.0.0.1:9", "OPENAI_API_KEY", R"(, "api_key": "sk-in-file")");
  const std::string before = read_file(file);
  auto d = open();
  EXPECT_TRUE(d->keyBanner()->isVisible());
  QSignalSpy stored(d.get(), &LlmSettingsDialog::keyStored);
  d->moveKeysButton()->click();
  ASSERT_TRUE(waitFor([&] { return stored.count() > 0; }));
  EXPECT_FALSE(stored.at(0).at(0).toBool());
  EXPECT_EQ(read_file(file), before);
  EXPECT_TRUE(d->keyBanner()->isVisible());
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  unsetenv("DBUS_SESSION_BUS_ADDRESS");  // no Secret Service here, whatever desktop runs the tests
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-settings-test");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
