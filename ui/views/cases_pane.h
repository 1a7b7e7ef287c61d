// The test pane: one row per case as it finishes, and the full message of the selected case (expected, got,
// where, the runner's log) in a detail view.
#pragma once

#include <QWidget>

#include "kope/model/report.h"
#include "models/models.h"

class QLabel;
class QTableView;
class QTextBrowser;

namespace kope::ui {

class CasesPane : public QWidget {
  Q_OBJECT
 public:
  explicit CasesPane(QWidget* parent = nullptr);

  CaseModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  QTextBrowser* detail() const { return detail_; }
  QLabel* summary() const { return summary_; }

  void setReport(const EvalReport& report);
  void appendCase(const CaseResult& c);
  void clear();
  void setSummary(const QString& text);
  void selectCase(int row);
  void retranslate();

 private:
  void showDetail(int row);
  CaseModel* model_ = nullptr;
  QTableView* view_ = nullptr;
  QTextBrowser* detail_ = nullptr;
  QLabel* summary_ = nullptr;
};

}  // namespace kope::ui
