// The study view (issue 20, item 4), offscreen: a report written as `kope study` writes it opens in the Study tab
// with a row per arm and level, a bar per arm and level in both plots, and the operators filtered by arm; a file
// that is not a study is refused with a message naming the file and the field. The models pass
// QAbstractItemModelTester.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>

#include <nlohmann/json.hpp>

#include "charts/study_chart.h"
#include "kope/model/suite.h"
#include "kope/study/study.h"
#include "main_window.h"
#include "models/study_models.h"
#include "test_support.h"
#include "views/study_pane.h"

using namespace kope;
using namespace kope::ui;

namespace {

study::StudyReport two_arms() {
  study::StudyReport r;
  r.policy = "offline";
  r.device = "cpu";
  r.started = "2026-12-04T10:00:00Z";
  r.finished = "2026-12-04T10:20:00Z";
  r.arms = {"off", "active"};
  r.levels = {1, 2};
  for (const std::string& arm : r.arms)
    for (int level : r.levels) {
      study::LevelRow x;
      x.arm = arm;
      x.level = level;
      x.operators = 8;
      x.compiled = 8;
      x.correct = arm == "off" ? 5 : 7;
      x.cases = 80;
      x.cases_correct = arm == "off" ? 50 : 70;
      x.pass_rate = x.cases_correct / 80.0;
      x.fast_1 = 0.25 * level;
      x.fast_1_against = "library";
      x.geomean_speedup = arm == "off" ? 1.1 : 1.4;
      x.score = 400 + level;
      x.tokens = 12345;
      x.wall_seconds = 60;
      r.rows.push_back(x);
      study::TaskRow t;
      t.arm = arm;
      t.task = "gelu" + std::to_string(level);
      t.level = level;
      t.kernel = "gelu/01.cpp";
      t.compiled = t.correct = true;
      t.cases = t.cases_correct = 10;
      t.speedup = 1.2;
      t.against = "library";
      r.tasks.push_back(t);
    }
  return r;
}

class StudyViewTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::unique_ptr<MainWindow> window;
  QStringList warnings;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    window->warn = [this](const QString&, const QString& message) { warnings << message; };
    window->show();
  }
};

TEST(StudyModels, PassTheModelTester) {
  const study::StudyReport r = two_arms();
  StudyLevelModel levels;
  QAbstractItemModelTester t1(&levels, QAbstractItemModelTester::FailureReportingMode::Fatal);
  levels.setRows(r.rows);
  StudyTaskModel tasks;
  QAbstractItemModelTester t2(&tasks, QAbstractItemModelTester::FailureReportingMode::Fatal);
  tasks.setRows(r.tasks);
  ASSERT_EQ(levels.rowCount(), 4);
  EXPECT_EQ(levels.index(1, StudyLevelModel::PassRate).data().toString(), "62.5% (50/80 cases)");
  EXPECT_DOUBLE_EQ(levels.index(3, StudyLevelModel::Speedup).data(RawRole).toDouble(), 1.4);
  EXPECT_EQ(levels.index(0, StudyLevelModel::Correct).data().toString(), "5/8");
  EXPECT_EQ(tasks.index(0, StudyTaskModel::Speedup).data().toString(), "1.20x vs library");
}

TEST_F(StudyViewTest, AStudyFolderOpensInTheStudyTabWithTablesAndPlots) {
  study::write_study(two_arms(), dir / "study");
  ASSERT_TRUE(window->openStudy(QString::fromStdString((dir / "study").string()))) << warnings.join("\n").toStdString();
  StudyPane* pane = window->studyPane();
  EXPECT_EQ(window->tabs()->currentWidget(), pane);
  EXPECT_EQ(pane->levels()->rowCount(), 4);
  // One bar set per arm, one value per level, as the report says.
  const QVector<QVector<double>> pass = pane->passChart()->values();
  ASSERT_EQ(pass.size(), 2);
  EXPECT_NEAR(pass[0][0], 62.5, 1e-9);
  EXPECT_NEAR(pass[1][1], 87.5, 1e-9);
  const QVector<QVector<double>> speed = pane->speedupChart()->values();
  ASSERT_EQ(speed.size(), 2);
  EXPECT_NEAR(speed[1][0], 1.4, 1e-9);
  // The operators of one arm.
  EXPECT_EQ(pane->taskView()->model()->rowCount(), 4);
  pane->armFilter()->setCurrentIndex(pane->armFilter()->findData("active"));
  ASSERT_EQ(pane->taskView()->model()->rowCount(), 2);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(pane->taskView()->model()->index(i, StudyTaskModel::Arm).data().toString(), "active");
  pane->armFilter()->setCurrentIndex(0);
  EXPECT_EQ(pane->taskView()->model()->rowCount(), 4);
}

TEST_F(StudyViewTest, ABadStudyIsNamedInADialogAndNothingChanges) {
  nlohmann::json j = study::to_json(two_arms());
  j["rows"][2].erase("score");
  test::write_text(dir / "bad" / "study.json", j.dump());
  EXPECT_FALSE(window->openStudy(QString::fromStdString((dir / "bad").string())));
  ASSERT_EQ(warnings.size(), 1);
  EXPECT_TRUE(warnings[0].contains("/rows/2")) << warnings[0].toStdString();
  EXPECT_TRUE(warnings[0].contains("score")) << warnings[0].toStdString();
  EXPECT_TRUE(warnings[0].contains("bad")) << warnings[0].toStdString();
  EXPECT_EQ(window->studyPane()->levels()->rowCount(), 0);
  EXPECT_FALSE(window->openStudy(QString::fromStdString((dir / "missing").string())));
  EXPECT_TRUE(warnings.last().contains("missing")) << warnings.last().toStdString();
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-study-test");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
