// One attempt in full (issue 20), opened from the run controller's attempts, a Case in the graph or a History
// row through AttemptActions: what it was (task, kernel, parent, status), its diff against its parent kernel, its
// results case by case, and its LLM transcript (the prompt by tier, the reply, usage and cost); buttons for the
// kernel in the editor, the Case in the graph and the comparison with the incumbent.
#pragma once

#include <QWidget>

#include "attempt_actions.h"
#include "models/models.h"

class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace kope::agentview {
class AgentView;
}

namespace kope::ui {

class AttemptPane : public QWidget {
  Q_OBJECT
 public:
  AttemptPane(AttemptActions* actions, QWidget* parent = nullptr);

  // Shows `d`, at `part` (Open: the diff).
  void showAttempt(const AttemptDetails& d, AttemptActions::Act part);
  const AttemptDetails& shown() const { return shown_; }

  QLabel* title() const { return title_; }
  QTabWidget* parts() const { return parts_; }
  QTextBrowser* diffView() const { return diff_; }
  CaseModel* results() const { return results_; }
  QLabel* resultsSummary() const { return summary_; }
  kope::agentview::AgentView* transcript() const { return transcript_; }
  QPushButton* kernelButton() const { return kernel_; }
  QPushButton* caseButton() const { return case_; }
  QPushButton* compareButton() const { return compare_; }
  void retranslate();

 private:
  void showResults();
  AttemptActions* actions_;
  AttemptDetails shown_;
  QLabel* title_ = nullptr;
  QTabWidget* parts_ = nullptr;
  QTextBrowser* diff_ = nullptr;
  QLabel* summary_ = nullptr;
  CaseModel* results_ = nullptr;
  QTableView* results_view_ = nullptr;
  kope::agentview::AgentView* transcript_ = nullptr;
  QWidget* results_box_ = nullptr;
  QPushButton* kernel_ = nullptr;
  QPushButton* case_ = nullptr;
  QPushButton* compare_ = nullptr;
};

}  // namespace kope::ui
