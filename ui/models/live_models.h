// The model's replies as they come (issue 20): one row per task in flight with its current LLM attempt, the
// prompt it was given (sections by tier, what was left out and why), the answer and the reasoning so far, tokens
// in and out, cost and time. Fed on the GUI thread with the events the engine relays from the agent's live
// hooks (kope/agent/live.h); the live pane shows the row of the task a person follows.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "kope/agent/live.h"
#include "row_model.h"

namespace kope::ui {

// One hook call of the agent, copied for the GUI thread. Deltas that arrive while the GUI is busy are merged.
struct LiveEvent {
  enum class Kind { Prompt, Delta, End };
  Kind kind = Kind::Delta;
  agent::LiveAttempt who;
  std::shared_ptr<const agent::Prompt> prompt;  // Prompt
  std::string answer, reasoning;                // Delta: the new text of each kind
  bool restart = false;                         // Delta: drop the text so far first (a retry)
  agent::LiveUsage usage;                       // Delta, End
  std::string status, error;                    // End
};

struct LiveReplyRow {
  agent::LiveAttempt who;
  // "awaiting_reply" (the prompt is assembled, no text yet), "streaming", then how the exchange ended:
  // candidate, no_candidate, cancelled, error.
  std::string phase;
  std::shared_ptr<const agent::Prompt> prompt;
  std::string answer, reasoning;
  agent::LiveUsage usage;
  std::string error;
  std::chrono::steady_clock::time_point started;  // when the prompt reached the window
  double seconds = 0;                             // frozen when the exchange ended
  bool live() const { return phase == "awaiting_reply" || phase == "streaming"; }
};

class LiveReplyModel : public RowModel<LiveReplyRow> {
  Q_OBJECT
 public:
  enum Column { Task, Attempt, Phase, TokensIn, TokensOut, Cost, Time, ColumnCount };
  using RowModel::RowModel;
  int columns() const override { return ColumnCount; }
  QString header(int column) const override;
  QVariant cell(const LiveReplyRow& r, int column, int role) const override;

  // A prompt starts the task's row afresh (its next attempt); deltas and the end update it.
  void apply(const LiveEvent& e);
  int rowOf(const std::string& task) const;
  // The time the row's exchange has taken so far (or took).
  static double seconds(const LiveReplyRow& r);
  // The Time column of every row still going changed (a timer calls this).
  void tick();

  // Texts for the pane's lines, the same as the cells say.
  static QString tokensText(const LiveReplyRow& r);
  static QString costText(const LiveReplyRow& r);
  static QString timeText(double seconds);

 signals:
  void promptArrived(int row);
  // New text for a row; `restart`: the text before it is dropped.
  void textAppended(int row, const QString& answer, const QString& reasoning, bool restart);
  void ended(int row);
};

}  // namespace kope::ui
