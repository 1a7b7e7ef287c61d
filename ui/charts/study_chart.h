// A grouped bar chart of one figure of a study per arm (a bar set each) and level (a category each): the pass
// rate or the geometric-mean speedup, as `kope study`'s SVG plots show them.
#pragma once

#include <QWidget>

#include "kope/study/study.h"

namespace kope::ui {

class StudyChart : public QWidget {
  Q_OBJECT
 public:
  enum class Figure { PassRate, Speedup };
  explicit StudyChart(Figure figure, QWidget* parent = nullptr);
  ~StudyChart() override;

  void showStudy(const study::StudyReport& report);
  void clear();
  void retranslate();
  // What is drawn, for tests: per arm, one value per level (0 where a level has none).
  QVector<QVector<double>> values() const;

 private:
  struct Impl;
  Impl* d_;
};

}  // namespace kope::ui
