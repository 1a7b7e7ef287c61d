// A bar chart of per-case speedups; the only unit that touches Qt Charts, which is deprecated after 6.10.
#pragma once

#include <QWidget>

#include "kope/model/report.h"

namespace kope::ui {

class SpeedupChart : public QWidget {
  Q_OBJECT
 public:
  explicit SpeedupChart(QWidget* parent = nullptr);
  ~SpeedupChart() override;

  void showReport(const EvalReport& report);
  void clear();
  // What is drawn, for tests: one value per case (0 where the case has no speedup).
  QVector<double> values() const;

 private:
  struct Impl;
  Impl* d_;
};

}  // namespace kope::ui
