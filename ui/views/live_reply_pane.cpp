#include "live_reply_pane.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTabBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cstdlib>

#include "agentview/agent_view.h"
#include "models/status.h"
#include "models/qtext.h"

namespace kope::ui {

namespace {

// Appends at the end; the view follows the text only when it was at the bottom, so a person reading further up
// is not pulled down.
void appendText(QPlainTextEdit* view, const QString& text) {
  if (text.isEmpty()) return;
  QScrollBar* bar = view->verticalScrollBar();
  const bool follow = bar->value() >= bar->maximum() - 4;
  QTextCursor c(view->document());
  c.movePosition(QTextCursor::End);
  c.insertText(text);
  if (follow) bar->setValue(bar->maximum());
}

}  // namespace

LiveReplyPane::LiveReplyPane(QWidget* parent) : QWidget(parent) {
  setObjectName("live-reply");
  model_ = new LiveReplyModel(this);
  buildViews();
  tick_ = new QTimer(this);
  tick_->setInterval(250);
  connect(tick_, &QTimer::timeout, this, [this] {
    model_->tick();
    updateLines();
  });
  connect(model_, &LiveReplyModel::promptArrived, this, [this](int row) {
    const std::string task = model_->at(row).who.task;
    addTab(task);
    const int shown = shownRow();
    if (shown_.empty() || (!chosen_ && (shown < 0 || !model_->at(shown).live()))) shown_ = task;
    if (task == shown_) render();
    tick_->start();
  });
  connect(model_, &LiveReplyModel::textAppended, this, &LiveReplyPane::append);
  connect(model_, &LiveReplyModel::ended, this, [this](int row) {
    if (row == shownRow()) updateLines();
    bool any = false;
    for (const LiveReplyRow& r : model_->rows()) any = any || r.live();
    if (!any) tick_->stop();
  });
  connect(tabs_, &QTabBar::tabBarClicked, this, [this](int i) {
    if (i < 0) return;
    showTask(tabs_->tabText(i).toStdString());
    emit taskChosen(tabs_->tabText(i));
  });
  retranslate();
  render();
}

// The task tabs and two lines on top; the prompt above the reply in a splitter; the reasoning folded above the
// answer.
void LiveReplyPane::buildViews() {
  tabs_ = new QTabBar;
  tabs_->setObjectName("live-tasks");
  tabs_->setExpanding(false);
  tabs_->setDocumentMode(true);
  tabs_->setElideMode(Qt::ElideRight);
  tabs_->hide();  // shown once a second task is in flight
  title_ = new QLabel;
  title_->setObjectName("live-title");
  title_->setTextFormat(Qt::PlainText);  // task and model names
  title_->setWordWrap(true);
  stats_ = new QLabel;
  stats_->setObjectName("live-stats");
  stats_->setTextFormat(Qt::PlainText);
  stats_->setWordWrap(true);
  QFont bold = stats_->font();
  bold.setBold(true);
  title_->setFont(bold);

  prompt_ = new kope::agentview::AgentView;
  prompt_->setObjectName("live-prompt");
  prompt_->setCompact(true);
  fold_ = new QToolButton;
  fold_->setObjectName("live-reasoning-toggle");
  fold_->setCheckable(true);
  fold_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  fold_->setAutoRaise(true);
  reasoning_ = new QPlainTextEdit;
  reasoning_->setObjectName("live-reasoning");
  reasoning_->setReadOnly(true);
  reasoning_->setStyleSheet("QPlainTextEdit { color: #555; background: #f6f6f2; }");
  reasoning_->hide();
  connect(fold_, &QToolButton::toggled, this, [this](bool open) {
    reasoning_->setVisible(open);
    updateLines();
  });
  answer_ = new QPlainTextEdit;
  answer_->setObjectName("live-answer");
  answer_->setReadOnly(true);
  answer_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  auto* reply = new QWidget;
  auto* rl = new QVBoxLayout(reply);
  rl->setContentsMargins(0, 0, 0, 0);
  rl->setSpacing(2);
  rl->addWidget(fold_);
  rl->addWidget(reasoning_, 1);
  rl->addWidget(answer_, 3);

  // Small minimums: the run controller still fits a 700-high window with the pane in it.
  prompt_->setMinimumHeight(40);
  reply->setMinimumHeight(40);
  answer_->setMinimumHeight(24);
  reasoning_->setMinimumHeight(24);
  answer_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));  // replies are mostly code
  split_ = new QSplitter(Qt::Vertical);
  split_->addWidget(prompt_);
  split_->addWidget(reply);
  split_->setStretchFactor(0, 2);
  split_->setStretchFactor(1, 3);
  split_->setChildrenCollapsible(false);
  connect(split_, &QSplitter::splitterMoved, this, [this] { user_split_ = true; });
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(2);
  l->addWidget(tabs_);
  l->addWidget(title_);
  l->addWidget(stats_);
  l->addWidget(split_, 1);
}

