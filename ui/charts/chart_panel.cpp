#include "chart_panel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace kope::ui {

struct ChartPanel::Impl {
  QChartView* view = nullptr;
  QVector<QVector<double>> values;
};

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent), d_(new Impl) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  d_->view = new QChartView(new QChart, this);
  d_->view->setRenderHint(QPainter::Antialiasing);
  d_->view->chart()->setAnimationOptions(QChart::NoAnimation);
  d_->view->setMinimumHeight(180);
  layout->addWidget(d_->view);
}

ChartPanel::~ChartPanel() { delete d_; }

void ChartPanel::clear(const QString& title) {
  // A new chart each time: axes removed from a chart can leave their labels drawn.
  QChart* old = d_->view->chart();
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  d_->view->setChart(chart);
  delete old;
  chart->setTitle(title);
  d_->values.clear();
}

int ChartPanel::seriesCount() const { return d_->values.size(); }
QVector<double> ChartPanel::values(int series) const { return d_->values.value(series); }
QString ChartPanel::title() const { return d_->view->chart()->title(); }

void ChartPanel::showBars(const QString& title, const QStringList& categories, const QVector<ChartSeries>& series,
                          const QString& yTitle, std::optional<double> reference,
                          const QVector<std::optional<std::pair<double, double>>>& intervals) {
  clear(title);
  QChart* chart = d_->view->chart();
  chart->legend()->setVisible(series.size() > 1);
  auto* bars = new QBarSeries;
  double top = reference.value_or(0.0);
  for (const auto& s : series) {
    auto* set = new QBarSet(s.name);
    if (s.color.isValid()) set->setColor(s.color);
    for (double v : s.values) {
      *set << v;
      top = std::max(top, v);
    }
    bars->append(set);
    d_->values << s.values;
  }
  for (const auto& iv : intervals)
    if (iv) top = std::max(top, iv->second);
  chart->addSeries(bars);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  auto* y = new QValueAxis;
  y->setRange(0, top > 0 ? top * 1.15 : 1.0);
  y->setTitleText(yTitle);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  bars->attachAxis(x);
  bars->attachAxis(y);
  auto* px = new QValueAxis;
  px->setRange(-0.5, categories.size() - 0.5);
  px->setVisible(false);
  chart->addAxis(px, Qt::AlignTop);
  // Whiskers for the first series: with n series a category's bars sit around its centre.
  const double width = 0.5 / std::max<qsizetype>(1, series.size());
  const double offset = series.size() > 1 ? -0.5 * 0.8 * (series.size() - 1) / series.size() : 0.0;
  for (int i = 0; i < intervals.size(); ++i) {
    if (!intervals[i]) continue;
    auto* w = new QLineSeries;
    w->setName(QString());
    w->setColor(QColor(0x20, 0x20, 0x20));
    const double cx = i + offset;
    w->append(cx - width / 3, intervals[i]->first);
    w->append(cx + width / 3, intervals[i]->first);
    w->append(cx, intervals[i]->first);
    w->append(cx, intervals[i]->second);
    w->append(cx - width / 3, intervals[i]->second);
    w->append(cx + width / 3, intervals[i]->second);
    chart->addSeries(w);
    w->attachAxis(px);
    w->attachAxis(y);
  }
  if (reference) {
    auto* line = new QLineSeries;
    line->setColor(QColor(0xc0, 0x30, 0x30));
    line->append(-0.5, *reference);
    line->append(categories.size() - 0.5, *reference);
    chart->addSeries(line);
    line->attachAxis(px);
    line->attachAxis(y);
  }
  // Only the bar sets belong in the legend.
  for (auto* s : chart->series())
    if (s != bars)
      for (auto* m : chart->legend()->markers(s)) m->setVisible(false);
}

void ChartPanel::showPoints(const QString& title, const QVector<ChartSeries>& series, const QString& xTitle,
                            const QString& yTitle, const QVector<std::pair<QString, double>>& lines) {
  clear(title);
  QChart* chart = d_->view->chart();
  chart->legend()->setVisible(true);
  double top = 0, count = 1;
  auto* x = new QValueAxis;
  auto* y = new QValueAxis;
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (const auto& s : series) {
    auto* sc = new QScatterSeries;
    sc->setName(s.name);
    sc->setMarkerSize(8);
    if (s.color.isValid()) sc->setColor(s.color);
    for (int i = 0; i < s.values.size(); ++i) {
      sc->append(i + 1, s.values[i]);
      top = std::max(top, s.values[i]);
    }
    count = std::max<double>(count, s.values.size());
    chart->addSeries(sc);
    sc->attachAxis(x);
    sc->attachAxis(y);
    d_->values << s.values;
  }
  for (const auto& [name, v] : lines) {
    auto* l = new QLineSeries;
    l->setName(name);
    l->append(0.5, v);
    l->append(count + 0.5, v);
    chart->addSeries(l);
    l->attachAxis(x);
    l->attachAxis(y);
    top = std::max(top, v);
  }
  x->setRange(0.5, count + 0.5);
  x->setLabelFormat("%d");
  x->setTickCount(std::min<int>(static_cast<int>(count) + 1, 11));
  x->setTitleText(xTitle);
  y->setRange(0, top > 0 ? top * 1.15 : 1.0);
  y->setTitleText(yTitle);
}

}  // namespace kope::ui
