// The Experience Graph browser. See graph_widget.h.
#include "graph_widget.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <fstream>
#include <set>

#include "agentview/agent_view.h"
#include "case_details.h"
#include "kope/base/error.h"
#include "kope/memory/share.h"
#include "kope/store/db.h"
#include "kope/workspace/workspace.h"
#include "layout_service.h"

namespace kope::graph {

using kope::memory::CaseRow;
using kope::memory::MemoryStore;

namespace {

// An error from the engine may quote recorded text (an imported task name, a path): shown as text, never markup.
void warnPlain(QWidget* parent, const QString& title, const QString& text) {
  QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
  box.setTextFormat(Qt::PlainText);
  box.exec();
}

struct CurationState {
  bool pruned = false, pinned = false;
  std::string flag;
  bool operator==(const CurationState&) const = default;
};

CurationState state_of(sqlite3* db, int64_t id) {
  kope::store::Stmt s(db, "SELECT pruned, pinned, COALESCE(flag,'') FROM memory_cases WHERE id=?");
  s.bind(1, id);
  if (!s.step()) throw Error("no Case #" + std::to_string(id) + " in this workspace");
  return {s.i64(0) != 0, s.i64(1) != 0, s.text(2)};
}

const char* act_name(CurationAct a) {
  switch (a) {
    case CurationAct::Prune: return "prune";
    case CurationAct::PruneSubtree: return "prune subtree";
    case CurationAct::Unprune: return "unprune";
    case CurationAct::UnpruneSubtree: return "unprune subtree";
    case CurationAct::Pin: return "pin";
    case CurationAct::Unpin: return "unpin";
    case CurationAct::Cheat: return "mark cheat";
    case CurationAct::Invalid: return "mark invalid";
    case CurationAct::ClearFlag: return "clear mark";
  }
  return "?";
}

bool needs_reason(CurationAct a) {
  return a == CurationAct::Prune || a == CurationAct::PruneSubtree || a == CurationAct::Cheat || a == CurationAct::Invalid;
}

}  // namespace

// One curation act on some Cases. redo() applies it through MemoryStore (which records it); undo() restores each
// changed Case's previous state with the inverse acts, recorded as well ("undo: ...").
class CurationCommand : public QUndoCommand {
 public:
  CurationCommand(GraphWidget* w, CurationAct act, std::vector<int64_t> ids, QString why)
      : w_(w), act_(act), ids_(std::move(ids)), why_(std::move(why)) {
    setText(QStringLiteral("%1 %2 Case(s)").arg(QString::fromLatin1(act_name(act))).arg(ids_.size()));
  }
  int changed = 0;

  void redo() override {
    MemoryStore& m = *w_->store_;
    sqlite3* db = m.db();
    const std::string who = kope::memory::current_user();
    std::string why = why_.toStdString();
    if (!first_) why = "redo: " + why;
    kope::store::Txn txn(db);
    if (first_) {  // remember the state of every Case the act may touch
      for (int64_t id : ids_) {
        std::vector<int64_t> todo{id};
        while (!todo.empty()) {
          const int64_t c = todo.back();
          todo.pop_back();
          if (!before_.count(c)) before_.emplace(c, state_of(db, c));
          if (act_ == CurationAct::PruneSubtree || act_ == CurationAct::UnpruneSubtree)
            for (int64_t k : m.children(c)) todo.push_back(k);
        }
      }
    }
    changed = 0;
    for (int64_t id : ids_) {
      switch (act_) {
        case CurationAct::Prune: changed += m.prune(id, false, who, why); break;
        case CurationAct::PruneSubtree: changed += m.prune(id, true, who, why); break;
        case CurationAct::Unprune: changed += m.unprune(id, false, who, why); break;
        case CurationAct::UnpruneSubtree: changed += m.unprune(id, true, who, why); break;
        case CurationAct::Pin: changed += m.pin(id, true, who, why); break;
        case CurationAct::Unpin: changed += m.pin(id, false, who, why); break;
        case CurationAct::Cheat: changed += m.mark(id, "cheat", who, why); break;
        case CurationAct::Invalid: changed += m.mark(id, "invalid", who, why); break;
        case CurationAct::ClearFlag: changed += m.mark(id, "", who, why); break;
      }
    }
    txn.commit();
    first_ = false;
    w_->refresh();
  }

