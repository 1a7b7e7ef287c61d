// What the agent was shown. See agent_view.h.
#include "agent_view.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "kope/agent/context.h"
#include "kope/agent/store.h"
#include "kope/memory/memory.h"

namespace kope::agentview {

using kope::agent::AttemptRecord;
using kope::agent::SectionRecord;

namespace {

const char* const kTiers[3] = {QT_TRANSLATE_NOOP("kope::agentview::AgentView", "hot"),
                               QT_TRANSLATE_NOOP("kope::agentview::AgentView", "warm"),
                               QT_TRANSLATE_NOOP("kope::agentview::AgentView", "cold")};

QString tierWord(const std::string& tier) {
  for (const char* t : kTiers)
    if (tier == t) return QCoreApplication::translate("kope::agentview::AgentView", t);
  return QString::fromStdString(tier);
}

// An attempt's status in the interface's language: the agent's own steps here; an evaluation's verdict from the
// window's status words (context "Status", ui/models/status.cpp), where "runtime_error" reads "runtime error".
QString statusWord(const std::string& s) {
  static const char* const own[][2] = {
      {"requested", QT_TRANSLATE_NOOP("kope::agentview::AgentView", "requested")},
      {"candidate", QT_TRANSLATE_NOOP("kope::agentview::AgentView", "candidate")},
      {"no_candidate", QT_TRANSLATE_NOOP("kope::agentview::AgentView", "no candidate")},
      {"evaluated", QT_TRANSLATE_NOOP("kope::agentview::AgentView", "evaluated")}};
  for (const auto& [key, text] : own)
    if (s == key) return QCoreApplication::translate("kope::agentview::AgentView", text);
  return QCoreApplication::translate("Status", QString::fromStdString(s).replace('_', ' ').toUtf8().constData());
}

}  // namespace

BudgetBar::BudgetBar(QWidget* parent) : QWidget(parent) { setMinimumHeight(20); }

void BudgetBar::set(int64_t hot, int64_t warm, int64_t cold, int64_t budget) {
  hot_ = hot;
  warm_ = warm;
  cold_ = cold;
  budget_ = budget;
  setToolTip(tr("hot %1 + warm %2 + cold %3 = %4 of %5 tokens").arg(hot).arg(warm).arg(cold).arg(hot + warm + cold).arg(budget));
  update();
}

void BudgetBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
  p.fillRect(r, QColor(0xee, 0xee, 0xee));
  const double total = std::max<double>({1.0, double(budget_), double(hot_ + warm_ + cold_)});
  double x = r.left();
  const std::pair<int64_t, QColor> segs[] = {{hot_, QColor(0xd8, 0x43, 0x15)}, {warm_, QColor(0xf9, 0xa8, 0x25)},
                                             {cold_, QColor(0x42, 0x85, 0xf4)}};
  for (const auto& [v, c] : segs) {
    const double w = r.width() * double(v) / total;
    p.fillRect(QRectF(x, r.top(), w, r.height()), c);
    x += w;
  }
  if (budget_ > 0) {  // the budget line
    const double bx = r.left() + r.width() * double(budget_) / total;
    p.setPen(QPen(Qt::black, 2));
    p.drawLine(QPointF(bx, r.top()), QPointF(bx, r.bottom()));
  }
  p.setPen(Qt::black);
  p.drawRect(r);
  p.drawText(r.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
             tr("hot %1 · warm %2 · cold %3 / B %4 tokens").arg(hot_).arg(warm_).arg(cold_).arg(budget_));
}

AgentView::AgentView(QWidget* parent) : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  header_ = new QLabel(this);
  header_->setTextFormat(Qt::RichText);  // what goes in is escaped where it is set
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar_ = new BudgetBar(this);
  usage_ = new QLabel(this);
  usage_->setTextFormat(Qt::PlainText);  // a server's finish reason and error: never markup
  usage_->setWordWrap(true);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->setObjectName("agent-split");
  tree_ = new QTreeWidget(split);
  tree_->setColumnCount(4);
  tree_->setHeaderLabels({QString(), QString(), QString(), QString()});
  // The section column is never narrower than its text (the tier names, the labels): the numbers take what they
  // need, the section the rest, and a narrow dock scrolls sideways instead of squeezing it.
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  // The kind (with why a section was left out) elides; its tooltip has it all.
  tree_->header()->setSectionResizeMode(1, QHeaderView::Interactive);
  tree_->header()->resizeSection(1, 110);
  tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  tree_->viewport()->installEventFilter(this);
  // The header and four rows at least: a short dock squeezes the reply first.
  tree_->setMinimumHeight(tree_->header()->sizeHint().height() + 4 * tree_->fontMetrics().height() * 3 / 2);
  reply_ = new QPlainTextEdit(split);
  reply_->setReadOnly(true);
  lay->addWidget(header_);
  lay->addWidget(bar_);
  lay->addWidget(usage_);
  split->setStretchFactor(0, 3);  // the sections matter most; the reply reads fine in less
  split->setStretchFactor(1, 2);
  lay->addWidget(split, 1);
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it, int) {
    const qint64 c = it->data(0, Qt::UserRole).toLongLong();
    if (c > 0) emit caseActivated(c);
  });
  connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it, int) {
    const qint64 c = it->data(0, Qt::UserRole).toLongLong();
    if (c > 0) emit caseActivated(c);
  });
  retranslate();
}

