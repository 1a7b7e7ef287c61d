// The Experience Graph browser, to dock into the main window: a toolbar (filters, search, fit, export, undo), the
// graph view, and a side panel with the Case details and what the agent was shown. Opens its own connection to
// the workspace's kope.db; polls it so Cases added by a running loop appear live, placed below their parent
// without a full re-layout (a background re-layout follows when the run goes quiet). Curation writes through
// MemoryStore (retrieval reads the same tables, so it changes at once) and is undoable.
#pragma once

#include <QWidget>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "graph_layout.h"
#include "graph_view.h"
#include "kope/agent/store.h"
#include "kope/memory/memory.h"

class QComboBox;
class QLineEdit;
class QLabel;
class QTabWidget;
class QTimer;
class QUndoStack;
class QAction;

namespace kope {
class Workspace;
}

namespace kope::agentview {
class AgentView;
}

namespace kope::graph {

class CaseDetails;
class LayoutService;
class EdgesItem;

enum class CurationAct { Prune, PruneSubtree, Unprune, UnpruneSubtree, Pin, Unpin, Cheat, Invalid, ClearFlag };

struct GraphFilter {
  QString task, device, label, tag, origin;  // empty: any. label may be "incorrect"; origin "local"/"foreign"
  std::optional<int64_t> run;
};

class GraphWidget : public QWidget {
  Q_OBJECT
 public:
  explicit GraphWidget(QWidget* parent = nullptr);
  ~GraphWidget() override;

  // Opens the workspace (its kope.db); throws kope::Error when it cannot.
  void openWorkspace(const std::filesystem::path& dir);
  kope::memory::MemoryStore* store() const { return store_.get(); }

  // Re-reads the Cases now (the poll timer calls it when the database changed). New Cases are placed below
  // their parent at once; a full layout is requested only when there is none yet.
  void refresh();
  // Requests a full layout in the background (also run after live additions, once `relayoutDelayMs` passes
  // without new Cases; negative: never automatically).
  void relayout();
  void setRelayoutDelay(int ms) { relayoutDelayMs_ = ms; }
  void setPollInterval(int ms);
  bool layoutReady() const { return laidOut_; }
  // Waits (processing events) until the pending layout arrived; false on timeout.
  bool waitForLayout(int timeoutMs = 60000);

  GraphView* view() const { return view_; }
  LayoutService* layoutService() const { return layout_; }
  CaseDetails* details() const { return details_; }
  kope::agentview::AgentView* agentView() const { return agent_; }
  QUndoStack* undoStack() const { return undo_; }
  EdgesItem* edges() const { return edges_; }

  int nodeCount() const { return static_cast<int>(nodes_.size()); }
  int visibleCount() const;
  NodeItem* item(int64_t caseId) const;
  std::optional<QPointF> positionOf(int64_t caseId) const;

  void setFilter(const GraphFilter& f);
  GraphFilter filter() const { return filter_; }
  // By "#id", "id" or a piece of the thought text; selects the matches, centres the first; returns how many.
  int search(const QString& text);
  void selectCase(int64_t id, bool center = true);
  std::vector<int64_t> selectedCases() const;

  // Curation of the selected Cases (or `ids`), as an undoable command. The reason comes from `reasonProvider`
  // (a dialog by default); an empty optional cancels. Returns the number of Cases changed.
  int curate(CurationAct act, std::vector<int64_t> ids = {});
  std::function<std::optional<QString>(const QString& title)> reasonProvider;

  // Exports: the current view (what the viewport shows) as PNG or SVG; the graph as GraphML. Throw on failure.
  void exportPng(const QString& path) const;
  void exportSvg(const QString& path) const;
  void exportGraphml(const QString& path) const;

 signals:
  void caseSelected(qint64 caseId);
  void openInEditor(qint64 kernelId, QString source);
  void compare(qint64 evaluationA, qint64 evaluationB);
  void forkFrom(qint64 evaluationId);
  void layoutApplied(QString engine, double millis, bool cached);
  void statusMessage(QString text);

 private:
  void buildToolbar();
  void buildActions();
  void loadCases();
  void applyPositions(const Positions& p);
  void rebuildEdges();
  void applyFilter();
  void updateFilterChoices();
  void showSelection();
  void contextMenu(QPoint globalPos);
  void pollDatabase();
  QPointF placeBelowParent(const NodeData& d);
  LayoutInput layoutInput() const;
  friend class CurationCommand;

  std::unique_ptr<kope::Workspace> ws_;
  std::unique_ptr<kope::memory::MemoryStore> store_;
  std::optional<kope::agent::AgentStore> agentStore_;  // reads the agent's transcripts over ws_'s connection
  std::filesystem::path dir_;
  GraphView* view_;
  EdgesItem* edges_;
  CaseDetails* details_;
  kope::agentview::AgentView* agent_;
  QTabWidget* side_;
  QUndoStack* undo_;
  LayoutService* layout_ = nullptr;
  QComboBox *task_, *device_, *label_, *tag_, *run_, *origin_;
  QLineEdit* search_;
  QLabel* status_;
  QTimer *poll_, *relayoutTimer_;
  std::unordered_map<int64_t, NodeData> nodes_;
  std::unordered_map<int64_t, NodeItem*> items_;
  std::unordered_map<int64_t, int> liveChildren_;  // parent -> Cases placed live below it since the last layout
  GraphFilter filter_;
  quint64 pendingLayout_ = 0;
  bool laidOut_ = false, fitOnLayout_ = true;
  int relayoutDelayMs_ = 5000;
  int64_t seenMaxCase_ = -1, seenMaxCuration_ = -1, seenCount_ = -1;
  bool updatingChoices_ = false;
};

}  // namespace kope::graph