  void undo() override {
    MemoryStore& m = *w_->store_;
    sqlite3* db = m.db();
    const std::string who = kope::memory::current_user();
    const std::string why = "undo: " + std::string(act_name(act_)) + (why_.isEmpty() ? "" : " (" + why_.toStdString() + ")");
    kope::store::Txn txn(db);
    for (const auto& [id, was] : before_) {
      const CurationState now = state_of(db, id);
      if (now.pruned != was.pruned) {
        if (was.pruned) m.prune(id, false, who, why);
        else m.unprune(id, false, who, why);
      }
      if (now.pinned != was.pinned) m.pin(id, was.pinned, who, why);
      if (now.flag != was.flag) m.mark(id, was.flag, who, why);
    }
    txn.commit();
    w_->refresh();
  }

 private:
  GraphWidget* w_;
  CurationAct act_;
  std::vector<int64_t> ids_;
  QString why_;
  bool first_ = true;
  std::map<int64_t, CurationState> before_;
};

GraphWidget::GraphWidget(QWidget* parent) : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(2);
  view_ = new GraphView(this);
  edges_ = new EdgesItem;
  view_->graphScene()->addItem(edges_);
  view_->itemCount = [this] { return items_.size(); };
  view_->overviewBounds = [this] {
    QRectF r = edges_->boundingRect();
    for (const auto& [id, it] : items_)
      if (nodes_.at(id).shown) r |= QRectF(it->pos() - QPointF(kCellW / 2, kCellH / 2), QSizeF(kCellW, kCellH));
    return r;
  };
  view_->overviewPainter = [this](QPainter& p) {
    p.setPen(QPen(QColor(0x70, 0x70, 0x70), 0));
    p.drawPath(edges_->path());
    for (const auto& [id, n] : items_) {
      if (!nodes_.at(id).shown) continue;
      const QSizeF s = n->size();
      p.setOpacity(n->opacity());
      p.fillRect(QRectF(n->pos() - QPointF(s.width() / 2, s.height() / 2), s), n->plainColor());
    }
  };
  connect(view_, &GraphView::overviewChanged, this, [this](bool on) {
    edges_->setVisible(!on);
    for (auto& [id, it] : items_) it->setVisible(!on && nodes_.at(id).shown);
  });
  details_ = new CaseDetails(this);
  agent_ = new kope::agentview::AgentView(this);
  undo_ = new QUndoStack(this);
  poll_ = new QTimer(this);
  relayoutTimer_ = new QTimer(this);
  relayoutTimer_->setSingleShot(true);
  connect(relayoutTimer_, &QTimer::timeout, this, &GraphWidget::relayout);
  connect(poll_, &QTimer::timeout, this, &GraphWidget::pollDatabase);
  buildToolbar();
  auto* legend = new QLabel(this);
  auto sq = [](const char* col, const QString& name) {
    return QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp; ").arg(col, name);
  };
  legend->setText(sq("#2e9d48", tr("effective")) + sq("#a8c83c", tr("partial")) + sq("#f0a030", tr("ineffective")) +
                  sq("#d64541", tr("negative")) + tr("╳ hatched: incorrect · ") +
                  tr("<b style='color:#ffb300'>★ gold outline</b>: incumbent · ") +
                  tr("<b style='color:#555'>✂ faded, dashed</b>: pruned · ") + tr("<b style='color:#1565c0'>P</b>: pinned · ") +
                  tr("<b style='color:#b000b0'>C/I dash-dot</b>: cheat/invalid · ") + tr("<b style='color:#008080'>F dotted</b>: foreign · ") +
                  tr("size: d(v)"));
  legend->setTextFormat(Qt::RichText);
  legend->setWordWrap(true);
  legend->setObjectName("legend");
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(view_);
  side_ = new QTabWidget(split);
  side_->addTab(details_, tr("Case"));
  side_->addTab(agent_, tr("What the agent was shown"));
  split->addWidget(side_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  view_->setMinimumWidth(300);
  side_->setMinimumWidth(280);
  split->setSizes({1000, 560});  // scaled to the real width at the first show
  lay->addWidget(legend);
  lay->addWidget(split, 1);
  status_ = new QLabel(this);
  status_->setTextFormat(Qt::PlainText);  // error messages and search words: never markup
  lay->addWidget(status_);
  buildActions();
  connect(view_->graphScene(), &QGraphicsScene::selectionChanged, this, &GraphWidget::showSelection);
  connect(view_->graphScene(), &QGraphicsScene::selectionChanged, view_, &GraphView::invalidateOverview);
  connect(view_, &GraphView::contextMenuAt, this, &GraphWidget::contextMenu);
  connect(details_, &CaseDetails::openInEditor, this, &GraphWidget::openInEditor);
  connect(details_, &CaseDetails::compare, this, &GraphWidget::compare);
  connect(details_, &CaseDetails::forkFrom, this, &GraphWidget::forkFrom);
  connect(agent_, &kope::agentview::AgentView::caseActivated, this, [this](qint64 id) { selectCase(id, true); });
  reasonProvider = [this](const QString& title) -> std::optional<QString> {
    bool ok = false;
    QString s = QInputDialog::getText(this, title, tr("Reason (recorded with the act):"), QLineEdit::Normal, {}, &ok);
    if (!ok || s.trimmed().isEmpty()) return std::nullopt;
    return s.trimmed();
  };
}

GraphWidget::~GraphWidget() {
  poll_->stop();
  relayoutTimer_->stop();
  QObject::disconnect(view_->graphScene(), nullptr, this, nullptr);  // no selection signals while items die
  QObject::disconnect(view_->graphScene(), nullptr, view_, nullptr);
  items_.clear();
  view_->graphScene()->clear();
  delete layout_;  // joins the worker before the scene goes
  layout_ = nullptr;
}

void GraphWidget::buildToolbar() {
  auto* bar = new QToolBar(this);
  bar->setIconSize(QSize(16, 16));
  auto combo = [&](const QString& name, const QString& tip) {
    auto* c = new QComboBox(bar);
    c->setObjectName(name);
    c->setToolTip(tip);
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    c->addItem(tip, QString());
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      if (updatingChoices_) return;
      GraphFilter f;
      f.task = task_->currentData().toString();
      f.device = device_->currentData().toString();
      f.label = label_->currentData().toString();
      f.tag = tag_->currentData().toString();
      f.origin = origin_->currentData().toString();
      if (const QString r = run_->currentData().toString(); !r.isEmpty()) f.run = r.toLongLong();
      filter_ = f;
      applyFilter();
    });
    bar->addWidget(c);
    return c;
  };
  task_ = combo("filterTask", tr("all tasks"));
  device_ = combo("filterDevice", tr("all devices"));
  label_ = combo("filterLabel", tr("all labels"));
  for (const char* l : {"effective", "partial", "ineffective", "negative"}) label_->addItem(tr(l), QString::fromLatin1(l));
  label_->addItem(tr("incorrect"), QStringLiteral("incorrect"));
  tag_ = combo("filterTag", tr("all ideas"));
  run_ = combo("filterRun", tr("all runs"));
  origin_ = combo("filterOrigin", tr("local and foreign"));
  origin_->addItem(tr("local"), QStringLiteral("local"));
  origin_->addItem(tr("foreign"), QStringLiteral("foreign"));
  search_ = new QLineEdit(bar);
  search_->setPlaceholderText(tr("search #id or thought…"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(220);
  connect(search_, &QLineEdit::returnPressed, this, [this] { search(search_->text()); });
  bar->addWidget(search_);
  bar->addSeparator();
  bar->addAction(tr("Fit"), view_, &GraphView::fit)->setToolTip(tr("Fit the graph (F)"));
  bar->addAction(QStringLiteral("+"), this, [this] { view_->zoomBy(1.25); });
  bar->addAction(QStringLiteral("−"), this, [this] { view_->zoomBy(0.8); });
  bar->addAction(tr("Re-layout"), this, &GraphWidget::relayout);
  auto* exp = new QToolButton(bar);
  exp->setText(tr("Export"));
  exp->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(exp);
  auto save = [this](const QString& filter, const QString& suffix, auto fn) {
    const QString p = QFileDialog::getSaveFileName(this, tr("Export"), "experience-graph." + suffix, filter);
    if (p.isEmpty()) return;
    try {
      (this->*fn)(p);
      emit statusMessage(tr("Exported %1").arg(p));
    } catch (const std::exception& e) {
      warnPlain(this, tr("Export"), QString::fromUtf8(e.what()));
    }
  };
  menu->addAction(tr("View as PNG…"), this, [=] { save("PNG (*.png)", "png", &GraphWidget::exportPng); });
  menu->addAction(tr("View as SVG…"), this, [=] { save("SVG (*.svg)", "svg", &GraphWidget::exportSvg); });
  menu->addAction(tr("Graph as GraphML…"), this, [=] { save("GraphML (*.graphml)", "graphml", &GraphWidget::exportGraphml); });
  exp->setMenu(menu);
  bar->addWidget(exp);
  bar->addSeparator();
  QAction* u = undo_->createUndoAction(this, tr("Undo"));
  QAction* r = undo_->createRedoAction(this, tr("Redo"));
  u->setShortcut(QKeySequence::Undo);
  r->setShortcut(QKeySequence::Redo);
  u->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  r->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  addAction(u);
  addAction(r);
  bar->addAction(u);
  bar->addAction(r);
  static_cast<QVBoxLayout*>(layout())->addWidget(bar);
}

void GraphWidget::buildActions() {
  auto add = [this](const QString& text, const QKeySequence& key, CurationAct act) {
    auto* a = new QAction(text, this);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    a->setData(static_cast<int>(act));
    connect(a, &QAction::triggered, this, [this, act] { curate(act); });
    view_->addAction(a);
    return a;
  };
  add(tr("Prune…"), QKeySequence(Qt::Key_Delete), CurationAct::Prune);
  add(tr("Prune subtree…"), QKeySequence(Qt::SHIFT | Qt::Key_Delete), CurationAct::PruneSubtree);
  add(tr("Unprune"), QKeySequence(Qt::Key_U), CurationAct::Unprune);
  add(tr("Unprune subtree"), QKeySequence(Qt::SHIFT | Qt::Key_U), CurationAct::UnpruneSubtree);
  add(tr("Pin"), QKeySequence(Qt::Key_P), CurationAct::Pin);
  add(tr("Unpin"), QKeySequence(Qt::SHIFT | Qt::Key_P), CurationAct::Unpin);
  add(tr("Mark as cheat…"), QKeySequence(Qt::Key_C), CurationAct::Cheat);
  add(tr("Mark as invalid measurement…"), QKeySequence(Qt::Key_I), CurationAct::Invalid);
  add(tr("Clear mark"), QKeySequence(Qt::SHIFT | Qt::Key_C), CurationAct::ClearFlag);
  auto* find = new QAction(this);
  find->setShortcut(QKeySequence::Find);
  find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(find, &QAction::triggered, this, [this] { search_->setFocus(); search_->selectAll(); });
  addAction(find);
}

void GraphWidget::contextMenu(QPoint globalPos) {
  QMenu m(this);
  const auto sel = selectedCases();
  for (QAction* a : view_->actions()) {
    a->setEnabled(!sel.empty());
    m.addAction(a);
  }
  m.addSeparator();
  m.addAction(undo_->createUndoAction(&m));
  m.exec(globalPos);
}

void GraphWidget::openWorkspace(const std::filesystem::path& dir) {
  dir_ = dir;
  agent_->setStores(nullptr, nullptr);
  agentStore_.reset();
  store_.reset();
  ws_ = std::make_unique<kope::Workspace>(kope::Workspace::open(dir));
  MemoryStore::ensure_schema(ws_->handle());
  store_ = std::make_unique<MemoryStore>(ws_->handle());
  agentStore_ = kope::agent::AgentStore::reader(ws_->handle());
  delete layout_;
  layout_ = new LayoutService(dir / "cache" / "graph-layout", this);
  connect(layout_, &LayoutService::finished, this,
          [this](quint64 id, std::shared_ptr<const Positions> p, QString engine, double ms, bool cached) {
            if (id != pendingLayout_) return;  // superseded
            QElapsedTimer at;
            at.start();
            applyPositions(*p);
            if (qEnvironmentVariableIsSet("KOPE_GRAPH_TRACE")) qInfo("apply positions: %lld ms", static_cast<long long>(at.elapsed()));
            liveChildren_.clear();
            const bool first = !laidOut_;
            laidOut_ = true;
            if (first || fitOnLayout_) view_->fit();
            fitOnLayout_ = false;
            status_->setText(tr("%1 Cases · layout %2 in %3 ms%4").arg(nodes_.size()).arg(engine).arg(ms, 0, 'f', 0)
                                 .arg(cached ? tr(" (cached)") : QString()));
            emit layoutApplied(engine, ms, cached);
          });
  connect(layout_, &LayoutService::failed, this, [this](quint64, QString msg) {
    status_->setText(tr("layout failed: %1").arg(msg));
  });
  agent_->setStores(&*agentStore_, store_.get());
  nodes_.clear();
  for (auto& [id, it] : items_) delete it;
  items_.clear();
  laidOut_ = false;
  fitOnLayout_ = true;
  seenMaxCase_ = seenMaxCuration_ = seenCount_ = -1;
  undo_->clear();
  refresh();
  poll_->start(poll_->interval() > 0 ? poll_->interval() : 1000);
}

void GraphWidget::setPollInterval(int ms) {
  if (ms <= 0) poll_->stop();
  else poll_->start(ms);
}

void GraphWidget::pollDatabase() {
  if (!store_) return;
  try {
    kope::store::Stmt s(store_->db(), "SELECT COALESCE(MAX(id),0), COUNT(*), (SELECT COALESCE(MAX(id),0) FROM memory_curation) "
                                     "FROM memory_cases");
    if (!s.step()) return;
    if (s.i64(0) != seenMaxCase_ || s.i64(1) != seenCount_ || s.i64(2) != seenMaxCuration_) refresh();
  } catch (const std::exception&) {
    // the database is busy (a loop writing): try again on the next tick
  }
}

LayoutInput GraphWidget::layoutInput() const {
  LayoutInput in;
  in.nodes.reserve(nodes_.size());
  for (const auto& [id, d] : nodes_) in.nodes.push_back({id, d.row.prev_case_id, kCellW, kCellH});
  return in;
}

void GraphWidget::relayout() {
  if (!layout_) return;
  pendingLayout_ = layout_->request(layoutInput());
}

bool GraphWidget::waitForLayout(int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < timeoutMs) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    if (laidOut_ && !layout_->busy()) {
      QApplication::processEvents();
      return true;
    }
  }
  return false;
}