void LiveReplyPane::apply(const LiveEvent& e) { model_->apply(e); }

void LiveReplyPane::clear() {
  model_->clear();
  while (tabs_->count() > 0) tabs_->removeTab(0);
  tabs_->hide();
  shown_.clear();
  chosen_ = false;
  tick_->stop();
  render();
}

void LiveReplyPane::showTask(const std::string& task) {
  if (task.empty()) return;
  chosen_ = true;
  if (task == shown_) return;
  shown_ = task;
  render();
}

void LiveReplyPane::addTab(const std::string& task) {
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->tabText(i) == q(task)) return;
  tabs_->addTab(q(task));
  tabs_->setVisible(tabs_->count() > 1);
}

int LiveReplyPane::shownRow() const { return shown_.empty() ? -1 : model_->rowOf(shown_); }

// The shown task's attempt in full: its prompt, the text so far, the lines.
void LiveReplyPane::render() {
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->tabText(i) == q(shown_)) {
      QSignalBlocker b(tabs_);
      tabs_->setCurrentIndex(i);
    }
  const int row = shownRow();
  if (row < 0) {
    prompt_->showPrompt({}, tr("No prompt yet"));
    answer_->clear();
    reasoning_->clear();
    updateLines();
    return;
  }
  const LiveReplyRow& r = model_->at(row);
  if (r.prompt)
    prompt_->showPrompt(*r.prompt, tr("The prompt of attempt %1 on %2, by tier").arg(r.who.iteration).arg(q(r.who.task)));
  answer_->setPlainText(q(r.answer));
  reasoning_->setPlainText(q(r.reasoning));
  answer_->verticalScrollBar()->setValue(answer_->verticalScrollBar()->maximum());
  reasoning_->verticalScrollBar()->setValue(reasoning_->verticalScrollBar()->maximum());
  updateLines();
  fitSplit();
}

void LiveReplyPane::append(int row, const QString& answer, const QString& reasoning, bool restart) {
  if (row != shownRow()) return;
  if (restart) {
    render();
    return;
  }
  appendText(answer_, answer);
  appendText(reasoning_, reasoning);
  updateLines();
  fitSplit();
}

void LiveReplyPane::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  QTimer::singleShot(0, this, &LiveReplyPane::fitSplit);
}

void LiveReplyPane::fitSplit() {
  const int total = split_->height();
  if (user_split_ || total <= 0) return;
  const int row = shownRow();
  const bool replying = row >= 0 && (!model_->at(row).answer.empty() || !model_->at(row).reasoning.empty());
  const int prompt = total * (replying ? 35 : 70) / 100;
  if (std::abs(split_->sizes().value(0) - prompt) > 4) split_->setSizes({prompt, total - prompt});
}

// The title (task, attempt, model, where the reply is), the figures so far, and the reasoning's fold.
void LiveReplyPane::updateLines() {
  const int row = shownRow();
  if (row < 0) {
    title_->setText(tr("No LLM attempt yet: the model's reply streams in here once a run's policy asks a model."));
    stats_->clear();
    stats_->hide();
    fold_->setText(tr("Reasoning"));
    fold_->setEnabled(false);
    return;
  }
  const LiveReplyRow& r = model_->at(row);
  QString where = statusText(r.phase);
  if (!r.error.empty()) where += tr(": %1").arg(q(r.error));
  title_->setText(tr("%1 · attempt %2 · %3 — %4").arg(q(r.who.task)).arg(r.who.iteration).arg(q(r.who.model), where));
  stats_->setText(tr("Tokens %1 · cost %2 · time %3")
                      .arg(LiveReplyModel::tokensText(r), LiveReplyModel::costText(r),
                           LiveReplyModel::timeText(LiveReplyModel::seconds(r))));
  stats_->show();
  const bool any = !r.reasoning.empty();
  fold_->setEnabled(any);
  fold_->setArrowType(fold_->isChecked() && any ? Qt::DownArrow : Qt::RightArrow);
  fold_->setText(any ? tr("Reasoning: %1 characters").arg(q(r.reasoning).size())
                     : tr("Reasoning (none reported apart from the answer)"));
  reasoning_->setVisible(any && fold_->isChecked());
}

void LiveReplyPane::retranslate() {
  model_->retranslate();
  fold_->setToolTip(tr("The model's reasoning (reasoning_content or thinking), kept apart from the answer"));
  answer_->setPlaceholderText(tr("The answer streams in here."));
  render();
}

}  // namespace kope::ui
