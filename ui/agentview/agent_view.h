// What the agent was shown for one attempt: the prompt's sections by tier (hot, warm, cold) with their token
// counts against the budget (a bar), the Cases and Journal entries that entered it (activating one selects it
// in the graph), those ranked but left out for lack of budget, what the memory's Retrieve returned
// (attempt_context), the reply (answer and reasoning), usage and cost.
// Reads through the stores only: the transcript from kope::agent::AgentStore (a reader over the workspace's
// connection, which answers none where no LLM attempt was made), what Retrieve returned from MemoryStore.
#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>
#include <optional>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;
class QPlainTextEdit;

namespace kope::agent {
class AgentStore;
struct AttemptRecord;
struct Prompt;
struct SectionRecord;
}
namespace kope::memory {
class MemoryStore;
}

namespace kope::agentview {

// Hot, warm and cold tokens against the budget B_k.
class BudgetBar : public QWidget {
  Q_OBJECT
 public:
  explicit BudgetBar(QWidget* parent = nullptr);
  void set(int64_t hot, int64_t warm, int64_t cold, int64_t budget);
  QSize sizeHint() const override { return {300, 22}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  int64_t hot_ = 0, warm_ = 0, cold_ = 0, budget_ = 0;
};

class AgentView : public QWidget {
  Q_OBJECT
 public:
  explicit AgentView(QWidget* parent = nullptr);
  // Borrows the stores (either may be null: nothing to show).
  void setStores(const kope::agent::AgentStore* agent, const kope::memory::MemoryStore* memory) {
    agent_ = agent;
    memory_ = memory;
  }
  // The attempt that produced this evaluation (0: none).
  void showEvaluation(int64_t evaluationId);
  void showAttempt(int64_t attemptId);
  // A prompt as the agent assembled it, before (or without) its record: sections by tier, what was left out and
  // why, the budget bar. `title` heads it (plain text).
  void showPrompt(const kope::agent::Prompt& prompt, const QString& title);
  // Compact, for a live view that shows the reply apart and heads the prompt itself: no reply box, no header
  // line, the budget's arithmetic in the bar's tooltip instead of a line of its own.
  void setCompact(bool compact);
  QString summaryText() const;  // the header and usage lines (tests)
  // Sets every text again in the current language (the graph browser calls it on a language change).
  void retranslate();
  QTreeWidget* tree() const { return tree_; }
  // The width the section column's text needs (its header and every row's label); the column is never narrower.
  int sectionColumnContentWidth() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 signals:
  void caseActivated(qint64 caseId);

 private:
  void showContext(int64_t evaluationId);
  void showSections(const std::vector<kope::agent::SectionRecord>& sections, int64_t budget);
  int64_t caseOf(const kope::agent::SectionRecord& s) const;
  void fitColumns();
  const kope::agent::AgentStore* agent_ = nullptr;
  const kope::memory::MemoryStore* memory_ = nullptr;
  QLabel *header_, *usage_;
  BudgetBar* bar_;
  QTreeWidget* tree_;
  QPlainTextEdit* reply_;
  std::optional<int64_t> shownAttempt_;  // what is on show, for retranslate()
  int64_t shownEvaluation_ = 0;
};

}  // namespace kope::agentview
