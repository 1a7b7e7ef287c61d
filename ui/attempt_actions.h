// From any attempt to everything about it (issue 20): the one service behind the run controller's attempts
// table, the graph's Case nodes and the History rows. A place names an attempt by what it knows (an evaluation,
// an LLM transcript, a Case); the service reads the rest through its own connection to the workspace on the GUI
// thread, so a read never waits behind a running loop, and says what to show where through its signals, which
// the window connects to the editor and results panes, the Attempt pane, the graph and the comparison pane.
#pragma once

#include <QObject>
#include <QPointer>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine.h"

class QAbstractItemView;
class QAction;
class QModelIndex;

namespace kope::agent {
class AgentStore;
}
namespace kope::memory {
class MemoryStore;
}

namespace kope::ui {

// What a place knows of an attempt; what it leaves at 0 is looked up.
struct AttemptRef {
  int64_t evaluation_id = 0;  // 0: the attempt ran no evaluation (the model gave no kernel), or a foreign Case
  int64_t transcript_id = 0;  // its LLM transcript
  int64_t case_id = 0;        // its Case in the Experience Graph Memory
};

// Everything about one attempt, as read from the workspace.
struct AttemptDetails {
  AttemptRef ref;  // with what was looked up filled in
  std::string task;
  std::string kernel_name;
  std::optional<LoadedEvaluation> evaluation;  // row, report and source, when it ran one
  std::string source;                          // the kernel (the evaluation's, or a foreign Case's)
  std::optional<int64_t> parent_evaluation;    // the incumbent it started from; none: the baseline
  std::string parent_name;                     // "baseline" when none
  std::string diff;                            // unified, against the parent's kernel
  std::string transcript_status, transcript_reason;  // the LLM attempt's end, when there is a transcript
};

class AttemptActions : public QObject {
  Q_OBJECT
 public:
  // What an act shows: Open is all of the others but the comparison.
  enum class Act { Open, Kernel, Diff, Results, Transcript, Case, CompareIncumbent };
  Q_ENUM(Act)

  explicit AttemptActions(std::filesystem::path workspace, QObject* parent = nullptr);
  ~AttemptActions() override;

  // Reads the attempt; throws kope::Error naming what is missing.
  AttemptDetails details(const AttemptRef& ref);
  // Does the act; a failure arrives as failed(message).
  void trigger(Act act, const AttemptRef& ref);
  void open(const AttemptRef& ref) { trigger(Act::Open, ref); }
  // The acts as a context menu's actions for `ref`, each naming what it opens; the caller owns none of them and
  // uses them until the next call.
  QList<QAction*> actionsFor(const AttemptRef& ref);
  // Double-click (activate) and a context menu on a view whose rows are attempts.
  void attach(QAbstractItemView* view, std::function<std::optional<AttemptRef>(const QModelIndex&)> refOf);

  // The stores over the service's connection, for a view of the transcript (null before first use).
  const agent::AgentStore* agentStore();
  const memory::MemoryStore* memoryStore();
  void retranslate();

 signals:
  // The kernel and its results, for the editor and the results panes.
  void kernelRequested(const kope::ui::LoadedEvaluation& evaluation);
  // The Attempt pane, at the part asked for (Diff, Results or Transcript; Open: the diff).
  void detailsRequested(const kope::ui::AttemptDetails& details, kope::ui::AttemptActions::Act part);
  // The Case in the graph; `raise`: bring the graph into view.
  void caseRequested(qint64 caseId, bool raise);
  void comparisonReady(const kope::eval::Comparison& comparison, const QString& sourceA, const QString& sourceB);
  void failed(const QString& message);

 private:
  workspace::Workspace& workspace();
  void compareWithIncumbent(const AttemptDetails& d);
  void fillFromCase(AttemptDetails& d);
  void fillTranscript(AttemptDetails& d);

  std::filesystem::path dir_;
  // Declared in this order so the stores that borrow the connection go first.
  std::unique_ptr<workspace::Workspace> ws_;
  std::unique_ptr<memory::MemoryStore> memory_;
  std::unique_ptr<agent::AgentStore> agent_;
  AttemptRef menu_ref_;  // the attempt the menu's actions act on
  QList<QAction*> actions_;
};

}  // namespace kope::ui

Q_DECLARE_METATYPE(kope::ui::AttemptDetails)
