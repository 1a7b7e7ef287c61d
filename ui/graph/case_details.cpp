// The Case details panel. See case_details.h.
#include "case_details.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "flow_layout.h"
#include "graph_model.h"

namespace kope::graph {

namespace {
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString fmt(double v, int prec = 2) { return QString::number(v, 'f', prec); }
}  // namespace

QString diffHtml(const std::string& diff) {
  QString out = QStringLiteral("<pre style='font-family:monospace; font-size:9pt; margin:0'>");
  const QStringList lines = QString::fromStdString(diff).split('\n');
  for (const QString& l : lines) {
    const QString e = l.toHtmlEscaped();
    if (l.startsWith("+++") || l.startsWith("---")) out += "<b>" + e + "</b>\n";
    else if (l.startsWith('+')) out += "<span style='background:#e6ffec;color:#116329'>" + e + "</span>\n";
    else if (l.startsWith('-')) out += "<span style='background:#ffebe9;color:#82071e'>" + e + "</span>\n";
    else if (l.startsWith("@@")) out += "<span style='color:#0550ae'>" + e + "</span>\n";
    else out += e + "\n";
  }
  return out + "</pre>";
}

CaseDetails::CaseDetails(QWidget* parent) : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  title_ = new QLabel(this);
  title_->setTextFormat(Qt::RichText);  // every recorded value in it is escaped
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  body_ = new QTextBrowser(this);
  body_->setOpenLinks(false);
  // The buttons wrap onto a second row in a narrow dock rather than cutting their labels.
  auto* buttons = new FlowLayout;
  open_ = new QPushButton(this);
  compareIncumbent_ = new QPushButton(this);
  compareOther_ = new QPushButton(this);
  fork_ = new QPushButton(this);
  for (auto* b : {open_, compareIncumbent_, compareOther_, fork_}) {
    b->setEnabled(false);
    buttons->addWidget(b);
  }
  lay->addWidget(title_);
  lay->addLayout(buttons);
  lay->addWidget(body_, 1);
  connect(open_, &QPushButton::clicked, this, [this] { emit openInEditor(kernelId_.value_or(0), source_); });
  connect(compareIncumbent_, &QPushButton::clicked, this, [this] {
    if (eval_ && incEval_) emit compare(*incEval_, *eval_);
  });
  connect(compareOther_, &QPushButton::clicked, this, [this] {
    if (eval_ && otherEval_) emit compare(*otherEval_, *eval_);
  });
  connect(fork_, &QPushButton::clicked, this, [this] {
    if (eval_) emit forkFrom(*eval_);
  });
  retranslate();
}

void CaseDetails::retranslate() {
  open_->setText(tr("Open in editor"));
  compareIncumbent_->setText(tr("Compare with incumbent"));
  compareOther_->setText(tr("Compare with selected"));
  fork_->setText(tr("Fork run from here"));
  if (shown_) showCase(*shown_);
  else title_->setText(tr("Select a Case in the graph."));
}

void CaseDetails::clear() {
  shown_.reset();
  caseId_.reset();
  eval_.reset();
  title_->setText(tr("Select a Case in the graph."));
  body_->clear();
  for (auto* b : {open_, compareIncumbent_, compareOther_, fork_}) b->setEnabled(false);
}

QString CaseDetails::text() const { return title_->text() + "\n" + body_->toPlainText(); }

