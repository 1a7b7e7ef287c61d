// The study view (issue 20, item 4): the arms of a `kope study` side by side, per level, as the method reports
// them (pass rate, fast_1, geometric-mean speedup, score, tokens, time), as tables and plots, and per operator.
#pragma once

#include <QWidget>

#include <filesystem>

#include "kope/study/study.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace kope::ui {

class StudyChart;
class StudyLevelModel;
class StudyTaskModel;

class StudyPane : public QWidget {
  Q_OBJECT
 public:
  explicit StudyPane(QWidget* parent = nullptr);

  // Reads DIR/study.json (or the file itself); throws kope::Error naming the file and the field.
  void open(const std::filesystem::path& dir);
  void show(const study::StudyReport& report, const QString& where);
  void retranslate();

  StudyLevelModel* levels() const { return levels_; }
  StudyTaskModel* tasks() const { return tasks_; }
  StudyChart* passChart() const { return pass_; }
  StudyChart* speedupChart() const { return speedup_; }
  QComboBox* armFilter() const { return arm_; }
  QTableView* taskView() const { return task_view_; }
  QPushButton* openButton() const { return open_; }

 signals:
  void openRequested();

 private:
  void updateSummary();
  QLabel* summary_ = nullptr;
  QPushButton* open_ = nullptr;
  QTableView* level_view_ = nullptr;
  QTableView* task_view_ = nullptr;
  QSplitter* split_ = nullptr;  // the level table, the plots, the operators
  QComboBox* arm_ = nullptr;
  QLabel* arm_label_ = nullptr;
  StudyLevelModel* levels_ = nullptr;
  StudyTaskModel* tasks_ = nullptr;
  QSortFilterProxyModel* task_filter_ = nullptr;
  StudyChart* pass_ = nullptr;
  StudyChart* speedup_ = nullptr;
  study::StudyReport report_;
  QString where_;
};

}  // namespace kope::ui
