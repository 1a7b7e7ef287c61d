#include "compile_pane.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "kope/format.h"
#include "view_util.h"

namespace kope::ui {

CompilePane::CompilePane(QWidget* parent) : QWidget(parent) {
  setObjectName("compile-pane");
  model_ = new DiagnosticModel(this);
  output_ = new QPlainTextEdit;
  output_->setObjectName("compile-output");
  output_->setReadOnly(true);
  output_->setLineWrapMode(QPlainTextEdit::NoWrap);
  output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  view_ = makeTableView(this);
  view_->setModel(model_);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(output_);
  split->addWidget(view_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addWidget(split);
  connect(view_, &QTableView::activated, this, [this](const QModelIndex& i) {
    const int line = model_->data(i, LineRole).toInt();
    if (line > 0) emit diagnosticActivated(line, model_->data(i, ColumnRole).toInt());
  });
}

void CompilePane::showCompiling(const QString& kernel) {
  model_->clear();
  output_->setPlainText(tr("Compiling %1 ...").arg(kernel));
}

void CompilePane::showResult(const CompileResult& r, bool compiled, const QString& error) {
  model_->setRows(r.diagnostics);
  view_->resizeColumnsToContents();
  QString text;
  if (!r.command.empty()) {
    QStringList cmd;
    for (const auto& a : r.command) cmd << QString::fromStdString(a);
    text += "$ " + cmd.join(' ') + "\n";
  }
  if (!r.log.empty()) text += QString::fromStdString(r.log) + (r.log.back() == '\n' ? "" : "\n");
  const QString time = QString::fromStdString(format::seconds(r.seconds));
  if (compiled)
    text += r.cached ? tr("compiled (cached build, no compiler run)") : tr("compiled in %1").arg(time);
  else
    text += tr("did not compile (%1): %2").arg(time, error);
  output_->setPlainText(text);
}

void CompilePane::clear() {
  model_->clear();
  output_->clear();
}

}  // namespace kope::ui
