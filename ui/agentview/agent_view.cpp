// What the agent was shown. See agent_view.h.
#include "agent_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "kope/store/db.h"

namespace kope::agentview {

using kope::store::Stmt;

bool table_exists(sqlite3* db, const char* name) {
  if (!db) return false;
  Stmt s(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
  s.bind(1, std::string(name));
  return s.step();
}

std::optional<int64_t> attempt_of_evaluation(sqlite3* db, int64_t evaluation) {
  if (!table_exists(db, "agent_attempts")) return std::nullopt;
  Stmt s(db, "SELECT id FROM agent_attempts WHERE evaluation_id=? ORDER BY id DESC LIMIT 1");
  s.bind(1, evaluation);
  if (!s.step()) return std::nullopt;
  return s.i64(0);
}

std::optional<Transcript> read_transcript(sqlite3* db, int64_t attempt) {
  if (!table_exists(db, "agent_attempts")) return std::nullopt;
  Transcript t;
  {
    Stmt a(db, "SELECT run_id, task, device, iteration, provider, model, memory_arm, budget_json, status, reason, "
               "evaluation_id FROM agent_attempts WHERE id=?");
    a.bind(1, attempt);
    if (!a.step()) return std::nullopt;
    t.attempt = attempt;
    t.run = a.i64(0);
    t.task = a.text(1);
    t.device = a.text(2);
    t.iteration = a.i64(3);
    t.provider = a.text(4);
    t.model = a.text(5);
    t.memory = a.text(6);
    auto b = nlohmann::json::parse(a.text(7), nullptr, false);
    auto get = [&](const char* k) -> int64_t { return b.is_object() && b.contains(k) && b[k].is_number() ? b[k].get<int64_t>() : 0; };
    t.budget = get("B");
    t.window = get("W");
    t.system = get("S");
    t.generation = get("G");
    t.reserve = get("R");
    t.status = a.text(8);
    t.reason = a.text(9);
    t.evaluation = a.opt_i64(10);
  }
  if (table_exists(db, "agent_sections")) {
    Stmt s(db, "SELECT included, name, tier, source_kind, source_id, label, tokens, rank FROM agent_sections "
               "WHERE attempt_id=? ORDER BY ord");
    s.bind(1, attempt);
    while (s.step())
      t.sections.push_back({s.i64(0) != 0, s.text(1), s.text(2), s.text(3), s.text(5), s.i64(4), s.i64(6), s.f64(7)});
  }
  if (table_exists(db, "agent_exchanges")) {
    Stmt x(db, "SELECT answer, reasoning, finish_reason, prompt_tokens, completion_tokens, usage_from_server, latency_s, "
               "cost, error FROM agent_exchanges WHERE attempt_id=?");
    x.bind(1, attempt);
    if (x.step()) {
      t.hasExchange = true;
      t.answer = x.text(0);
      t.reasoning = x.text(1);
      t.finishReason = x.text(2);
      t.promptTokens = x.i64(3);
      t.completionTokens = x.i64(4);
      t.usageFromServer = x.i64(5) != 0;
      t.latency = x.f64(6);
      t.cost = x.opt_f64(7);
      t.error = x.text(8);
    }
  }
  return t;
}

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
  tree_ = new QTreeWidget(split);
  tree_->setColumnCount(4);
  tree_->setHeaderLabels({tr("section"), tr("kind"), tr("tokens"), tr("rank")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  reply_ = new QPlainTextEdit(split);
  reply_->setReadOnly(true);
  lay->addWidget(header_);
  lay->addWidget(bar_);
  lay->addWidget(usage_);
  lay->addWidget(split, 1);
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it, int) {
    const qint64 c = it->data(0, Qt::UserRole).toLongLong();
    if (c > 0) emit caseActivated(c);
  });
  connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it, int) {
    const qint64 c = it->data(0, Qt::UserRole).toLongLong();
    if (c > 0) emit caseActivated(c);
  });
  showEvaluation(0);
}

QString AgentView::summaryText() const { return header_->text() + "\n" + usage_->text(); }

void AgentView::showEvaluation(int64_t evaluationId) {
  std::optional<int64_t> a;
  try {
    if (db_ && evaluationId > 0) a = attempt_of_evaluation(db_, evaluationId);
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
}

void AgentView::showContext(int64_t evaluationId) {
  if (!db_ || evaluationId <= 0 || !table_exists(db_, "attempt_context")) return;
  Stmt s(db_, "SELECT rank, case_id, provenance, kind, score FROM attempt_context WHERE evaluation_id=? ORDER BY rank");
  s.bind(1, evaluationId);
  QTreeWidgetItem* group = nullptr;
  while (s.step()) {
    if (!group) {
      group = new QTreeWidgetItem(tree_, {tr("retrieved by memory before this attempt")});
      group->setFirstColumnSpanned(true);
    }
    auto* it = new QTreeWidgetItem(group, {tr("#%1 Case %2 (%3)").arg(s.i64(0)).arg(s.i64(1)).arg(QString::fromStdString(s.text(2))),
                                           QString::fromStdString(s.text(3)), QString(), QString::number(s.f64(4), 'f', 3)});
    it->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(s.i64(1)));
    it->setForeground(0, QColor(0x15, 0x65, 0xc0));
  }
  if (group) group->setExpanded(true);
}