QPointF GraphWidget::placeBelowParent(const NodeData& d) {
  if (d.row.prev_case_id) {
    if (auto it = items_.find(*d.row.prev_case_id); it != items_.end() && it->second->scene()) {
      const int k = liveChildren_[*d.row.prev_case_id]++;
      // Below the parent, fanned out to alternate sides, one cell apart.
      const double dx = (k % 2 ? 1 : -1) * ((k + 1) / 2) * (kCellW + 10);
      return it->second->pos() + QPointF(dx, kCellH + 40 + (k / 8) * (kCellH + 10));
    }
  }
  const QRectF b = view_->graphScene()->itemsBoundingRect();
  return QPointF(b.isEmpty() ? 0 : b.right() + kCellW, b.isEmpty() ? 0 : b.top() + kCellH / 2);
}

void GraphWidget::refresh() {
  if (!store_) return;
  try {
    loadCases();
  } catch (const std::exception& e) {  // e.g. the database busy under a running loop: the next poll retries
    seenMaxCase_ = -1;
    status_->setText(tr("could not read the memory: %1").arg(QString::fromUtf8(e.what())));
  }
}

void GraphWidget::loadCases() {
  QElapsedTimer lt;
  lt.start();
  struct Trace {
    QElapsedTimer& t;
    ~Trace() { if (qEnvironmentVariableIsSet("KOPE_GRAPH_TRACE")) qInfo("load cases: %lld ms", static_cast<long long>(t.elapsed())); }
  } trace{lt};
  kope::memory::CaseFilter f;
  f.limit = 100000000;
  std::vector<CaseRow> rows = store_->cases(f);
  std::sort(rows.begin(), rows.end(), [](const CaseRow& a, const CaseRow& b) { return a.id < b.id; });
  // The incumbent Case of each task and device.
  std::set<int64_t> incumbents;
  {
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& r : rows) pairs.insert({r.task, r.device});
    for (const auto& [t, d] : pairs)
      if (auto inc = ws_->incumbent(t, d))
        if (auto c = store_->case_of_evaluation(inc->evaluation_id)) incumbents.insert(*c);
  }
  std::set<int64_t> present;
  std::vector<int64_t> added;
  for (auto& r : rows) {
    present.insert(r.id);
    auto it = nodes_.find(r.id);
    if (it == nodes_.end()) {
      NodeData nd;
      nd.row = std::move(r);
      nd.incumbent = incumbents.count(nd.row.id) > 0;
      const int64_t id = nd.row.id;
      nodes_.emplace(id, std::move(nd));
      added.push_back(id);
    } else {
      it->second.row = std::move(r);
      it->second.incumbent = incumbents.count(it->first) > 0;
      items_[it->first]->setNodeData(&it->second);
      view_->invalidateOverview();
    }
  }
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    if (!present.count(it->first)) {
      delete items_[it->first];
      items_.erase(it->first);
      it = nodes_.erase(it);
    } else {
      ++it;
    }
  }
  for (int64_t id : added) {  // in id order: parents before children
    auto* item = new NodeItem(&nodes_.at(id));
    items_[id] = item;
    if (laidOut_) item->setPos(placeBelowParent(nodes_.at(id)));
    item->setVisible(!view_->overviewActive());
    view_->graphScene()->addItem(item);
  }
  if (!rows.empty() || !nodes_.empty()) {
    kope::store::Stmt s(store_->db(), "SELECT COALESCE(MAX(id),0), COUNT(*), (SELECT COALESCE(MAX(id),0) FROM memory_curation) FROM memory_cases");
    if (s.step()) {
      seenMaxCase_ = s.i64(0);
      seenCount_ = s.i64(1);
      seenMaxCuration_ = s.i64(2);
    }
  }
  updateFilterChoices();
  applyFilter();
  if (!laidOut_) {
    if (!pendingLayout_ || !layout_->busy()) relayout();
  } else if (!added.empty() && relayoutDelayMs_ >= 0) {
    relayoutTimer_->start(relayoutDelayMs_);  // a background re-layout once the run goes quiet
  }
  showSelection();
  if (laidOut_)
    status_->setText(tr("%1 Cases, %2 shown").arg(nodes_.size()).arg(visibleCount()));
}

