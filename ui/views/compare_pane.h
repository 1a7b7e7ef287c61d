// Two kernel versions side by side: their sources with the differing lines marked, and per case both medians,
// B's speedup over A with its 95% interval and both statuses, as a table and a chart.
#pragma once

#include <QWidget>

#include "kope/eval/compare.h"
#include "models/models.h"

class QLabel;
class QTableView;

namespace kope::ui {

class ChartPanel;
class KernelEditor;

class ComparePane : public QWidget {
  Q_OBJECT
 public:
  explicit ComparePane(QWidget* parent = nullptr);

  CompareModel* model() const { return model_; }
  KernelEditor* left() const { return left_; }
  KernelEditor* right() const { return right_; }
  ChartPanel* chart() const { return chart_; }
  QLabel* title() const { return title_; }
  const eval::Comparison& comparison() const { return comparison_; }

  void showComparison(const eval::Comparison& comparison, const QString& sourceA, const QString& sourceB);
  void retranslate();

 private:
  CompareModel* model_ = nullptr;
  KernelEditor* left_ = nullptr;
  KernelEditor* right_ = nullptr;
  ChartPanel* chart_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* left_title_ = nullptr;
  QLabel* right_title_ = nullptr;
  QTableView* view_ = nullptr;
  eval::Comparison comparison_;
};

}  // namespace kope::ui
