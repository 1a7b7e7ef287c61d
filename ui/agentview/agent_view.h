// What the agent was shown for one attempt: the prompt's sections by tier (hot, warm, cold) with their token
// counts against the budget (a bar), the Cases and Journal entries that entered it (activating one selects it
// in the graph), those ranked but left out for lack of budget, what the memory's Retrieve returned
// (attempt_context), the reply (answer and reasoning), usage and cost.
// Reads the LLM transcript tables (agent_attempts, agent_sections, agent_exchanges; written by core/agent on the
// llm branch) with plain SQL, each guarded by a "table exists" check, so it builds without that code; at the
// merge it can switch to kope::agent::AgentStore::transcript().
#pragma once

#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

struct sqlite3;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;
class QPlainTextEdit;

namespace kope::agentview {

struct Section {
  bool included = true;
  std::string name, tier, sourceKind, label;
  int64_t sourceId = 0;
  int64_t tokens = 0;
  double rank = 0;
};

struct Transcript {
  int64_t attempt = 0, run = 0, iteration = 0;
  std::optional<int64_t> evaluation;
  std::string task, device, provider, model, memory, status, reason;
  int64_t budget = 0, window = 0, system = 0, generation = 0, reserve = 0;
  std::vector<Section> sections;
  bool hasExchange = false;
  std::string answer, reasoning, finishReason, error;
  int64_t promptTokens = 0, completionTokens = 0;
  bool usageFromServer = false;
  double latency = 0;
  std::optional<double> cost;
};

// Reads one attempt's transcript; nullopt when the tables are absent or the attempt is unknown.
std::optional<Transcript> read_transcript(sqlite3* db, int64_t attempt);
std::optional<int64_t> attempt_of_evaluation(sqlite3* db, int64_t evaluation);
bool table_exists(sqlite3* db, const char* name);

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
  // Borrows the workspace connection.
  void setDatabase(sqlite3* db) { db_ = db; }
  // The attempt that produced this evaluation (0: none).
  void showEvaluation(int64_t evaluationId);
  void showAttempt(int64_t attemptId);
  QString summaryText() const;  // the header and usage lines (tests)
  QTreeWidget* tree() const { return tree_; }

 signals:
  void caseActivated(qint64 caseId);

 private:
  void showContext(int64_t evaluationId);
  sqlite3* db_ = nullptr;
  QLabel *header_, *usage_;
  BudgetBar* bar_;
  QTreeWidget* tree_;
  QPlainTextEdit* reply_;
};

}  // namespace kope::agentview
