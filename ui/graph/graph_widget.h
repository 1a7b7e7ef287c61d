// The Experience Graph browser, to dock into the main window: a toolbar (filters, search, fit, export, undo), the
// graph view, and a side panel with the Case details and what the agent was shown. A thin page over the item
// model (graph_model.h: the Cases, and the filter and search as a predicate) and the curation commands
// (curation.h); it runs no SQL itself. Opens its own connection to the workspace's kope.db; polls it so Cases
// added by a running loop appear live, placed below their parent without a full re-layout (a background
// re-layout follows when the run goes quiet). Curation writes through MemoryStore (retrieval reads the same
// tables, so it changes at once) and is undoable.
#pragma once

#include <QLineF>
#include <QWidget>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "case_reader.h"
#include "curation.h"
#include "graph_layout.h"
#include "graph_model.h"
#include "graph_view.h"
#include "kope/agent/store.h"
#include "kope/memory/memory.h"

class QLabel;
class QSplitter;
class QTabWidget;
class QTimer;
class QToolButton;
class QUndoStack;
class QAction;

namespace kope::workspace {
class Workspace;
}

namespace kope::agentview {
class AgentView;
}

namespace kope::graph {

class CaseDetails;
class FilterBar;
class LayoutService;
class EdgesItem;

class GraphWidget : public QWidget {
  Q_OBJECT
 public:
  explicit GraphWidget(QWidget* parent = nullptr);
  ~GraphWidget() override;

  // Opens the workspace (its kope.db); throws kope::Error when it cannot.
  void openWorkspace(const std::filesystem::path& dir);
  kope::memory::MemoryStore* store() const { return store_.get(); }

  // Reads what changed in the memory now, on this thread (the poll timer reads on the CaseReader's thread
  // instead). New Cases are placed below their parent at once; a full layout is requested only when there is
  // none yet.
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
  GraphModel* model() const { return model_; }
  FilterBar* filterBar() const { return bar_; }

  int nodeCount() const { return model_->rowCount(); }
  int visibleCount() const { return static_cast<int>(shown_.size()); }
  NodeItem* item(int64_t caseId) const;
  std::optional<QPointF> positionOf(int64_t caseId) const;

  // A Case the filter hides is deselected (its details go with it).
  void setFilter(const GraphFilter& f);
  GraphFilter filter() const { return match_.filter(); }
  // By "#id", "id" or a piece of the thought text; selects the matches, centres the first; returns how many.
  int search(const QString& text);
  void selectCase(int64_t id, bool center = true);
  std::vector<int64_t> selectedCases() const;

  // Curation of the selected Cases (or `ids`), as an undoable command. The reason comes from `reasonProvider`
  // (a dialog by default); an empty optional cancels. Returns the number of Cases changed.
  int curate(CurationAct act, std::vector<int64_t> ids = {});
  std::function<std::optional<QString>(const QString& title)> reasonProvider;
  // What the window offers for one Case besides curation (its attempt: kernel, diff, results, transcript,
  // comparison), put at the top of the Case's context menu; empty: nothing.
  std::function<QList<QAction*>(qint64 caseId)> caseActions;

  // Sets every text again in the current language (also on a LanguageChange event).
  void retranslate();

  // Asked for the file an export goes to, proposing a name in exportFolder(); a file dialog by default. Tests
  // replace it. An empty answer cancels.
  std::function<QString(const QString& title, const QString& proposed, const QString& filter)> askExportPath;
  // Where an export is proposed: the folder of the last export (remembered across restarts), else the
  // workspace's folder; never the process's working folder.
  QString exportFolder() const;

  // Exports: the current view (what the viewport shows) as PNG or SVG; the graph as GraphML. Throw on failure.
  void exportPng(const QString& path) const;
  void exportSvg(const QString& path) const;
  void exportGraphml(const QString& path) const;

