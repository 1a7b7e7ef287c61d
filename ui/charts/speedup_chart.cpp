#include "speedup_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace kope::ui {

struct SpeedupChart::Impl {
  QChartView* view = nullptr;
  QVector<double> values;
};

SpeedupChart::SpeedupChart(QWidget* parent) : QWidget(parent), d_(new Impl) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  d_->view = new QChartView(new QChart, this);
  d_->view->setRenderHint(QPainter::Antialiasing);
  layout->addWidget(d_->view);
  clear();
}

SpeedupChart::~SpeedupChart() { delete d_; }

void SpeedupChart::clear() {
  // A new chart each time, as ChartPanel does: axes removed from a chart leave their labels drawn (and
  // QChart::removeAxis hands the axis back, so it would leak too).
  QChart* old = d_->view->chart();
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);  // the first grab is blank otherwise
  chart->legend()->hide();
  d_->view->setChart(chart);
  delete old;
  chart->setTitle(tr("Speedup over the baseline, per case"));
  d_->values.clear();
}

void SpeedupChart::showReport(const EvalReport& report) {
  clear();
  QChart* chart = d_->view->chart();
  auto* set = new QBarSet(tr("speedup"));
  set->setColor(QColor(0x2f, 0x6f, 0xb5));
  set->setBorderColor(QColor(0x1f, 0x4f, 0x85));
  QStringList cats;
  double top = 1.0;
  for (const CaseResult& c : report.cases) {
    const double v = c.correct() && c.speedup ? *c.speedup : 0.0;
    *set << v;
    d_->values << v;
    cats << QString::fromStdString(c.name);
    top = std::max(top, v);
  }
  auto* series = new QBarSeries;
  series->append(set);
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(cats);
  auto* y = new QValueAxis;
  y->setRange(0, top * 1.15);
  y->setTitleText(tr("baseline time / kernel time"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  // The line at 1x: below it the kernel is slower than the baseline.
  auto* parity = new QLineSeries;
  parity->setColor(QColor(0xc0, 0x30, 0x30));
  parity->append(-0.5, 1.0);
  parity->append(cats.size() - 0.5, 1.0);
  chart->addSeries(parity);
  auto* px = new QValueAxis;
  px->setRange(-0.5, cats.size() - 0.5);
  px->setVisible(false);
  chart->addAxis(px, Qt::AlignTop);
  parity->attachAxis(px);
  parity->attachAxis(y);
  chart->setTitle(tr("Speedup over the baseline, per case (%1)").arg(QString::fromStdString(report.status())));
}

QVector<double> SpeedupChart::values() const { return d_->values; }

}  // namespace kope::ui