void CaseDetails::showCase(const CaseDetailsData& data) {
  shown_ = data;
  const CaseDetailsData& d = *shown_;
  const auto& r = d.row;
  caseId_ = r.id;
  eval_ = r.evaluation_id;
  incEval_ = d.incumbentEvaluation;
  otherEval_ = d.otherEvaluation;
  kernelId_ = r.kernel_id;
  source_ = QString::fromStdString(d.kernelSource);
  QStringList marks;
  if (d.incumbent) marks << tr("incumbent");
  if (r.pruned) marks << tr("pruned");
  if (r.pinned) marks << tr("pinned");
  if (r.flag == "cheat") marks << tr("marked as cheat");
  else if (r.flag == "invalid") marks << tr("marked as invalid measurement");
  else if (!r.flag.empty()) marks << QString::fromStdString(r.flag);
  if (r.origin != "local" && !r.origin.empty()) marks << tr("foreign (%1)").arg(QString::fromStdString(r.origin));
  title_->setText(tr("<b>Case #%1</b> · %2 on %3 · %4 · %5%6")
                      .arg(r.id)
                      .arg(esc(r.task), esc(r.device), outcomeText(QString::fromStdString(r.label)).toHtmlEscaped(),
                           r.correct ? tr("correct, %1×").arg(fmt(r.a)) : tr("incorrect (%1)").arg(statusWord(r.status).toHtmlEscaped()),
                           marks.isEmpty() ? QString() : " · " + marks.join(", ").toHtmlEscaped()));
  open_->setEnabled(r.kernel_id.has_value() || !d.kernelSource.empty());
  compareIncumbent_->setEnabled(eval_ && incEval_ && *incEval_ != *eval_);
  compareOther_->setEnabled(eval_ && otherEval_ && *otherEval_ != *eval_);
  fork_->setEnabled(eval_.has_value());

  QString h;
  h += "<h3>" + tr("Thought") + "</h3><p>" + (r.thought.empty() ? tr("(none given)") : esc(r.thought)) + "</p>";
  QStringList tags;
  for (const auto& t : r.tags) tags << esc(t);
  h += "<p><b>" + tr("Tags") + ":</b> " + (tags.isEmpty() ? tr("none") : tags.join(", ")) + "</p>";
  h += "<p><b>r</b> = " + fmt(r.r, 3) + " &nbsp; <b>d</b> = " + fmt(r.d, 3) + " &nbsp; <b>c</b> = " + fmt(r.c, 2) +
       " &nbsp; " + tr("parent") + ": " + (r.prev_case_id ? "#" + QString::number(*r.prev_case_id) : tr("baseline")) +
       " &nbsp; " + tr("step") + " " + QString::number(r.step) +
       (r.run_id ? " &nbsp; " + tr("run") + " " + QString::number(*r.run_id) : QString()) + " &nbsp; " +
       esc(r.created_at) + "</p>";
  // Per-case speedups from the stored report.
  h += "<h3>" + tr("Speedups per case") + "</h3>";
  auto rep = nlohmann::json::parse(d.report, nullptr, false);
  if (!d.report.empty() && rep.is_object() && rep.contains("cases") && rep["cases"].is_array() && !rep["cases"].empty()) {
    h += "<table border=0 cellspacing=0 cellpadding=2><tr><th align=left>" + tr("case") + "</th><th align=left>" +
         tr("status") + "</th><th align=right>" + tr("speedup") + "</th><th align=left>" + tr("95% interval") +
         "</th></tr>";
    for (const auto& c : rep["cases"]) {
      QString sp = "—", iv = "—";
      if (c.contains("speedup") && c["speedup"].is_number()) sp = fmt(c["speedup"].get<double>()) + "×";
      if (c.contains("speedup_ci95") && c["speedup_ci95"].is_array() && c["speedup_ci95"].size() == 2)
        iv = "[" + fmt(c["speedup_ci95"][0].get<double>()) + " … " + fmt(c["speedup_ci95"][1].get<double>()) + "]";
      h += "<tr><td>" + esc(c.value("name", std::string())) + "</td><td>" + statusWord(c.value("status", std::string())).toHtmlEscaped() +
           "</td><td align=right>" + sp + "</td><td>" + iv + "</td></tr>";
    }
    h += "</table>";
  } else if (r.interval_lo && r.interval_hi) {
    h += "<p>" + tr("overall %1× [%2 … %3] (no per-case report stored)").arg(fmt(r.a), fmt(*r.interval_lo), fmt(*r.interval_hi)) + "</p>";
  } else {
    h += "<p>" + tr("no report stored for this Case (foreign or synthetic)") + "</p>";
  }
  h += "<h3>" + tr("Feedback") + "</h3><pre style='white-space:pre-wrap'>" +
       (r.feedback.empty() ? tr("(none)") : esc(r.feedback)) + "</pre>";
  h += "<h3>" + tr("Diff against parent") + "</h3>" + (r.diff.empty() ? "<p>" + tr("(no diff: a root or unchanged)") + "</p>" : diffHtml(r.diff));
  h += "<h3>" + tr("Journal") + "</h3>";
  if (d.journal.empty()) h += "<p>" + tr("(no entry)") + "</p>";
  for (const auto& j : d.journal)
    h += "<p><i>#" + QString::number(j.id) + " " + esc(j.kind) + " · " + esc(j.created_at) +
         "</i></p><pre style='white-space:pre-wrap'>" + esc(j.markdown) + "</pre>";
  h += "<h3>" + tr("Curation history") + "</h3>";
  if (d.curation.empty()) h += "<p>" + tr("(never curated)") + "</p>";
  else {
    h += "<ul>";
    for (const auto& a : d.curation)
      h += "<li>" + esc(a.at) + " · <b>" + esc(a.act) + "</b>" + (a.subtree ? tr(" (subtree, %1 Cases)").arg(a.affected) : QString()) +
           " · " + esc(a.who) + (a.why.empty() ? QString() : " · " + esc(a.why)) + "</li>";
    h += "</ul>";
  }
  body_->setHtml(h);
}

}  // namespace kope::graph