void GraphWidget::applyPositions(const Positions& p) {
  for (auto& [id, item] : items_) {
    auto it = p.find(id);
    if (it != p.end()) item->setPos(it->second.x, it->second.y);
    else item->setPos(placeBelowParent(nodes_.at(id)));
  }
  rebuildEdges();
}

void GraphWidget::rebuildEdges() {
  std::vector<QLineF> lines;
  lines.reserve(items_.size());
  for (const auto& [id, item] : items_) {
    const auto& d = nodes_.at(id);
    if (!d.shown) continue;
    if (!d.row.prev_case_id) continue;
    auto p = items_.find(*d.row.prev_case_id);
    if (p == items_.end() || !nodes_.at(p->first).shown) continue;
    const QPointF a = p->second->pos() + QPointF(0, p->second->size().height() / 2);
    const QPointF b = item->pos() - QPointF(0, item->size().height() / 2);
    lines.emplace_back(a, b);
  }
  edges_->setLines(std::move(lines));
  view_->invalidateOverview();
  view_->updateOverviewMode();
}

void GraphWidget::updateFilterChoices() {
  std::set<std::string> tasks, devices, tags;
  std::set<int64_t> runs;
  for (const auto& [id, d] : nodes_) {
    tasks.insert(d.row.task);
    devices.insert(d.row.device);
    for (const auto& t : d.row.tags) tags.insert(t);
    if (d.row.run_id) runs.insert(*d.row.run_id);
  }
  updatingChoices_ = true;
  auto fill = [](QComboBox* c, const std::vector<QString>& vals) {
    const QString cur = c->currentData().toString();
    if (c->count() == static_cast<int>(vals.size()) + 1) {
      bool same = true;
      for (std::size_t i = 0; i < vals.size() && same; ++i) same = c->itemData(static_cast<int>(i) + 1).toString() == vals[i];
      if (same) return;
    }
    const QString first = c->itemText(0);
    c->clear();
    c->addItem(first, QString());
    for (const auto& v : vals) c->addItem(v, v);
    c->setCurrentIndex(std::max(0, c->findData(cur)));
  };
  auto qs = [](const std::set<std::string>& s) {
    std::vector<QString> v;
    for (const auto& x : s) v.push_back(QString::fromStdString(x));
    return v;
  };
  fill(task_, qs(tasks));
  fill(device_, qs(devices));
  fill(tag_, qs(tags));
  std::vector<QString> rv;
  for (int64_t r : runs) rv.push_back(QString::number(r));
  fill(run_, rv);
  updatingChoices_ = false;
}

