// The machine check's table: one row per `kope doctor` check (verdict, check, what was found, what to do).
#pragma once

#include "kope/doctor/doctor.h"
#include "models/row_model.h"

namespace kope::ui {

class DoctorModel : public RowModel<doctor::DoctorCheck> {
  Q_OBJECT
 public:
  enum Column { VerdictColumn, Check, Found, Todo, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  // StatusRole: the verdict word ("ok", "info", "warn", "fail"); RawRole of the Check column: the check's id.
  QVariant cell(const doctor::DoctorCheck& c, int column, int role) const override;

  // The verdict as shown ("unknown" for an info line whose file the system hides), translated.
  static QString verdictText(const doctor::DoctorCheck& c);
  // The check's title, translated by its id (the engine's English title for an id it does not know).
  static QString titleText(const doctor::DoctorCheck& c);
};

}  // namespace kope::ui