void AgentView::retranslate() {
  tree_->setHeaderLabels({tr("section"), tr("kind"), tr("tokens"), tr("rank")});
  if (shownAttempt_) showAttempt(*shownAttempt_);
  else showEvaluation(shownEvaluation_);
}

bool AgentView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitColumns();
  return QWidget::eventFilter(watched, event);
}

void AgentView::fitColumns() {
  int others = 0;
  for (int c = 1; c < tree_->columnCount(); ++c) others += tree_->header()->sectionSize(c);
  tree_->header()->resizeSection(0, std::max(sectionColumnContentWidth(), tree_->viewport()->width() - others));
}

int AgentView::sectionColumnContentWidth() const {
  // QTreeView makes its override protected; the base class's is public (the same virtual).
  const auto* view = static_cast<const QAbstractItemView*>(tree_);
  return std::max(view->sizeHintForColumn(0), tree_->header()->sectionSizeHint(0));
}

QString AgentView::summaryText() const { return header_->text() + "\n" + usage_->text(); }

void AgentView::showEvaluation(int64_t evaluationId) {
  shownAttempt_.reset();
  shownEvaluation_ = evaluationId;
  std::optional<int64_t> a;
  try {
    if (agent_ && evaluationId > 0) a = agent_->attempt_of_evaluation(evaluationId);
  } catch (const std::exception&) {
  }
  if (a) {
    showAttempt(*a);
    return;
  }
  header_->setText(evaluationId > 0 ? tr("Evaluation %1: no transcript (not an LLM attempt).").arg(evaluationId)
                                    : tr("No transcript (not an LLM attempt)."));
  bar_->set(0, 0, 0, 0);
  usage_->clear();
  reply_->clear();
  tree_->clear();
  showContext(evaluationId);
  fitColumns();
}

void AgentView::showContext(int64_t evaluationId) {
  if (!memory_ || evaluationId <= 0) return;
  std::vector<kope::memory::ContextRow> rows;
  try {
    rows = memory_->context(evaluationId);
  } catch (const std::exception&) {  // the database busy under a running loop: shown at the next selection
    return;
  }
  QTreeWidgetItem* group = nullptr;
  for (const auto& c : rows) {
    if (!group) {
      group = new QTreeWidgetItem(tree_, {tr("retrieved by memory before this attempt")});
      group->setFirstColumnSpanned(true);
    }
    auto* it = new QTreeWidgetItem(group, {tr("#%1 Case %2 (%3)").arg(c.rank).arg(c.case_id).arg(QString::fromStdString(c.provenance)),
                                           QString::fromStdString(c.kind), QString(), QString::number(c.score, 'f', 3)});
    it->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(c.case_id));
    it->setForeground(0, QColor(0x15, 0x65, 0xc0));
  }
  if (group) group->setExpanded(true);
  fitColumns();
}

// A section's Case, to select in the graph: its own for a Case or failure, its Journal entry's for a Journal one.
int64_t AgentView::caseOf(const SectionRecord& s) const {
  if (s.source_kind == "case" || s.source_kind == "failure") return s.source_id;
  if (s.source_kind == "journal" && memory_) return memory_->case_of_journal(s.source_id).value_or(0);
  return 0;
}