void GraphWidget::setFilter(const GraphFilter& f) {
  filter_ = f;
  updatingChoices_ = true;
  auto pick = [](QComboBox* c, const QString& v) { c->setCurrentIndex(std::max(0, c->findData(v))); };
  pick(task_, f.task);
  pick(device_, f.device);
  pick(label_, f.label);
  pick(tag_, f.tag);
  pick(origin_, f.origin);
  pick(run_, f.run ? QString::number(*f.run) : QString());
  updatingChoices_ = false;
  applyFilter();
}

void GraphWidget::applyFilter() {
  const std::string task = filter_.task.toStdString(), device = filter_.device.toStdString(),
                    label = filter_.label.toStdString(), tag = filter_.tag.toStdString();
  for (auto& [id, item] : items_) {
    auto& d = nodes_.at(id);
    const auto& r = d.row;
    bool ok = (task.empty() || r.task == task) && (device.empty() || r.device == device);
    if (ok && !label.empty()) ok = label == "incorrect" ? !r.correct : (r.correct && r.label == label);
    if (ok && !tag.empty()) ok = std::find(r.tags.begin(), r.tags.end(), tag) != r.tags.end();
    if (ok && filter_.run) ok = r.run_id == filter_.run;
    if (ok && filter_.origin == "local") ok = !d.foreign();
    if (ok && filter_.origin == "foreign") ok = d.foreign();
    d.shown = ok;
    item->setVisible(ok && !view_->overviewActive());
  }
  rebuildEdges();
}

