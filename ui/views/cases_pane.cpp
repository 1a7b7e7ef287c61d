#include "cases_pane.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "kope/base/format.h"
#include "models/status.h"
#include "view_util.h"

namespace kope::ui {

CasesPane::CasesPane(QWidget* parent) : QWidget(parent) {
  setObjectName("cases-pane");
  model_ = new CaseModel(this);
  summary_ = new QLabel;
  summary_->setTextFormat(Qt::PlainText);  // messages and errors: never markup
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  view_ = makeTableView(this);
  view_->setModel(model_);
  detail_ = new QTextBrowser;
  detail_->setObjectName("case-detail");
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(view_);
  split->addWidget(detail_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setSizes({700, 300});
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addWidget(summary_);
  l->addWidget(split, 1);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) { showDetail(cur.row()); });
  connect(model_, &QAbstractItemModel::rowsInserted, this, [this] { view_->resizeColumnsToContents(); });
  connect(model_, &QAbstractItemModel::modelReset, this, [this] { view_->resizeColumnsToContents(); });
}

void CasesPane::setReport(const EvalReport& report) {
  model_->setRows(report.cases);
  for (int r = 0; r < model_->rowCount(); ++r)
    if (!model_->at(r).correct()) {
      selectCase(r);
      return;
    }
  if (model_->rowCount() > 0) selectCase(0);
  else detail_->clear();
}

void CasesPane::appendCase(const CaseResult& c) { model_->append(c); }

void CasesPane::clear() {
  model_->clear();
  detail_->clear();
}

void CasesPane::setSummary(const QString& text) { summary_->setText(text); }

void CasesPane::selectCase(int row) {
  view_->setCurrentIndex(model_->index(row, 0));
  showDetail(row);
}

void CasesPane::retranslate() {
  model_->retranslate();
  showDetail(view_->currentIndex().row());
}

void CasesPane::showDetail(int row) {
  if (row < 0 || row >= model_->rowCount()) {
    detail_->clear();
    return;
  }
  const CaseResult& c = model_->at(row);
  auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
  QString html = QStringLiteral("<h3>%1: %2</h3>").arg(esc(c.name), statusText(std::string(case_status_name(c.status))));
  if (!c.message.empty()) html += QStringLiteral("<pre style='white-space:pre-wrap'>%1</pre>").arg(esc(c.message));
  auto outputs = [&](const std::vector<OutputCheck>& outs, const QString& title) {
    if (outs.empty()) return;
    html += QStringLiteral("<p><b>%1</b></p>").arg(title);
    auto row = [](const QString& k, const QString& v) {
      return QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>").arg(k, v);
    };
    for (const auto& o : outs) {
      html += QStringLiteral("<table cellspacing=0 cellpadding=2><tr><td colspan=2><i>%1 %2</i> %3</td></tr>")
                  .arg(tr("Output"), esc(o.name), o.ok ? statusText("passed") : statusText("wrong"));
      html += row(tr("Mean rel. error"), esc(format::sci(o.mean_rel)));
      html += row(tr("Max rel. error"), esc(format::sci(o.max_rel)));
      html += row(tr("Limit"), esc(format::sci(o.threshold)) + " / " + esc(format::sci(10 * o.threshold)));
      html += row(tr("Worst at"), QString::number(o.worst_index));
      html += row(tr("Expected"), esc(format::sci(o.expected)));
      html += row(tr("Got"), esc(format::sci(o.got)));
      html += "</table>";
    }
  };
  outputs(c.outputs, tr("Correctness call"));
  outputs(c.last_outputs, tr("Last timed call"));
  html += QStringLiteral("<p>%1 %2 · %3 %4 · %5 %6 %7</p>")
              .arg(tr("Baseline median"), esc(format::duration_ns(c.baseline_median_ns)), tr("kernel median"),
                   esc(format::duration_ns(c.kernel_median_ns)), tr("speedup"), esc(format::speedup(c.speedup)),
                   esc(format::interval(c.speedup_interval)));
  if (!c.log.empty())
    html += QStringLiteral("<p><b>%1</b></p><pre>%2</pre>").arg(tr("Runner log"), esc(c.log));
  detail_->setHtml(html);
}

}  // namespace kope::ui
