// Help > Machine check under the offscreen platform: the dialog runs the real `kope doctor` checks off the UI
// thread, shows a row per check and the summary as plain text, refreshes, and speaks Chinese.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>

#include <functional>
#include <set>

#include "doctor/doctor_dialog.h"
#include "doctor/doctor_model.h"
#include "i18n.h"
#include "kope/model/suite.h"
#include "main_window.h"
#include "models/row_model.h"
#include "test_support.h"

using namespace kope;
using namespace kope::ui;
using namespace kope::doctor;

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

DoctorOptions quick() {
  DoctorOptions o;
  o.devices = false;
  return o;
}

}  // namespace

TEST(DoctorDialog, ShowsARowPerCheckAndThePlainTextSummary) {
  DoctorDialog d(nullptr, quick());
  EXPECT_TRUE(d.running()) << "the checks run off the UI thread as the dialog opens";
  EXPECT_FALSE(d.refreshButton()->isEnabled());
  ASSERT_TRUE(waitFor([&] { return !d.running(); }));
  const DoctorReport& r = d.report();
  ASSERT_EQ(d.model()->rowCount(), static_cast<int>(r.checks.size()));
  ASSERT_EQ(r.checks.size(), 14u);  // every check but the devices, left out here
  std::set<QString> ids;
  for (int row = 0; row < d.model()->rowCount(); ++row) {
    ids.insert(d.model()->index(row, DoctorModel::Check).data(RawRole).toString());
    EXPECT_EQ(d.model()->index(row, DoctorModel::VerdictColumn).data(StatusRole).toString().toStdString(),
              std::string(verdict_name(r.checks[static_cast<std::size_t>(row)].verdict)));
    EXPECT_FALSE(d.model()->index(row, DoctorModel::Found).data().toString().isEmpty()) << row;
  }
  EXPECT_EQ(ids.size(), r.checks.size());
  EXPECT_TRUE(ids.count("compiler") && ids.count("bubblewrap") && ids.count("timer") && ids.count("load"));
  EXPECT_EQ(d.model()->index(0, DoctorModel::VerdictColumn).data(StatusRole).toString(), "ok");  // the compiler
  EXPECT_EQ(d.summaryLabel()->textFormat(), Qt::PlainText);
  EXPECT_TRUE(d.summaryLabel()->text().contains("trustworthy because:"));
  EXPECT_TRUE(d.summaryLabel()->text().contains(QString::fromStdString(r.trustworthy_because.front())));
  EXPECT_TRUE(d.refreshButton()->isEnabled());

  QSignalSpy checked(&d, &DoctorDialog::checked);
  d.refreshButton()->click();
  EXPECT_TRUE(d.running());
  d.refreshButton()->click();  // ignored while the checks run
  ASSERT_TRUE(waitFor([&] { return checked.count() > 0; }));
  QCoreApplication::processEvents();
  EXPECT_EQ(checked.count(), 1);
  EXPECT_EQ(d.model()->rowCount(), 14);
}

TEST(DoctorDialog, SystemTextIsShownAsItIsNeverAsMarkup) {
  DoctorModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  DoctorCheck c;
  c.id = "compiler";
  c.title = "C++ compiler";
  c.verdict = Verdict::Warn;
  c.found = "<b>g++</b> &amp; <img src=x>";
  c.todo = "<a href=\"x\">fix</a>";
  m.setRows({c});
  EXPECT_EQ(m.index(0, DoctorModel::Found).data().toString(), QString::fromStdString(c.found));
  EXPECT_EQ(m.index(0, DoctorModel::Todo).data().toString(), QString::fromStdString(c.todo));
  c.verdict = Verdict::Ok;  // an ok line has nothing to do
  m.replace(0, c);
  EXPECT_TRUE(m.index(0, DoctorModel::Todo).data().toString().isEmpty());
  c.verdict = Verdict::Info;
  c.unknown = true;
  m.replace(0, c);
  EXPECT_EQ(m.index(0, DoctorModel::VerdictColumn).data().toString(), "unknown");
  m.setRows(run_doctor(quick()).checks);  // a real report through the tester
  EXPECT_EQ(m.rowCount(), 14);
  m.clear();
}

TEST(DoctorDialog, OpensFromTheHelpMenu) {
  test::TempDir dir;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  MainWindow w(Suite::embedded(), dir / "ws");
  auto* help = w.menuBar()->findChild<QMenu*>("help-menu");
  ASSERT_NE(help, nullptr);
  EXPECT_EQ(help->title(), "&Help");
  EXPECT_TRUE(help->actions().contains(w.machineCheckAction()));
  EXPECT_EQ(w.doctorDialog(), nullptr);
  w.machineCheckAction()->trigger();
  ASSERT_NE(w.doctorDialog(), nullptr);
  EXPECT_TRUE(w.doctorDialog()->isVisible());
  ASSERT_TRUE(waitFor([&] { return !w.doctorDialog()->running(); }));
  EXPECT_EQ(w.doctorDialog()->model()->rowCount(), 15);  // with the devices
  w.machineCheckAction()->trigger();                      // again: the same dialog, checked again
  EXPECT_TRUE(w.doctorDialog()->running());
  ASSERT_TRUE(waitFor([&] { return !w.doctorDialog()->running(); }));
}

TEST(DoctorDialog, SpeaksChinese) {
  ASSERT_TRUE(install_translation(*QCoreApplication::instance(), "zh_CN"));
  {
    DoctorDialog d(nullptr, quick());
    ASSERT_TRUE(waitFor([&] { return !d.running(); }));
    EXPECT_EQ(d.windowTitle(), QString::fromUtf8("本机检查"));
    EXPECT_EQ(d.model()->headerData(DoctorModel::Todo, Qt::Horizontal, Qt::DisplayRole).toString(),
              QString::fromUtf8("处理建议"));
    EXPECT_EQ(d.model()->index(0, DoctorModel::Check).data().toString(), QString::fromUtf8("C++ 编译器"));
    EXPECT_TRUE(d.summaryLabel()->text().contains(QString::fromUtf8("可信")));
  }
  ASSERT_TRUE(install_translation(*QCoreApplication::instance(), "en"));
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-doctor-ui-test");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