int GraphWidget::visibleCount() const {
  int n = 0;
  for (const auto& [id, d] : nodes_) n += d.shown;
  return n;
}

NodeItem* GraphWidget::item(int64_t id) const {
  auto it = items_.find(id);
  return it == items_.end() ? nullptr : it->second;
}

std::optional<QPointF> GraphWidget::positionOf(int64_t id) const {
  if (auto* i = item(id)) return i->pos();
  return std::nullopt;
}

int GraphWidget::search(const QString& text) {
  const QString q = text.trimmed();
  if (q.isEmpty()) return 0;
  std::vector<int64_t> hits;
  QString digits = q.startsWith('#') ? q.mid(1) : q;
  bool isNum = false;
  const qint64 want = digits.toLongLong(&isNum);
  if (isNum && items_.count(want)) hits.push_back(want);
  if (hits.empty()) {
    const std::string needle = q.toLower().toStdString();
    for (const auto& [id, d] : nodes_) {
      std::string t = d.row.thought;
      std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
      if (t.find(needle) != std::string::npos && d.shown) hits.push_back(id);
    }
    std::sort(hits.begin(), hits.end());
  }
  QSignalBlocker b(view_->graphScene());
  view_->graphScene()->clearSelection();
  for (int64_t id : hits) items_.at(id)->setSelected(true);
  b.unblock();
  if (!hits.empty()) view_->centerOn(items_.at(hits.front()));
  showSelection();
  status_->setText(tr("%n match(es) for \"%1\"", nullptr, static_cast<int>(hits.size())).arg(q));
  return static_cast<int>(hits.size());
}