void AgentView::showAttempt(int64_t attemptId) {
  tree_->clear();
  std::optional<Transcript> t;
  try {
    t = db_ ? read_transcript(db_, attemptId) : std::nullopt;
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
  header_->setText(tr("<b>Attempt %1</b> · run %2 · %3 on %4 · iteration %5 · %6/%7 · memory %8 · %9%10")
                       .arg(t->attempt).arg(t->run).arg(esc(t->task), esc(t->device))
                       .arg(t->iteration)
                       .arg(esc(t->provider), esc(t->model), esc(t->memory), esc(t->status),
                            t->reason.empty() ? QString() : " (" + esc(t->reason) + ")"));
  int64_t tier_tokens[3] = {0, 0, 0};
  QTreeWidgetItem* groups[3];
  const char* names[3] = {"hot", "warm", "cold"};
  for (int i = 0; i < 3; ++i) {
    groups[i] = new QTreeWidgetItem(tree_, {QString::fromLatin1(names[i])});
    groups[i]->setExpanded(true);
  }
  QTreeWidgetItem* left = nullptr;
  // A Journal section points at a Journal entry: its Case is the one to select.
  auto case_of = [&](const Section& s) -> int64_t {
    if (s.sourceKind == "case" || s.sourceKind == "failure") return s.sourceId;
    if (s.sourceKind == "journal" && table_exists(db_, "memory_journal")) {
      Stmt j(db_, "SELECT COALESCE(case_id,0) FROM memory_journal WHERE id=?");
      j.bind(1, s.sourceId);
      if (j.step()) return j.i64(0);
    }
    return 0;
  };
  for (const auto& s : t->sections) {
    const int ti = s.tier == "hot" ? 0 : s.tier == "warm" ? 1 : 2;
    QTreeWidgetItem* parent = groups[ti];
    if (!s.included) {
      if (!left) {
        left = new QTreeWidgetItem(tree_, {tr("ranked but left out for lack of budget")});
        left->setExpanded(true);
      }
      parent = left;
    } else {
      tier_tokens[ti] += s.tokens;
    }
    auto* it = new QTreeWidgetItem(parent, {QString::fromStdString(s.label.empty() ? s.name : s.label),
                                            QString::fromStdString(s.sourceKind) + (s.included ? "" : " (" + QString::fromStdString(s.tier) + ")"),
                                            QString::number(s.tokens), QString::number(s.rank, 'f', 2)});
    if (const int64_t c = case_of(s); c > 0) {
      it->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(c));
      it->setForeground(0, QColor(0x15, 0x65, 0xc0));
      it->setToolTip(0, tr("Select Case %1 in the graph").arg(c));
    }
  }
  for (int i = 0; i < 3; ++i)
    groups[i]->setText(0, tr("%1 — %2 tokens").arg(QString::fromLatin1(names[i])).arg(tier_tokens[i]));
  bar_->set(tier_tokens[0], tier_tokens[1], tier_tokens[2], t->budget);
  if (t->hasExchange) {
    usage_->setText(tr("usage: %1 prompt + %2 completion tokens (%3) · %4 s · finish %5 · cost %6%7")
                        .arg(t->promptTokens).arg(t->completionTokens)
                        .arg(t->usageFromServer ? tr("reported by the server") : tr("estimated"))
                        .arg(t->latency, 0, 'f', 1)
                        .arg(QString::fromStdString(t->finishReason),
                             t->cost ? QStringLiteral("$%1").arg(*t->cost, 0, 'f', 4) : tr("unknown"),
                             t->error.empty() ? QString() : tr(" · error: %1").arg(QString::fromStdString(t->error))));
    reply_->setPlainText(tr("— answer —\n") + QString::fromStdString(t->answer) +
                         (t->reasoning.empty() ? QString() : tr("\n\n— reasoning —\n") + QString::fromStdString(t->reasoning)));
  } else {
    usage_->setText(tr("no reply recorded (the request did not complete)"));
    reply_->clear();
  }
  if (t->evaluation) showContext(*t->evaluation);
}

}  // namespace kope::agentview
