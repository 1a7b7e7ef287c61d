#include "profile_pane.h"

#include <QGroupBox>
#include <QLabel>
#include <QListView>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

#include "charts/chart_panel.h"
#include "kope/base/format.h"

namespace kope::ui {

ProfilePane::ProfilePane(CaseModel* cases, QWidget* parent) : QWidget(parent), cases_(cases) {
  setObjectName("profile-pane");
  list_ = new QListView;
  list_->setModel(cases_);
  list_->setModelColumn(CaseModel::Name);
  list_->setMaximumWidth(180);
  chart_ = new ChartPanel;
  details_ = new QLabel;
  details_->setTextFormat(Qt::PlainText);
  details_->setObjectName("profile-details");
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  counters_ = new QGroupBox;
  counters_text_ = new QTextBrowser;
  auto* cl = new QVBoxLayout(counters_);
  cl->addWidget(counters_text_);
  counters_->hide();
  auto* right = new QWidget;
  auto* rl = new QVBoxLayout(right);
  rl->setContentsMargins(0, 0, 0, 0);
  rl->addWidget(chart_, 1);
  rl->addWidget(details_);
  rl->addWidget(counters_);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(list_);
  split->addWidget(right);
  split->setStretchFactor(1, 1);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addWidget(split);
  connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& i) { show(i.row()); });
  auto refresh = [this] {
    if (cases_->rowCount() == 0) show(-1);
    else if (currentCase() < 0) selectCase(0);
    else show(currentCase());
  };
  connect(cases_, &QAbstractItemModel::modelReset, this, refresh);
  connect(cases_, &QAbstractItemModel::rowsInserted, this, refresh);
  retranslate();
}

void ProfilePane::selectCase(int row) {
  list_->setCurrentIndex(cases_->index(row, CaseModel::Name));
  show(row);
}

int ProfilePane::currentCase() const { return list_->currentIndex().isValid() ? list_->currentIndex().row() : -1; }

void ProfilePane::setCounters(const std::map<std::string, double>& counters) {
  counters_->setVisible(!counters.empty());
  QString html = "<table>";
  for (const auto& [k, v] : counters)
    html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>")
                .arg(QString::fromStdString(k).toHtmlEscaped(), QString::fromStdString(format::sci(v)));
  counters_text_->setHtml(html + "</table>");
}

void ProfilePane::retranslate() {
  counters_->setTitle(tr("Device profiler counters"));
  show(currentCase());
}

void ProfilePane::show(int row) {
  if (row < 0 || row >= cases_->rowCount()) {
    chart_->clear(tr("Timed samples"));
    details_->setText(tr("No timed case: evaluate a kernel to see its samples."));
    return;
  }
  const CaseResult& c = cases_->at(row);
  QVector<double> base(c.baseline_ns.begin(), c.baseline_ns.end()), kern(c.kernel_ns.begin(), c.kernel_ns.end());
  double top = 0;
  for (double v : base) top = std::max(top, v);
  for (double v : kern) top = std::max(top, v);
  // The unit that keeps the axis labels short.
  const double scale = top >= 1e9 ? 1e9 : top >= 1e6 ? 1e6 : top >= 1e3 ? 1e3 : 1.0;
  const QString unit = scale == 1e9 ? tr("seconds") : scale == 1e6 ? tr("milliseconds") : scale == 1e3 ? tr("microseconds") : tr("nanoseconds");
  for (double& v : base) v /= scale;
  for (double& v : kern) v /= scale;
  QVector<std::pair<QString, double>> lines;
  if (c.hw_bound_ns) lines.push_back({tr("memory-bound floor"), *c.hw_bound_ns / scale});
  chart_->showPoints(tr("Timed samples of case %1").arg(QString::fromStdString(c.name)),
                     {{tr("baseline"), base, QColor(0x90, 0x90, 0x90)}, {tr("kernel"), kern, QColor(0x2f, 0x6f, 0xb5)}},
                     tr("sample"), unit, lines);
  QString text;
  text += tr("Baseline median %1, kernel median %2 over %3 samples.")
              .arg(QString::fromStdString(format::duration_ns(c.baseline_median_ns)),
                   QString::fromStdString(format::duration_ns(c.kernel_median_ns)))
              .arg(c.kernel_ns.size());
  text += "\n" + tr("Speedup %1, 95% interval %2.")
                     .arg(QString::fromStdString(format::speedup(c.speedup)),
                          c.speedup_interval ? QString::fromStdString(format::interval(c.speedup_interval)) : tr("none"));
  if (c.hw_bound_ns)
    text += "\n" + tr("Memory-bound floor %1; position against it (HAP) %2: 50% is the baseline's speed, 100% the floor.")
                       .arg(QString::fromStdString(format::duration_ns(c.hw_bound_ns)),
                            QString::fromStdString(format::percent(c.hap)));
  else
    text += "\n" + tr("No memory-bound floor was measured for this case.");
  details_->setText(text);
}

}  // namespace kope::ui
