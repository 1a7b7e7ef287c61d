// A general chart (bars per category with optional intervals, or sample points) for the profile and comparison
// panes. With speedup_chart.h the only units that touch Qt Charts (deprecated after 6.10): animations are off and
// no OpenGL series are used, so grabs offscreen and under Xvfb work.
#pragma once

#include <QColor>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <optional>
#include <utility>

namespace kope::ui {

struct ChartSeries {
  QString name;
  QVector<double> values;
  QColor color;
};

class ChartPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPanel(QWidget* parent = nullptr);
  ~ChartPanel() override;

  // Grouped bars; `intervals` (one per category, for the first series) are drawn as whiskers; `reference` as a
  // horizontal line (e.g. 1x).
  void showBars(const QString& title, const QStringList& categories, const QVector<ChartSeries>& series,
                const QString& yTitle, std::optional<double> reference = std::nullopt,
                const QVector<std::optional<std::pair<double, double>>>& intervals = {});
  // Points (x = sample number, y = value) per series, with optional horizontal lines (a floor, say).
  void showPoints(const QString& title, const QVector<ChartSeries>& series, const QString& xTitle,
                  const QString& yTitle, const QVector<std::pair<QString, double>>& lines = {});
  void clear(const QString& title = {});

  // What is drawn, for tests.
  int seriesCount() const;
  QVector<double> values(int series) const;
  QString title() const;

 private:
  struct Impl;
  Impl* d_;
};

}  // namespace kope::ui
