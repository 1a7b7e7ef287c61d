// The history pane: every recorded evaluation of the task (newest first) and the runs; restore a version with
// its results, compare two versions or one with the incumbent, fork a run from a version. A double-click or the
// context menu on a row opens the attempt through the window's AttemptActions.
#pragma once

#include <QWidget>

#include "models/models.h"

class QPushButton;
class QTableView;

namespace kope::ui {

class HistoryPane : public QWidget {
  Q_OBJECT
 public:
  explicit HistoryPane(QWidget* parent = nullptr);

  HistoryModel* model() const { return model_; }
  RunModel* runs() const { return runs_; }
  QTableView* view() const { return view_; }
  QPushButton* restoreButton() const { return restore_; }
  QPushButton* compareButton() const { return compare_; }
  QPushButton* incumbentButton() const { return incumbent_; }
  QPushButton* forkButton() const { return fork_; }

  // The evaluation ids of the selected rows, in the order they appear.
  QList<qint64> selectedEvaluations() const;
  void select(const QList<int>& rows);
  void retranslate();

 signals:
  void restoreRequested(qint64 evaluationId);
  void compareRequested(qint64 a, qint64 b);
  void compareWithIncumbentRequested(qint64 evaluationId);
  void forkRequested(qint64 evaluationId);

 private:
  void updateButtons();
  HistoryModel* model_ = nullptr;
  RunModel* runs_ = nullptr;
  QTableView* view_ = nullptr;
  QTableView* run_view_ = nullptr;
  QPushButton* restore_ = nullptr;
  QPushButton* compare_ = nullptr;
  QPushButton* incumbent_ = nullptr;
  QPushButton* fork_ = nullptr;
};

}  // namespace kope::ui
