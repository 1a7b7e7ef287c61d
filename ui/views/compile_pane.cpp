#include "compile_pane.h"

#include <QFontDatabase>

#include <algorithm>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "kope/base/format.h"
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

namespace {

// Adds "  N | text" and a caret line under each `file:line:col:` diagnostic that has none.
QString withCarets(const QString& log, const QString& source, const QString& file) {
  if (source.isEmpty() || file.isEmpty()) return log;
  const QStringList src = source.split('\n');
  const QStringList lines = log.split('\n');
  QString out;
  for (int i = 0; i < lines.size(); ++i) {
    const QString& l = lines[i];
    out += l;
    if (i + 1 < lines.size()) out += '\n';
    if (!l.startsWith(file + ':')) continue;
    const QStringList parts = l.mid(file.size() + 1).split(':');
    bool ok_line = false, ok_col = false;
    const int line = parts.value(0).toInt(&ok_line), col = parts.value(1).toInt(&ok_col);
    if (!ok_line || !ok_col || line < 1 || line > src.size()) continue;
    const bool has_excerpt = i + 1 < lines.size() && lines[i + 1].contains(" | ");
    if (has_excerpt) continue;
    const QString num = QString::number(line);
    out += QStringLiteral(" %1 | %2\n").arg(num, src[line - 1]);
    out += QStringLiteral(" %1 | %2^\n").arg(QString(num.size(), ' '), QString(std::max(0, col - 1), ' '));
  }
  return out;
}

}  // namespace

void CompilePane::showResult(const BuildResult& r, bool compiled, const QString& error, const QString& source,
                             const QString& file) {
  model_->setRows(r.diagnostics);
  view_->resizeColumnsToContents();
  QString text;
  if (!r.command.empty()) {
    QStringList cmd;
    for (const auto& a : r.command) cmd << QString::fromStdString(a);
    text += "$ " + cmd.join(' ') + "\n";
  }
  if (!r.log.empty()) {
    text += withCarets(QString::fromStdString(r.log), source, file);
    if (!text.endsWith('\n')) text += '\n';
  }
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
