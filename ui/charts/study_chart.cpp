#include "charts/study_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace kope::ui {

struct StudyChart::Impl {
  Figure figure;
  QChartView* view = nullptr;
  QVector<QVector<double>> values;
};

StudyChart::StudyChart(Figure figure, QWidget* parent) : QWidget(parent), d_(new Impl{figure}) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  d_->view = new QChartView(new QChart, this);
  d_->view->setRenderHint(QPainter::Antialiasing);
  d_->view->setMinimumHeight(240);  // below this the value axis shows "..."
  layout->addWidget(d_->view);
  clear();
}

StudyChart::~StudyChart() { delete d_; }

void StudyChart::clear() {
  QChart* old = d_->view->chart();  // a new chart each time, as SpeedupChart explains
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  d_->view->setChart(chart);
  delete old;
  d_->values.clear();
  retranslate();
}

void StudyChart::retranslate() {
  d_->view->chart()->setTitle(d_->figure == Figure::PassRate ? tr("Pass rate per arm and level (% of cases)")
                                                             : tr("Geometric-mean speedup per arm and level"));
}

void StudyChart::showStudy(const study::StudyReport& report) {
  clear();
  QChart* chart = d_->view->chart();
  auto* series = new QBarSeries;
  QStringList cats;
  for (int level : report.levels) cats << QStringLiteral("L%1").arg(level);
  double top = d_->figure == Figure::PassRate ? 100.0 : 1.0;
  for (const std::string& arm : report.arms) {
    auto* set = new QBarSet(QString::fromStdString(arm));
    QVector<double> vals;
    for (int level : report.levels) {
      double v = 0;
      for (const study::LevelRow& r : report.rows)
        if (r.arm == arm && r.level == level)
          v = d_->figure == Figure::PassRate ? 100.0 * r.pass_rate : r.geomean_speedup.value_or(0.0);
      *set << v;
      vals << v;
      top = std::max(top, v);
    }
    d_->values << vals;
    series->append(set);
  }
  series->setLabelsVisible(true);
  // Upright along each bar: eight bars side by side leave each label less width than its text.
  series->setLabelsAngle(-90);
  series->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
  series->setLabelsFormat(d_->figure == Figure::PassRate ? QStringLiteral("@value%") : QStringLiteral("@valuex"));
  series->setLabelsPrecision(3);
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(cats);
  auto* y = new QValueAxis;
  y->setRange(0, d_->figure == Figure::PassRate ? 100.0 : top * 1.15);
  y->setLabelFormat(d_->figure == Figure::PassRate ? QStringLiteral("%.0f%%") : QStringLiteral("%.2fx"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  chart->legend()->setAlignment(Qt::AlignBottom);
  retranslate();
}

QVector<QVector<double>> StudyChart::values() const { return d_->values; }

}  // namespace kope::ui
