// The model's reply as it comes (issue 20 item 1), in the real window under the offscreen platform, against a
// scripted model server that streams slowly: the prompt by tier is on show before the first piece of the reply,
// partial text is in the live pane while the reply is still coming, with reasoning folded apart, tokens in and
// out, cost (or "no price set") and time; with two tasks in flight each has its own reply.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidget>

#include <functional>

#include "agentview/agent_view.h"
#include "engine.h"
#include "kope/model/suite.h"
#include "main_window.h"
#include "models/live_models.h"
#include "scripted_llm_server.h"
#include "test_support.h"
#include "views/live_reply_pane.h"
#include "views/run_controller.h"
#include "views/run_monitor.h"

using namespace kope;
using namespace kope::ui;

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

// An OpenAI-compatible reply sent one event at a time, `ms` apart.
test::ScriptedResponse slowStream(const std::vector<std::string>& parts, const std::string& reasoning, int ms,
                                  int prompt_tokens = 400, int completion_tokens = 60) {
  const std::string body = test::openai_stream(parts, reasoning, prompt_tokens, completion_tokens);
  std::vector<std::size_t> cuts;
  for (std::size_t at = body.find("\n\n"); at != std::string::npos && at + 2 < body.size(); at = body.find("\n\n", at + 2))
    cuts.push_back(at + 2);
  return test::sse_response(test::cut_at(body, cuts), ms);
}

class LiveReplyTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::unique_ptr<MainWindow> window;
  RunController* run = nullptr;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    window->setEvalOptions(test::quick_options());
    window->resize(1600, 1000);
    window->show();
    run = window->runController();
    ASSERT_TRUE(window->selectTask("gelu"));
  }
  void TearDown() override {
    if (run->control()) run->control()->stop();
    waitFor([&] { return !window->engine()->busy(); });
    unsetenv("XDG_CONFIG_HOME");
  }
  // A profile "scripted" of the settings file, pointing at `srv`, with prices when `priced`.
  void useProfile(const test::ScriptedServer& srv, bool priced) {
    test::write_text(dir / "cfg" / "kope" / "llm.json",
                     R"({"profiles": {"scripted": {"provider": "openai", "base_url": ")" + srv.url() +
                         R"(/v1", "model": "slow-model", "context_window": 16000, "max_output_tokens": 1000)" +
                         (priced ? R"(, "price_in_per_mtok": 3, "price_out_per_mtok": 15)" : "") + "}}}");
    setenv("XDG_CONFIG_HOME", (dir / "cfg").c_str(), 1);
    run->policyBox()->setEditText("scripted");
    run->memoryBox()->setCurrentText("off");
  }
  LiveReplyPane* pane() { return run->liveReply(); }
  LiveReplyModel* live() { return pane()->model(); }
};

}  // namespace

