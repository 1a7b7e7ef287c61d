// The window's models, each a table over one engine value type. Each answers DisplayRole with formatted text
// and RawRole / StatusRole / IdRole with the values behind it (see row_model.h).
#pragma once

#include <QObject>

#include <string>

#include "kope/eval/compare.h"
#include "kope/exec/compiler.h"
#include "kope/model/report.h"
#include "kope/loop/loop.h"
#include "kope/loop/run_control.h"
#include "kope/model/task.h"
#include "kope/workspace/workspace.h"
#include "row_model.h"

namespace kope::ui {

// One row per case of an evaluation; rows can arrive one at a time as cases finish.
class CaseModel : public RowModel<CaseResult> {
  Q_OBJECT
 public:
  enum Column { Name, Status, MaxRelErr, Baseline, Kernel, Speedup, Interval, Floor, Hap, Message, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const CaseResult& c, int column, int role) const override;
};

// The compiler's diagnostics: file, line, column, severity, message.
class DiagnosticModel : public RowModel<Diagnostic> {
  Q_OBJECT
 public:
  enum Column { File, Line, Col, Severity, Message, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const Diagnostic& d, int column, int role) const override;
};

struct AttemptRow {
  std::string task;
  loop::Attempt attempt;
};

// The loop's attempts as they finish.
class AttemptModel : public RowModel<AttemptRow> {
  Q_OBJECT
 public:
  enum Column { Task, Kernel, Status, Speedup, Promoted, Idea, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const AttemptRow& a, int column, int role) const override;
};

// Recorded evaluations, newest first.
class HistoryModel : public RowModel<workspace::EvaluationRow> {
  Q_OBJECT
 public:
  enum Column { Id, Task, Status, Speedup, Started, Kernel, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const workspace::EvaluationRow& r, int column, int role) const override;
};

// Recorded runs, newest first.
class RunModel : public RowModel<workspace::RunRow> {
  Q_OBJECT
 public:
  enum Column { Id, Command, Status, Started, Finished, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const workspace::RunRow& r, int column, int role) const override;
};

// Two versions per case: both medians, B's speedup over A with its interval, both statuses.
class CompareModel : public RowModel<eval::CaseComparison> {
  Q_OBJECT
 public:
  enum Column { Name, AStatus, BStatus, AMedian, BMedian, Speedup, Interval, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const eval::CaseComparison& c, int column, int role) const override;
};

// The steering acts of the current run, oldest first.
class SteeringModel : public RowModel<loop::SteeringAct> {
  Q_OBJECT
 public:
  enum Column { At, Act, Detail, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const loop::SteeringAct& a, int column, int role) const override;
};

struct TaskRow {
  std::string name;
  int level = 1;
  std::string summary;
  bool checked = false;
};

// The suite's tasks; checkable, to choose which a run covers.
class TaskModel : public RowModel<TaskRow> {
  Q_OBJECT
 public:
  enum Column { Name, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const TaskRow& t, int column, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  std::vector<std::string> checkedTasks() const;
  int rowOf(const std::string& name) const;
  void setCheckable(bool checkable) { checkable_ = checkable; }

 private:
  bool checkable_ = true;
};

double maxRelErr(const CaseResult& c);

}  // namespace kope::ui
