// The study view's tables (issue 20, item 4): one row per arm and level in the method's form, and one per
// operator and arm, over what `kope study` wrote (kope/study/study.h).
#pragma once

#include "kope/study/study.h"
#include "models/row_model.h"

namespace kope::ui {

class StudyLevelModel : public RowModel<study::LevelRow> {
  Q_OBJECT
 public:
  using RowModel::RowModel;
  enum Column { Arm, Level, Compiled, Correct, PassRate, Fast1, Speedup, Score, Attempts, Tokens, Wall, ColumnCount };

 protected:
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const study::LevelRow& r, int column, int role) const override;
};

class StudyTaskModel : public RowModel<study::TaskRow> {
  Q_OBJECT
 public:
  using RowModel::RowModel;
  enum Column { Arm, Level, Task, Kernel, Cases, Speedup, Score, Attempts, Tokens, ColumnCount };

 protected:
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const study::TaskRow& r, int column, int role) const override;
};

}  // namespace kope::ui