TEST_F(LiveReplyTest, PartialReplyPromptTiersAndTokensShowBeforeTheReplyIsOver) {
  const std::vector<std::string> parts = {"I would ", "keep the ", "erf form ", "and vectorise ", "the loop ",
                                          "over eight ", "lanes; ", "no code ", "this time."};
  test::ScriptedServer srv({slowStream(parts, "The tanh form loses accuracy.", 150)});
  useProfile(srv, false);
  run->maxAttempts()->setValue(1);
  EXPECT_FALSE(pane()->isHidden()) << "a model's policy shows the live pane";

  // What the pane shows at the first piece of the reply, and while the reply is still coming.
  int tiers_at_first_delta = 0;
  int hot_sections_at_first_delta = 0;
  QString answer_before_first_delta = "unset";
  QObject::connect(live(), &LiveReplyModel::textAppended, pane(), [&](int, const QString& a, const QString&, bool) {
    if (answer_before_first_delta != "unset") return;
    QTreeWidget* t = pane()->promptView()->tree();
    for (int i = 0; i < t->topLevelItemCount(); ++i)
      if (t->topLevelItem(i)->text(0).contains("tokens")) ++tiers_at_first_delta;
    if (t->topLevelItemCount() > 0 && t->topLevelItem(0)->text(0).startsWith("hot"))
      hot_sections_at_first_delta = t->topLevelItem(0)->childCount();
    answer_before_first_delta = pane()->answerView()->toPlainText().chopped(a.size());
  });
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  ASSERT_TRUE(waitFor([&] {
    return live()->rowCount() == 1 && live()->at(0).phase == "streaming" &&
           pane()->answerView()->toPlainText().size() >= 20;
  })) << pane()->titleLabel()->text().toStdString();
  // mid-stream: part of the answer, estimates marked "~", no price set, the clock going
  const QString partial = pane()->answerView()->toPlainText();
  const QString stats_mid = pane()->statsLabel()->text();
  EXPECT_EQ(finished.count(), 0);
  EXPECT_TRUE(live()->at(0).live());
  EXPECT_LT(partial.size(), QString::fromStdString("I would keep the erf form and vectorise the loop over eight lanes; no code this time.").size());
  EXPECT_TRUE(stats_mid.contains("~")) << stats_mid.toStdString();
  EXPECT_TRUE(stats_mid.contains("no price set")) << stats_mid.toStdString();
  EXPECT_GT(live()->index(0, LiveReplyModel::TokensIn).data(RawRole).toLongLong(), 0);
  EXPECT_GT(live()->index(0, LiveReplyModel::TokensOut).data(RawRole).toLongLong(), 0);
  const double t_mid = live()->index(0, LiveReplyModel::Time).data(RawRole).toDouble();
  // the reasoning, folded apart from the answer
  EXPECT_FALSE(partial.contains("tanh"));
  EXPECT_TRUE(pane()->reasoningToggle()->isEnabled());
  EXPECT_TRUE(pane()->reasoningView()->isHidden());
  pane()->reasoningToggle()->click();
  EXPECT_FALSE(pane()->reasoningView()->isHidden());
  EXPECT_EQ(pane()->reasoningView()->toPlainText(), "The tanh form loses accuracy.");

  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  // the prompt by tier was on show before the first piece came
  EXPECT_EQ(answer_before_first_delta, "");
  EXPECT_EQ(tiers_at_first_delta, 3);
  EXPECT_GE(hot_sections_at_first_delta, 5) << "task, spec, reference, abi, incumbent, feedback, target";
  // the end: the whole answer, the server's figures, the time
  const QString full = pane()->answerView()->toPlainText();
  EXPECT_EQ(full, "I would keep the erf form and vectorise the loop over eight lanes; no code this time.");
  EXPECT_TRUE(full.startsWith(partial));
  EXPECT_EQ(live()->at(0).phase, "no_candidate");
  EXPECT_EQ(live()->index(0, LiveReplyModel::TokensIn).data(RawRole).toLongLong(), 400);
  EXPECT_EQ(live()->index(0, LiveReplyModel::TokensOut).data(RawRole).toLongLong(), 60);
  EXPECT_GT(live()->index(0, LiveReplyModel::Time).data(RawRole).toDouble(), t_mid);
  EXPECT_FALSE(pane()->statsLabel()->text().contains("~")) << pane()->statsLabel()->text().toStdString();
  EXPECT_TRUE(pane()->titleLabel()->text().contains("slow-model"));
  EXPECT_EQ(live()->at(0).who.transcript_id, run->attempts()->at(0).attempt.transcript_id);
}

// Two tasks in flight: a reply each, a tab each, the cost from the profile's prices; choosing a tab selects the
// task among those in flight, and the other way round.
TEST_F(LiveReplyTest, EachTaskInFlightHasItsOwnReplyAndCost) {
  test::ScriptedServer srv;
  srv.set_responder([](const test::RecordedRequest& r) {
    const bool gelu = r.body.find("masked_scale") == std::string::npos;
    return slowStream({gelu ? "Reply for gelu: " : "Reply for masked_scale: ", "no ", "code."}, "", 120, 500, 20);
  });
  useProfile(srv, true);
  run->checkTask("masked_scale");
  run->maxAttempts()->setValue(1);
  run->jobsBox()->setValue(2);
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  ASSERT_EQ(live()->rowCount(), 2);
  EXPECT_EQ(pane()->taskBar()->count(), 2);
  EXPECT_FALSE(pane()->taskBar()->isHidden());
  for (const std::string task : {"gelu", "masked_scale"}) {
    const int row = live()->rowOf(task);
    ASSERT_GE(row, 0) << task;
    EXPECT_EQ(live()->at(row).answer, "Reply for " + task + ": no code.");
    EXPECT_NEAR(live()->index(row, LiveReplyModel::Cost).data(RawRole).toDouble(), (500 * 3 + 20 * 15) / 1e6, 1e-12);
  }
  for (int i = 0; i < pane()->taskBar()->count(); ++i) {
    const QString task = pane()->taskBar()->tabText(i);
    emit pane()->taskBar()->tabBarClicked(i);
    EXPECT_EQ(pane()->shownTask(), task.toStdString());
    EXPECT_EQ(pane()->answerView()->toPlainText(), "Reply for " + task + ": no code.");
    EXPECT_EQ(run->monitor()->selectedTask(), task.toStdString());
    EXPECT_TRUE(pane()->statsLabel()->text().contains("$0.0018")) << pane()->statsLabel()->text().toStdString();
  }
  run->monitor()->selectTask("gelu");
  EXPECT_EQ(pane()->shownTask(), "gelu");
}

// The offline policy asks no model: no live pane.
TEST_F(LiveReplyTest, TheOfflinePolicyShowsNoLivePane) {
  run->policyBox()->setEditText("offline");
  EXPECT_TRUE(pane()->isHidden());
  run->policyBox()->setEditText("some-profile");
  EXPECT_FALSE(pane()->isHidden());
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-live-test");
  qRegisterMetaType<quint64>("quint64");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
