// The model's reply as it comes (issue 20), in the run controller: for the task a person follows (a tab per task
// in flight), the prompt of its current attempt by tier as soon as it is assembled (sections, sources, tokens,
// what was left out and why), then the answer streaming in with the reasoning folded apart, and tokens in and
// out, cost (or "no price set") and time so far, updated live.
#pragma once

#include <QWidget>

#include <string>

#include "models/live_models.h"

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTabBar;
class QTimer;
class QToolButton;

namespace kope::agentview {
class AgentView;
}

namespace kope::ui {

class LiveReplyPane : public QWidget {
  Q_OBJECT
 public:
  explicit LiveReplyPane(QWidget* parent = nullptr);

  LiveReplyModel* model() const { return model_; }
  void apply(const LiveEvent& e);
  // A new run: no task, no text.
  void clear();
  // The task whose attempt is shown ("" while none has started).
  std::string shownTask() const { return shown_; }
  // Follows `task` from now on (a person chose it here or in the tasks in flight).
  void showTask(const std::string& task);

  QTabBar* taskBar() const { return tabs_; }
  QLabel* titleLabel() const { return title_; }
  QLabel* statsLabel() const { return stats_; }
  kope::agentview::AgentView* promptView() const { return prompt_; }
  QPlainTextEdit* answerView() const { return answer_; }
  QPlainTextEdit* reasoningView() const { return reasoning_; }
  QToolButton* reasoningToggle() const { return fold_; }
  void retranslate();

 signals:
  // A person picked a task's tab.
  void taskChosen(const QString& task);

 private:
  void resizeEvent(QResizeEvent* event) override;
  void buildViews();
  void addTab(const std::string& task);
  void render();
  void updateLines();
  // Until a person drags the handle: the prompt takes most of the room while the reply has not started, the
  // reply once it has.
  void fitSplit();
  void append(int row, const QString& answer, const QString& reasoning, bool restart);
  int shownRow() const;

  LiveReplyModel* model_ = nullptr;
  std::string shown_;
  bool chosen_ = false;  // a person chose the task: new attempts of others do not take the pane
  bool user_split_ = false;  // a person dragged the prompt/reply handle: it stays where they put it
  QTabBar* tabs_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* stats_ = nullptr;
  QSplitter* split_ = nullptr;
  kope::agentview::AgentView* prompt_ = nullptr;
  QToolButton* fold_ = nullptr;
  QPlainTextEdit* reasoning_ = nullptr;
  QPlainTextEdit* answer_ = nullptr;
  QTimer* tick_ = nullptr;
};

}  // namespace kope::ui