void GraphWidget::selectCase(int64_t id, bool center) {
  auto* it = item(id);
  if (!it) return;
  if (!nodes_.at(id).shown) setFilter({});
  QSignalBlocker b(view_->graphScene());
  view_->graphScene()->clearSelection();
  it->setSelected(true);
  b.unblock();
  if (center) view_->centerOn(it);
  showSelection();
}

std::vector<int64_t> GraphWidget::selectedCases() const {
  std::vector<int64_t> out;
  for (QGraphicsItem* i : view_->graphScene()->selectedItems())
    if (i->type() == NodeItem::Type) out.push_back(static_cast<NodeItem*>(i)->caseId());
  std::sort(out.begin(), out.end());
  return out;
}

void GraphWidget::showSelection() {
  const auto sel = selectedCases();
  if (sel.empty() || !store_) {
    details_->clear();
    return;
  }
  // The focus Case: the one most recently selected (the highest id when several were selected at once).
  int64_t id = sel.back();
  if (details_->caseId() && std::count(sel.begin(), sel.end(), *details_->caseId()) && sel.size() > 1) {
    for (int64_t s : sel)
      if (s != *details_->caseId()) id = s;
  }
  auto row = store_->get_case(id);
  if (!row) return;
  CaseDetailsData d;
  d.row = *row;
  d.incumbent = nodes_.count(id) && nodes_.at(id).incumbent;
  if (auto inc = ws_->incumbent(row->task, row->device)) d.incumbentEvaluation = inc->evaluation_id;
  for (int64_t s : sel)
    if (s != id && nodes_.count(s) && nodes_.at(s).row.evaluation_id) d.otherEvaluation = nodes_.at(s).row.evaluation_id;
  d.journal = store_->journal(std::nullopt, id);
  d.curation = store_->curation(id);
  if (row->evaluation_id)
    if (auto ev = ws_->evaluation(*row->evaluation_id)) d.report = ev->report;
  if (row->kernel_id)
    if (auto src = ws_->kernel_source(*row->kernel_id)) d.kernelSource = *src;
  details_->showCase(d);
  agent_->showEvaluation(row->evaluation_id.value_or(0));
  emit caseSelected(id);
}