 signals:
  void caseSelected(qint64 caseId);
  // A Case's node was double-clicked: the window opens everything about its attempt.
  void caseActivated(qint64 caseId);
  void openInEditor(qint64 kernelId, QString source);
  void compare(qint64 evaluationA, qint64 evaluationB);
  void forkFrom(qint64 evaluationId);
  void layoutApplied(QString engine, double millis, bool cached);
  void statusMessage(QString text);

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  static void warnPlain(QWidget* parent, const QString& title, const QString& text);
  void nameUndo();
  void buildView();
  void buildSide();
  void buildToolbar();
  QToolButton* buildExportButton();
  void buildActions();
  void connectModel();
  void connectLayout();
  void addItems(int first, int last);
  void removeItems(int first, int last);
  void updateItems(int first, int last);
  void apply(CaseSnapshot s);
  void applyNow(CaseSnapshot s, bool refilterAll);
  void applyInChunks(std::shared_ptr<CaseSnapshot> s, std::size_t from, quint64 generation);
  void refreshCases(const std::vector<int64_t>& ids);
  void applyPositions(const Positions& p);
  void rebuildEdges();
  std::optional<QLineF> edgeTo(int64_t id, const NodeItem& item) const;
  static QRectF plainBox(const NodeItem& n);
  static void paintPlain(QPainter& p, const NodeItem& n);  // a node as the overview draws it
  void applyFilter();
  void applyFilterTo(const std::vector<int64_t>& added, const std::vector<int64_t>& changed);
  void showSelection();
  void contextMenu(QPoint globalPos);
  void pollDatabase();
  QPointF placeBelowParent(const NodeData& d);
  LayoutInput layoutInput() const;
  bool shown(int64_t id) const { return shown_.count(id) > 0; }
  void growSceneRect(const QRectF& r);
  void overlayNodes(const std::vector<int64_t>& redrawn, const std::vector<int64_t>& added,
                    const std::vector<QLineF>& lines);
  void followSelection();

  // Declared in this order so the stores that borrow the workspace's connection go first.
  std::unique_ptr<kope::workspace::Workspace> ws_;
  std::unique_ptr<kope::memory::MemoryStore> store_;
  std::optional<kope::agent::AgentStore> agentStore_;  // reads the agent's transcripts over ws_'s connection
  std::filesystem::path dir_;
  GraphModel* model_;
  CaseMatcher match_;
  GraphView* view_;
  EdgesItem* edges_;
  QGraphicsItem* nodeLayer_;  // the parent of every NodeItem
  CaseDetails* details_;
  kope::agentview::AgentView* agent_;
  QTabWidget* side_;
  QSplitter* split_;
  static constexpr int kSideBySideWidth = 720;  // narrower: the side panel goes below the graph
  QUndoStack* undo_;
  LayoutService* layout_ = nullptr;
  FilterBar* bar_;
  QLabel* legend_ = nullptr;
  QAction *fit_, *zoomIn_, *zoomOut_, *relayout_, *undoAct_, *redoAct_;
  QToolButton* export_;
  QLabel* status_;
  QTimer *poll_, *relayoutTimer_;
  std::unordered_map<int64_t, NodeItem*> items_;   // one per row of the model
  std::unordered_set<int64_t> shown_;              // the Cases the filter lets through
  std::vector<int64_t> added_;                     // rows the model inserted during the current load
  std::vector<int64_t> changed_;                   // rows it changed in place
  std::vector<int64_t> overviewSelected_;          // drawn as selected on the overview image, sorted
  QRectF sceneBounds_;  // the scene's rectangle, set by us: Qt would walk every item for it after each addition
  std::unordered_map<int64_t, int> liveChildren_;  // parent -> Cases placed live below it since the last layout
  quint64 pendingLayout_ = 0;
  bool laidOut_ = false, fitOnLayout_ = true;
  int relayoutDelayMs_ = 5000;
  std::optional<kope::memory::ChangeStamp> seen_;  // of the last load; none: read again at the next poll
  int64_t lastId_ = 0;                             // the highest Case id held
  TaskDevices pairs_;                              // where incumbents are looked up (synchronous reads)
  CaseReader* reader_ = nullptr;
  quint64 pendingRead_ = 0;                        // the reader's request under way (0: none)
  quint64 applyGeneration_ = 0;                    // of the last reading applied: a chunked one older stops
  bool applying_ = false;                          // a first reading goes in by chunks: the poll waits
};

}  // namespace kope::graph
