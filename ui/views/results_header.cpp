#include "results_header.h"

#include "models/status.h"

namespace kope::ui {

ResultsHeader::ResultsHeader(QWidget* parent) : QLabel(parent) {
  setObjectName("results-header");
  setWordWrap(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setTextFormat(Qt::PlainText);  // task and kernel names, stale reasons: never markup
  setMargin(4);
  setAutoFillBackground(true);
  render();
}

void ResultsHeader::setCurrent(const QString& task, const QString& kernel, const QString& sha, qint64 evaluationId,
                               const QString& status) {
  task_ = task;
  kernel_ = kernel;
  sha_ = sha;
  evaluation_ = evaluationId;
  status_ = status;
  stale_ = running_ = compile_only_ = false;
  render();
}

void ResultsHeader::setCompiled(const QString& task, const QString& kernel, const QString& sha, bool compiled) {
  task_ = task;
  kernel_ = kernel;
  sha_ = sha;
  evaluation_ = 0;
  status_.clear();
  compile_only_ = true;
  compiled_ = compiled;
  stale_ = running_ = false;
  render();
}

void ResultsHeader::setRunning(const QString& task, const QString& kernel, const QString& phase) {
  task_ = task;
  kernel_ = kernel;
  sha_.clear();
  evaluation_ = 0;
  phase_ = phase;
  running_ = true;
  stale_ = compile_only_ = false;
  render();
}

void ResultsHeader::setStale(const QString& reason) {
  if (evaluation_ == 0 && !running_ && !compile_only_) return;
  stale_ = true;
  stale_reason_ = reason;
  render();
}

void ResultsHeader::setEmpty(const QString& task) {
  task_ = task;
  kernel_.clear();
  sha_.clear();
  status_.clear();
  evaluation_ = 0;
  stale_ = running_ = compile_only_ = false;
  render();
}

void ResultsHeader::retranslate() { render(); }

void ResultsHeader::render() {
  QPalette p = palette();
  QString text;
  if (running_) {
    text = tr("Task %1 · kernel %2 · evaluating: %3").arg(task_, kernel_, phase_);
    p.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xd0));
  } else if (compile_only_) {
    text = tr("Task %1 · kernel %2 (%3) · built only, recorded nowhere · %4")
               .arg(task_, kernel_, sha_, compiled_ ? tr("compiles") : statusText("compile_error"));
    p.setColor(QPalette::Window, compiled_ ? QColor(0xe4, 0xee, 0xf8) : QColor(0xf8, 0xe4, 0xe4));
  } else if (evaluation_ == 0) {
    text = task_.isEmpty() ? tr("No task selected.") : tr("Task %1 · no evaluation of this kernel yet.").arg(task_);
    p.setColor(QPalette::Window, QColor(0xee, 0xee, 0xee));
  } else {
    text = tr("Task %1 · kernel %2 (%3) · evaluation %4 · %5")
               .arg(task_, kernel_, sha_, QString::number(evaluation_), statusText(status_.toStdString()));
    p.setColor(QPalette::Window, QColor(0xe4, 0xee, 0xf8));
  }
  if (stale_) {
    text = tr("STALE: %1 — ").arg(stale_reason_) + text;
    p.setColor(QPalette::Window, QColor(0xf8, 0xe0, 0xb0));
  }
  setPalette(p);
  setText(text);
}

}  // namespace kope::ui