int GraphWidget::curate(CurationAct act, std::vector<int64_t> ids) {
  if (!store_) return 0;
  if (ids.empty()) ids = selectedCases();
  if (ids.empty()) return 0;
  QString why;
  if (needs_reason(act)) {
    auto r = reasonProvider ? reasonProvider(tr("%1 %n Case(s)", nullptr, static_cast<int>(ids.size())).arg(QString::fromLatin1(act_name(act))))
                            : std::nullopt;
    if (!r) return 0;
    why = *r;
  }
  try {
    auto* cmd = new CurationCommand(this, act, ids, why);
    undo_->push(cmd);  // runs redo()
    const int n = cmd->changed;
    emit statusMessage(tr("%1: %2 Case(s) changed").arg(QString::fromLatin1(act_name(act))).arg(n));
    return n;
  } catch (const std::exception& e) {
    warnPlain(this, tr("Curation"), QString::fromUtf8(e.what()));
    return 0;
  }
}

void GraphWidget::exportPng(const QString& path) const {
  const QRect vp = view_->viewport()->rect();
  QImage img(vp.size(), QImage::Format_ARGB32_Premultiplied);
  img.fill(Qt::white);
  {
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    view_->graphScene()->render(&p, QRectF(img.rect()), view_->mapToScene(vp).boundingRect());
  }
  if (!img.save(path, "PNG")) throw Error("cannot write the PNG '" + path.toStdString() + "'");
}

void GraphWidget::exportSvg(const QString& path) const {
  const QRect vp = view_->viewport()->rect();
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(vp.size());
  svg.setViewBox(QRect(QPoint(0, 0), vp.size()));
  svg.setTitle(QStringLiteral("Kope experience graph"));
  svg.setDescription(QStringLiteral("The current view of the Experience Graph"));
  QPainter p;
  if (!p.begin(&svg)) throw Error("cannot write the SVG '" + path.toStdString() + "'");
  view_->graphScene()->render(&p, QRectF(QPointF(0, 0), QSizeF(vp.size())), view_->mapToScene(vp).boundingRect());
  p.end();
}

void GraphWidget::exportGraphml(const QString& path) const {
  if (!store_) throw Error("no workspace open");
  std::ofstream out(path.toStdString(), std::ios::binary);
  if (!out) throw Error("cannot write the GraphML '" + path.toStdString() + "'");
  kope::memory::GraphExportOptions o;
  if (!filter_.task.isEmpty()) o.task = filter_.task.toStdString();
  kope::memory::export_graphml(*store_, out, o);
  if (!out.flush()) throw Error("cannot write the GraphML '" + path.toStdString() + "'");
}

}  // namespace kope::graph