void AgentView::showAttempt(int64_t attemptId) {
  shownAttempt_ = attemptId;
  tree_->clear();
  std::optional<AttemptRecord> t;
  try {
    t = agent_ ? agent_->attempt(attemptId) : std::nullopt;
  } catch (const std::exception& e) {
    header_->setText(tr("Cannot read the transcript: %1").arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
    return;
  }
  if (!t) {
    header_->setText(tr("No transcript (not an LLM attempt)."));
    bar_->set(0, 0, 0, 0);
    usage_->clear();
    reply_->clear();
    return;
  }
  // Rich text: every recorded value (a configured provider and model, the task, the reason) is escaped.
  auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
  const auto& h = t->header;
  header_->setText(tr("<b>Attempt %1</b> · run %2 · %3 on %4 · iteration %5 · %6/%7 · memory %8 · %9%10")
                       .arg(t->id).arg(h.run_id).arg(esc(h.task), esc(h.device))
                       .arg(h.iteration)
                       .arg(esc(h.provider), esc(h.model), esc(h.arm), statusWord(t->status).toHtmlEscaped(),
                            t->reason.empty() ? QString() : " (" + esc(t->reason) + ")"));
  const auto& b = t->budget;
  showSections(t->sections, b.is_object() && b.contains("B") && b["B"].is_number() ? b["B"].get<int64_t>() : 0);
  if (const auto& x = t->exchange) {
    usage_->setText(tr("usage: %1 prompt + %2 completion tokens (%3) · %4 s · finish %5 · cost %6%7")
                        .arg(x->prompt_tokens).arg(x->completion_tokens)
                        .arg(x->usage_from_server ? tr("reported by the server") : tr("estimated"))
                        .arg(x->latency_s, 0, 'f', 1)
                        .arg(QString::fromStdString(x->finish_reason),
                             x->cost ? QStringLiteral("$%1").arg(*x->cost, 0, 'f', 4) : tr("unknown"),
                             x->error.empty() ? QString() : tr(" · error: %1").arg(QString::fromStdString(x->error))));
    reply_->setPlainText(tr("— answer —\n") + QString::fromStdString(x->answer) +
                         (x->reasoning.empty() ? QString() : tr("\n\n— reasoning —\n") + QString::fromStdString(x->reasoning)));
  } else {
    usage_->setText(tr("no reply recorded (the request did not complete)"));
    reply_->clear();
  }
  if (t->evaluation_id) showContext(*t->evaluation_id);
  fitColumns();
}

void AgentView::showPrompt(const kope::agent::Prompt& p, const QString& title) {
  tree_->clear();
  header_->setText(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
  const auto& b = p.budget;
  usage_->setText(tr("budget B = W %1 − system %2 − output %3 − reserve %4 = %5 tokens")
                      .arg(b.window).arg(b.system).arg(b.generation).arg(b.reserve).arg(b.budget));
  std::vector<SectionRecord> sections;
  auto add = [&](const kope::agent::Section& s, bool included) {
    SectionRecord r;
    r.included = included;
    r.name = s.name;
    r.tier = std::string(kope::agent::tier_name(s.tier));
    r.source_kind = s.source_kind;
    r.label = s.label;
    r.source_id = s.source_id;
    r.tokens = s.tokens;
    r.rank = s.rank;
    sections.push_back(std::move(r));
  };
  for (const auto& s : p.sections) add(s, true);
  for (const auto& s : p.left_out) add(s, false);
  showSections(sections, b.budget);
  reply_->clear();
  bar_->setToolTip(bar_->toolTip() + "\n" + usage_->text());
}

void AgentView::setCompact(bool compact) {
  reply_->setVisible(!compact);
  header_->setVisible(!compact);
  usage_->setVisible(!compact);
}

namespace {

// Why a section was left out, from the name Assemble gives it ("left out: budget" and the like).
QString leftOutReason(const std::string& name) {
  if (name == "left out: budget") return AgentView::tr("no room left in the budget");
  if (name == "left out: quota") return AgentView::tr("over its tier's quota");
  if (name == "left out: not relevant") return AgentView::tr("not relevant to this state");
  return QString::fromStdString(name);
}

}  // namespace

// The sections by tier with their tokens (and the budget bar), those left out in a group of their own with why.
void AgentView::showSections(const std::vector<SectionRecord>& sections, int64_t budget) {
  int64_t tier_tokens[3] = {0, 0, 0};
  QTreeWidgetItem* groups[3];
  for (int i = 0; i < 3; ++i) {
    groups[i] = new QTreeWidgetItem(tree_, {tr(kTiers[i])});
    groups[i]->setExpanded(true);
  }
  QTreeWidgetItem* left = nullptr;
  for (const auto& s : sections) {
    const int ti = s.tier == "hot" ? 0 : s.tier == "warm" ? 1 : 2;
    QTreeWidgetItem* parent = groups[ti];
    QString kind = QString::fromStdString(s.source_kind);
    if (!s.included) {
      if (!left) {
        left = new QTreeWidgetItem(tree_, {tr("ranked but left out")});
        left->setExpanded(true);
      }
      parent = left;
      kind = tr("%1 (%2): %3").arg(kind, tierWord(s.tier), leftOutReason(s.name));
    } else {
      tier_tokens[ti] += s.tokens;
    }
    auto* it = new QTreeWidgetItem(parent, {QString::fromStdString(s.label.empty() ? s.name : s.label), kind,
                                            QString::number(s.tokens), QString::number(s.rank, 'f', 2)});
    it->setToolTip(0, it->text(0));
    it->setToolTip(1, kind);
    if (const int64_t c = caseOf(s); c > 0) {
      it->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(c));
      it->setForeground(0, QColor(0x15, 0x65, 0xc0));
      it->setToolTip(0, tr("Select Case %1 in the graph").arg(c));
    }
  }
  for (int i = 0; i < 3; ++i)
    groups[i]->setText(0, tr("%1 — %2 tokens").arg(tr(kTiers[i])).arg(tier_tokens[i]));
  bar_->set(tier_tokens[0], tier_tokens[1], tier_tokens[2], budget);
}

}  // namespace kope::agentview
