// Help > Machine check: the `kope doctor` checks in a window, a table of verdicts with the summary below, run
// off the UI thread and again on Refresh.
#pragma once

#include <QDialog>

#include "kope/doctor/doctor.h"

class QLabel;
class QPushButton;
class QTableView;
class QThread;

namespace kope::ui {

class DoctorModel;

class DoctorDialog : public QDialog {
  Q_OBJECT
 public:
  explicit DoctorDialog(QWidget* parent = nullptr, doctor::DoctorOptions options = {});
  ~DoctorDialog() override;

  DoctorModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QPushButton* refreshButton() const { return refresh_; }
  QLabel* summaryLabel() const { return summary_; }
  bool running() const { return thread_ != nullptr; }
  const doctor::DoctorReport& report() const { return report_; }

 public slots:
  void refresh();  // runs the checks again (ignored while they run)

 signals:
  void checked();  // a run finished and the table shows it

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void display(doctor::DoctorReport report, const QString& error);
  QString summaryText() const;

  doctor::DoctorOptions options_;
  doctor::DoctorReport report_;
  QString error_;
  DoctorModel* model_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* intro_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* state_ = nullptr;
  QPushButton* refresh_ = nullptr;
  QPushButton* close_ = nullptr;
  QThread* thread_ = nullptr;
};

}  // namespace kope::ui
